/** The options every command that opens a host takes, and the number parser several commands share. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { rootFolderProblem } from './root-folder-problem.js';

export interface CommonOptions {
  config?: string;
  model?: string;
  baseUrl?: string;
  timeout?: number;
  stateDir?: string;
  yes?: boolean;
  /** `--root DIR`, repeatable: the folders offered to servers as roots (over the config's `roots`). */
  root?: string[];
  /** `--server NAME`, repeatable: start only these servers. */
  server?: string[];
}

/** `--server NAME` for the commands that list what servers offer: only those servers are started. */
export function addServerFilterOption(command: Command): Command {
  return command.option(
    '--server <name>',
    'only this server: the others are not started (repeatable)',
    (value: string, previous: string[] = []) => [...previous, value],
  );
}

/** `--state-dir`, described alike by every command that takes it, with the defaults in the order they apply. */
export const STATE_DIR_HELP =
  'the state folder: trust store, audit log, sessions, stored results (default: $MCP_HOST_STATE_DIR, else $XDG_STATE_HOME/mcp-host, else ~/.local/state/mcp-host)';

export function addCommonOptions(command: Command): Command {
  return command
    .option('-c, --config <file>', 'config file (default: mcp-host.json, then .mcp.json in the current folder)')
    .option('-m, --model <provider:model>', 'model, e.g. anthropic:claude-sonnet-4-6 or scripted:PATH')
    .option('--base-url <url>', "the provider's base URL (mock servers, proxies, local servers)", parseBaseUrl)
    .option('--timeout <ms>', 'per tool call timeout in milliseconds (overrides every server)', parsePositiveInteger)
    .option('--state-dir <dir>', STATE_DIR_HELP)
    .addOption(rootOption());
}

/** `--root DIR`, for every command that starts servers (`serve` and `ui` too, which take few of the options above). */
export function rootOption(): Option {
  return new Option(
    '--root <dir>',
    "offer this folder to servers as a root (repeatable; replaces the config's roots). Without roots, none are declared",
  ).argParser((value: string, previous: string[] = []) => {
    // Commander reports this as a usage error naming the option and the value.
    const problem = rootFolderProblem(value);
    if (problem !== undefined) throw new InvalidArgumentError(problem);
    return [...previous, value];
  });
}

export function parsePositiveInteger(value: string): number {
  const number = Number(value);
  // Commander reports this as a usage error naming the option and the value.
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number <= 0) {
    throw new InvalidArgumentError('It must be a whole number of 1 or more.');
  }
  return number;
}

/** `--base-url`: an http or https URL, said wrong as the option is read rather than by the provider's library later. */
export function parseBaseUrl(value: string): string {
  const protocol = URL.canParse(value) ? new URL(value).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new InvalidArgumentError('It must be an http:// or https:// URL, e.g. http://127.0.0.1:8080/v1.');
  }
  return value;
}

/** A port to listen on, for every command that serves one (`ui --port`, `serve --http`, `mock-llm --port`). */
export function parsePort(value: string): number {
  const port = Number(value);
  // Commander reports this as a usage error naming the option and the value.
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidArgumentError('It must be a port number from 0 to 65535 (0 picks a free one).');
  }
  return port;
}
