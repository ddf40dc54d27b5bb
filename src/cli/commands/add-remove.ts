/**
 * `mcp-host add NAME -- COMMAND ARGS…` and `mcp-host remove NAME`: edit the config file the way `claude mcp add`
 * does, without opening it. The file keeps its comments, its layout and the key it keeps servers under.
 */
import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import { approveConfig, configApprovalState } from '../../config/config-approvals.js';
import { removeServerEntry, serverSectionOf, setServerEntry } from '../../config/edit-config-text.js';
import { describeValue, formatKeyPath, isPlainObject } from '../../config/key-path.js';
import { CONFIG_FILE_NAMES } from '../../config/load-config.js';
import { refuseBeforeEdit } from '../../config/parse-config.js';
import { PROTOTYPE_KEY } from '../../config/prototype-key.js';
import { readConfigText } from '../../config/read-config-text.js';
import { HOST_TOOL_NAMESPACE, isReservedServerName } from '../../config/reserved-names.js';
import { listSections, type ServerSection } from '../../config/server-sections.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { setOwnProperty } from '../../json/own-property.js';
import { closeNames } from '../../text/close-names.js';
import { STATE_DIR_HELP } from '../common-options.js';
import { CliError, EXIT_USAGE } from '../exit-codes.js';
import { noConfigFound } from '../no-config-found.js';
import { writeLine } from '../output.js';

const TRANSPORTS = ['stdio', 'http', 'sse'] as const;
type Transport = (typeof TRANSPORTS)[number];

interface AddOptions {
  config?: string;
  stateDir?: string;
  transport: string;
  env?: string[];
  header?: string[];
}

/** Repeated values, with no default given to commander, whose help would show it as "(default: [])". */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function createAddCommand(): Command {
  return new Command('add')
    .description('add a server to the config file: NAME -- COMMAND [ARGS…], or --transport http NAME URL')
    .argument('<name>', 'the server name (its key among the servers of the config file)')
    .argument('[commandOrUrl]', 'the command that starts a local server, or a remote server URL')
    .argument('[args...]', "the command's arguments; put `--` before the command so its options stay its own")
    .option('-c, --config <file>', 'config file to edit (default: mcp-host.json, then .mcp.json; created if neither)')
    .option('-t, --transport <type>', 'stdio, http or sse', 'stdio')
    .option('-e, --env <NAME=value>', 'an environment variable for a local server (repeatable)', collect)
    .option('-H, --header <"Name: value">', 'an HTTP header for a remote server (repeatable)', collect)
    .option('--state-dir <dir>', STATE_DIR_HELP)
    .action(async (name: string, commandOrUrl: string | undefined, args: string[], given: AddOptions) => {
      const options = { ...given, env: given.env ?? [], header: given.header ?? [] };
      checkServerName(name);
      const entry = buildEntry(commandOrUrl, args, options);
      const file = configFileToEdit(options.config, true);
      const text = (await readConfigText(file)) ?? '';
      refuseBeforeEdit(text, file);
      const { section, servers } = sectionOrFail(text, file);
      if (Object.hasOwn(servers, name)) {
        throw new CliError(
          `${file} already has a server "${name}"; remove it first with \`mcp-host remove ${name}\``,
          EXIT_USAGE,
        );
      }
      const edited = await writeAtomically(file, setServerEntry(text, section, name, entry));
      keepApproval(options, file, text === '' ? undefined : text, edited);
      writeLine(`added ${entry.command === undefined ? 'remote' : 'local'} server "${name}" to ${file}`);
    });
}

export function createRemoveCommand(): Command {
  return new Command('remove')
    .description('remove a server from the config file')
    .argument('<name>', 'the server name')
    .option('-c, --config <file>', 'config file to edit (default: mcp-host.json, then .mcp.json)')
    .option('--state-dir <dir>', STATE_DIR_HELP)
    .action(async (name: string, options: { config?: string; stateDir?: string }) => {
      const file = configFileToEdit(options.config, false);
      const text = await readConfigText(file);
      if (text === undefined) throw new CliError(`no config file at ${file}`, EXIT_USAGE);
      refuseBeforeEdit(text, file);
      const { section, servers } = sectionOrFail(text, file);
      if (!Object.hasOwn(servers, name)) {
        const names = Object.keys(servers);
        throw new CliError(
          `no server "${name}" in ${file}${names.length ? ` (it has ${names.join(', ')})` : ''}`,
          EXIT_USAGE,
        );
      }
      const edited = await writeAtomically(file, removeServerEntry(text, section, name));
      keepApproval(options, file, text, edited);
      writeLine(`removed server "${name}" from ${file}`);
    });
}

interface NewEntry {
  type?: Transport;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}

