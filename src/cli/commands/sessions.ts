/**
 * `mcp-host sessions list [-c FILE] | show ID | export ID --format json|markdown | delete ID`: the conversations saved in the
 * state folder (`<stateDir>/sessions/`). Reading needs no config and starts no server.
 * Exit codes: 0 ok, 2 a usage error (an unknown id among them), 1 a file that could not be read or removed.
 */
import { type Command, Option } from 'commander';
import { readNamedConfigText } from '../../config/load-config.js';
import { existingStateDir, resolveStateDir } from '../../config/state-dir.js';
import { formatTranscriptLines, formatTranscriptMarkdown } from '../../sessions/format-transcript.js';
import { SessionFileError } from '../../sessions/read-session-file.js';
import { SessionInUseError } from '../../sessions/session-lock.js';
import { openSessionStore, type SessionStore, UnknownSessionError } from '../../sessions/session-store.js';
import { stripControlCodes } from '../../text/strip-control-codes.js';
import { CommandGroup } from '../command-group.js';
import { STATE_DIR_HELP } from '../common-options.js';
import { CliError, EXIT_RUN_FAILED, EXIT_USAGE } from '../exit-codes.js';
import { writeError, writeJson, writeLine, writeOut } from '../output.js';

interface SessionsOptions {
  stateDir?: string;
  config?: string;
  json?: boolean;
  format?: 'json' | 'markdown';
}

function storeFor(options: SessionsOptions): SessionStore {
  const stateDir = resolveStateDir({ flag: options.stateDir });
  existingStateDir(stateDir);
  return openSessionStore(stateDir);
}

/** An unknown id is the user's to fix (exit 2); a file that cannot be read is not (exit 1). */
function withSession<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof UnknownSessionError || error instanceof SessionInUseError)
      throw new CliError(error.message, EXIT_USAGE);
    if (error instanceof SessionFileError) throw new CliError(error.message, EXIT_RUN_FAILED);
    throw error;
  }
}

export function createSessionsCommand(): Command {
  const sessions = new CommandGroup('sessions').description(
    'the conversations saved in the state folder: list, show, export or delete them',
  );
  const withStateDir = (command: Command): Command => command.option('--state-dir <dir>', STATE_DIR_HELP);

  const list = withStateDir(sessions.createCommand('list'))
    .description('saved sessions, newest first')
    .option(
      '-c, --config <file>',
      'only the sessions held with this config file, those `chat --continue` chooses from (default: every session)',
    )
    .option('--json', 'print JSON')
    .action(async (_options: SessionsOptions, self: Command) => {
      const options = self.optsWithGlobals<SessionsOptions>();
      // The path as a chat records it; a file that is not there is a mistake to name, not an empty listing.
      const config =
        options.config === undefined ? undefined : (await readNamedConfigText(options.config, process.cwd())).file;
      const store = storeFor(options);
      const summaries = store
        .list((warning) => writeError(`mcp-host: ${warning}`))
        .filter((summary) => config === undefined || summary.config === config);
      if (options.json) {
        writeJson(summaries);
        return;
      }
      if (summaries.length === 0) {
        writeLine(`No saved sessions${config === undefined ? '' : ` of ${config}`} in ${store.directory}.`);
        return;
      }
      for (const summary of summaries) {
        writeLine(
          `${summary.id}  ${summary.updatedAt.slice(0, 16).replace('T', ' ')}  ${stripControlCodes(summary.model)}  ${stripControlCodes(summary.title)}`,
        );
      }
    });
  sessions.listByDefault(list);

  withStateDir(sessions.command('show'))
    .description('the transcript of one session')
    .argument('<id>', 'the session id (as `sessions list` shows it)')
    .action((id: string, _options: SessionsOptions, self: Command) => {
      const saved = withSession(() => storeFor(self.optsWithGlobals<SessionsOptions>()).read(id));
      for (const warning of saved.warnings) writeError(`mcp-host: ${warning}`);
      for (const line of formatTranscriptLines(saved)) writeLine(line);
    });

  withStateDir(sessions.command('export'))
    .description('one session in full, as JSON (the neutral transcript) or Markdown')
    .argument('<id>', 'the session id')
    .addOption(new Option('--format <format>', 'json or markdown').choices(['json', 'markdown']).default('json'))
    .action((id: string, _options: SessionsOptions, self: Command) => {
      const options = self.optsWithGlobals<SessionsOptions>();
      const saved = withSession(() => storeFor(options).read(id));
      for (const warning of saved.warnings) writeError(`mcp-host: ${warning}`);
      if (options.format === 'markdown') {
        writeOut(formatTranscriptMarkdown(saved));
        return;
      }
      const { title, config } = saved.header;
      writeJson({
        id: saved.id,
        title,
        config,
        model: saved.model,
        createdAt: saved.createdAt,
        updatedAt: saved.updatedAt,
        messages: saved.messages,
      });
    });

  withStateDir(sessions.command('delete'))
    .description('delete one saved session')
    .argument('<id>', 'the session id')
    .action((id: string, _options: SessionsOptions, self: Command) => {
      const store = storeFor(self.optsWithGlobals<SessionsOptions>());
      withSession(() => store.remove(id));
      writeLine(`Deleted session ${id}.`);
    });
  return sessions;
}
