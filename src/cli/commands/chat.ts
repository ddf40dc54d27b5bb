/** `mcp-host chat [--continue | --resume ID]`: a conversation at the terminal, saved as it goes. */
import { Command } from 'commander';
import { PLAIN_HOSTNAME_MARK } from '../../client-features/client-request-views.js';
import { formatServerLogLine } from '../../client-features/server-log.js';
import { createTerminalClientRequestApprover } from '../../client-features/terminal-client-request-approver.js';
import { loadConfig } from '../../config/load-config.js';
import { chosenStateDir } from '../../config/state-dir.js';
import type { Host } from '../../host/create-host.js';
import { quoteShellWord } from '../../json/quote-shell-word.js';
import type { ChatContext, ChatConversation } from '../chat/chat-context.js';
import { createChatInput } from '../chat/chat-input.js';
import { createChatLoop } from '../chat/chat-loop.js';
import { createChatOutput } from '../chat/chat-output.js';
import { createCompleter } from '../chat/completer.js';
import { modelLabel } from '../chat/model-label.js';
import { formatProgressLine } from '../chat/progress-line.js';
import { recordedSetting } from '../chat/recorded-session.js';
import { checkModelKey } from '../check-model-key.js';
import { chooseApprover } from '../choose-approver.js';
import { addCommonOptions, type CommonOptions } from '../common-options.js';
import { writeConfigWarnings } from '../config-warnings.js';
import { CliError, EXIT_OK, EXIT_SIGHUP, EXIT_SIGTERM, EXIT_USAGE } from '../exit-codes.js';
import { handleInterruptions } from '../interrupt.js';
import { openHost } from '../open-host.js';
import { writeError } from '../output.js';
import { unapprovedConfigNote } from '../unapproved-config-note.js';

interface ChatCommandOptions extends CommonOptions {
  continue?: boolean;
  resume?: string;
  yes?: boolean;
  verbose?: boolean;
  /** `--no-instructions` makes this false. */
  instructions: boolean;
}

export function createChatCommand(): Command {
  const command = new Command('chat')
    .description("talk with the model in the terminal, many turns, with the servers' tools; saved as it goes")
    .option('--continue', 'resume the newest saved conversation of this config')
    .option('--resume <id>', 'resume the saved conversation ID (see mcp-host sessions list)')
    .option('-y, --yes', 'approve every tool call not denied by a rule (audited as such)')
    .option('--verbose', "show servers' log messages")
    .option('--no-instructions', 'leave AGENTS.md, CLAUDE.md and the project memory out of the system prompt');
  addCommonOptions(command);
  // A message on the command line is refused here rather than by commander, to say where messages go.
  command.allowExcessArguments();
  return command.action(async (options: ChatCommandOptions, self: Command) => {
    if (self.args.length > 0) {
      const words = quoteShellWord(self.args.join(' '));
      throw new CliError(
        `chat takes no message on the command line: type it once the chat starts, or pipe it in (echo ${words} | mcp-host chat); for one answer, mcp-host run ${words}`,
        EXIT_USAGE,
      );
    }
    if (options.continue && options.resume !== undefined) {
      throw new CliError('--continue and --resume ID cannot be used together: give one', EXIT_USAGE);
    }
    process.exitCode = await chat(options);
  });
}