function buildEntry(
  commandOrUrl: string | undefined,
  args: string[],
  options: AddOptions & Required<Pick<AddOptions, 'env' | 'header'>>,
): NewEntry {
  const transport = options.transport as Transport;
  if (!TRANSPORTS.includes(transport)) {
    const [close] = closeNames(options.transport, TRANSPORTS, 1);
    throw new CliError(
      `--transport must be one of ${TRANSPORTS.join(', ')}, got ${JSON.stringify(options.transport)}${close === undefined ? '' : ` — did you mean ${close}?`}`,
      EXIT_USAGE,
    );
  }
  if (commandOrUrl === undefined || commandOrUrl === '') {
    throw new CliError(
      transport === 'stdio'
        ? 'add needs the command that starts the server: mcp-host add NAME -- COMMAND [ARGS…]'
        : `add needs the server's URL: mcp-host add --transport ${transport} NAME URL`,
      EXIT_USAGE,
    );
  }
  if (transport === 'stdio') {
    // A URL is no program to run: started, it would fail with "not found" long after the mistake was made.
    if (isHttpUrl(commandOrUrl)) {
      throw new CliError(
        `"${commandOrUrl}" is a URL, not a command that starts a local server; add a remote server with: mcp-host add --transport http NAME URL`,
        EXIT_USAGE,
      );
    }
    if (options.header.length > 0) throw new CliError('--header is for remote servers (--transport http)', EXIT_USAGE);
    const env = keyValues(options.env, '=', '--env', 'NAME=value');
    return {
      command: commandOrUrl,
      ...(args.length ? { args } : {}),
      ...(Object.keys(env).length ? { env } : {}),
    };
  }
  if (args.length > 0) throw new CliError(`a remote server takes only a URL; unexpected "${args[0]}"`, EXIT_USAGE);
  if (options.env.length > 0)
    throw new CliError('--env is for local servers; remote servers take --header', EXIT_USAGE);
  if (!isHttpUrl(commandOrUrl)) {
    throw new CliError(`expected an http:// or https:// URL for a remote server, got "${commandOrUrl}"`, EXIT_USAGE);
  }
  const headers = keyValues(options.header, ':', '--header', '"Name: value"');
  return { type: transport, url: commandOrUrl, ...(Object.keys(headers).length ? { headers } : {}) };
}

function keyValues(items: string[], separator: string, flag: string, shape: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    const key = at === -1 ? '' : item.slice(0, at).trim();
    if (key === '') throw new CliError(`${flag} expects ${shape}, got "${item}"`, EXIT_USAGE);
    setOwnProperty(result, key, item.slice(at + 1).trim());
  }
  return result;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The explicit file, else the first config file in the working folder, else (for `add`) a new mcp-host.json. */
function configFileToEdit(explicit: string | undefined, creating: boolean): string {
  if (explicit !== undefined) return path.resolve(explicit);
  const cwd = process.cwd();
  const found = CONFIG_FILE_NAMES.map((name) => path.join(cwd, name)).find((file) => existsSync(file));
  if (found !== undefined) return found;
  if (creating) return path.join(cwd, CONFIG_FILE_NAMES[0]);
  throw new CliError(`${noConfigFound(cwd)}; pass --config FILE`, EXIT_USAGE);
}

function sectionOrFail(text: string, file: string): { section: ServerSection; servers: Record<string, unknown> } {
  const found = serverSectionOf(text);
  if (found === undefined) {
    throw new CliError(
      `${file} is not a JSON object; fix it first (mcp-host servers -c ${file} shows where)`,
      EXIT_USAGE,
    );
  }
  const { section, servers, others } = found;
  if (!isPlainObject(servers)) {
    throw new CliError(
      `${quotedSection(section)} in ${file} is ${describeValue(servers)}; it must be an object of servers`,
      EXIT_USAGE,
    );
  }
  if (others.length > 0) {
    // The config refuses the file as it is: an edit of one section would look done and leave it unreadable.
    throw new CliError(
      `${file} has servers under ${listSections([section, ...others], 'and')}, which the config refuses; keep them under one first`,
      EXIT_USAGE,
    );
  }
  return { section, servers };
}

/** A section's key path in quotes, unless its brackets set it apart already (`["mcp.servers"]`, the flat key). */
function quotedSection(section: ServerSection): string {
  const keyPath = formatKeyPath(section);
  return keyPath.startsWith('[') ? keyPath : `"${keyPath}"`;
}

/** A name the config would refuse on its next read is refused before the file is written. */
function checkServerName(name: string): void {
  if (name === '') throw new CliError('the server name must not be empty', EXIT_USAGE);
  if (isReservedServerName(name)) {
    throw new CliError(
      `server names starting with "${HOST_TOOL_NAMESPACE}" are reserved for the host's own tools, so "${name}" would make the config unreadable: choose another name`,
      EXIT_USAGE,
    );
  }
  if (name === PROTOTYPE_KEY) {
    throw new CliError(
      `"${PROTOTYPE_KEY}" cannot name a server: JSON readers drop the key, so the config refuses it; choose another name`,
      EXIT_USAGE,
    );
  }
}

/** Written beside the file and renamed over it, so an interrupted edit never leaves half a config. */
async function writeAtomically(file: string, text: string): Promise<string> {
  const temporary = `${file}.${process.pid}.tmp`;
  const written = text.endsWith('\n') ? text : `${text}\n`;
  await writeFile(temporary, written).catch((error: unknown) => {
    // Said of the file asked for: the temporary name beside it means nothing to the person.
    const code = (error as NodeJS.ErrnoException).code;
    const folder = path.dirname(file);
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new CliError(`cannot write ${file}: there is no folder ${folder}`, EXIT_USAGE);
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      throw new CliError(`cannot write ${file}: the folder ${folder} may not be written to (${code})`, EXIT_USAGE);
    throw error;
  });
  await rename(temporary, file);
  return written;
}

/**
 * Your own edit of a config found in the working folder keeps it approved: a file this command created, or one
 * approved as it was before the edit, is approved as it is after. An unapproved file stays unapproved. The approvals
 * are in the state folder, so `--state-dir` names the one the other commands are run with.
 */
function keepApproval(
  options: { config?: string; stateDir?: string },
  file: string,
  before: string | undefined,
  after: string,
): void {
  if (options.config !== undefined) return;
  const stateDir = resolveStateDir({ flag: options.stateDir });
  if (before !== undefined && configApprovalState(stateDir, file, before) !== 'approved') return;
  approveConfig(stateDir, file, after);
}