async function chat(given: ChatCommandOptions): Promise<number> {
  // Without --config, a resumed session keeps its own config file and model (--model still chooses another);
  // --continue picks among the sessions of the config in use, so it has none of its own to take.
  const recorded =
    given.resume !== undefined && given.config === undefined
      ? await recordedSetting(given.resume, given.stateDir)
      : undefined;
  const options: ChatCommandOptions =
    recorded === undefined ? given : { ...given, model: given.model ?? recorded.model };
  const config = recorded?.config ?? (await loadConfig({ configPath: options.config, stateDir: options.stateDir }));
  try {
    checkModelKey({ model: options.model, baseUrl: options.baseUrl, config, env: process.env });
  } catch (error) {
    // A config awaiting approval is not read, its model neither: said first, the model error is not a puzzle.
    const note = unapprovedConfigNote(
      config,
      { stateDir: chosenStateDir(options.stateDir) },
      'none of it is used (its model, its servers)',
    );
    if (note !== undefined) writeError(`mcp-host: ${note}`);
    writeConfigWarnings(config);
    throw error;
  }
  const output = createChatOutput({ stream: process.stdout, env: process.env });
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  let context: ChatContext | undefined;
  const input = createChatInput({
    input: process.stdin,
    output,
    terminal: process.stdout,
    complete: createCompleter(() => context),
  });
  // Until the chat is ready, Ctrl-C stops the start-up as it does for every command.
  const interruption = handleInterruptions();
  input.onInterrupt(() => process.emit('SIGINT'));
  let host: Host;
  try {
    host = await openHost(options, {
      config,
      signal: interruption.signal,
      instructions: options.instructions,
      approver: chooseApprover(options, input.prompter),
      // With no one at a terminal, servers' requests get the headless answers (declined), as in `run`.
      ...(interactive
        ? {
            clientRequestApprover: createTerminalClientRequestApprover({
              prompter: input.prompter,
              hostnameMark: PLAIN_HOSTNAME_MARK,
            }),
          }
        : {}),
      onProgress: (update) => output.live(formatProgressLine(update)),
      ...(options.verbose
        ? { onServerLog: (entry) => output.line(`[${entry.server}] ${formatServerLogLine(entry)}`) }
        : {}),
    });
  } catch (error) {
    interruption.dispose();
    input.close();
    if (interruption.exitCode !== undefined) return interruption.exitCode;
    throw error;
  }
  interruption.serversOpened();
  interruption.dispose();
  let stoppedBy: number | undefined;
  try {
    if (interruption.exitCode !== undefined) return interruption.exitCode;
    const conversation = await openConversation(host, options);
    const loop = createChatLoop({ host, conversation, input, output });
    context = loop.context;
    const stop = (code: number) => () => {
      stoppedBy = code;
      void loop.stop();
    };
    const onTerminate = stop(EXIT_SIGTERM);
    const onHangUp = stop(EXIT_SIGHUP);
    process.on('SIGTERM', onTerminate);
    process.on('SIGHUP', onHangUp);
    try {
      await showBanner(host, conversation, output, options.continue === true);
      await loop.run();
    } finally {
      process.off('SIGTERM', onTerminate);
      process.off('SIGHUP', onHangUp);
      await conversation.save().catch((error: unknown) => {
        writeError(
          `mcp-host: the conversation could not be saved: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    }
    return stoppedBy ?? EXIT_OK;
  } finally {
    input.close();
    await host.close();
  }
}

async function openConversation(host: Host, options: ChatCommandOptions): Promise<ChatConversation> {
  return host.conversation({
    ...(options.continue ? { continueLast: true } : {}),
    ...(options.resume !== undefined ? { sessionId: options.resume } : {}),
  });
}

async function showBanner(
  host: Host,
  conversation: ChatConversation,
  output: ReturnType<typeof createChatOutput>,
  continued: boolean,
) {
  const servers = host.servers().filter((server) => server.state === 'connected').length;
  const tools = host.catalog().size;
  output.line(
    output.styles.dim(
      `mcp-host chat · ${modelLabel(conversation.model())} · ${tools} tool(s) from ${servers} server(s) · session ${conversation.id}`,
    ),
  );
  const turns = conversation.history.filter((message) => message.role === 'user').length;
  if (turns > 0)
    output.line(output.styles.dim(`(resumed: ${conversation.history.length} message(s), ${turns} from you)`));
  else if (continued) {
    // --continue found nothing of this config: said, or the user takes the new conversation for the old one.
    const config = host.config.file === undefined ? 'held without a config file' : `of ${host.config.file}`;
    output.line(output.styles.dim(`(no saved conversation ${config} to continue: this is a new one)`));
  }
  if ((await host.provider()).provider === 'scripted') {
    output.line(
      output.styles.dim(
        '(the offline scripted model answers only what its script knows; for a real one: --model anthropic:claude-sonnet-4-6 with ANTHROPIC_API_KEY set)',
      ),
    );
  }
  output.line(output.styles.dim('/help for commands · Ctrl-C cancels a turn · Ctrl-D leaves'));
}
