/** Shared by the commands: the options every command takes, and a host opened from them. */
import { type Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config/load-config.js';
import { createHost, type Host, type HostOptions } from '../host/create-host.js';
import { chooseApprover } from './choose-approver.js';
import { onlyServers } from './choose-servers.js';
import { noServersNote } from './no-servers-note.js';
import { writeError } from './output.js';

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

export function addCommonOptions(command: Command): Command {
  return command
    .option('-c, --config <file>', 'config file (default: mcp-host.json, then .mcp.json in the current folder)')
    .option('-m, --model <provider:model>', 'model, e.g. anthropic:claude-sonnet-4-6 or scripted:PATH')
    .option('--base-url <url>', "the provider's base URL (mock servers, proxies, local servers)")
    .option('--timeout <ms>', 'per tool call timeout in milliseconds (overrides every server)', parsePositiveInteger)
    .option('--state-dir <dir>', 'where the trust store, audit log and stored results live (default: XDG state home)')
    .option(
      '--root <dir>',
      "offer this folder to servers as a root (repeatable; replaces the config's roots). Without roots, none are declared",
      (value: string, previous: string[] = []) => [...previous, value],
    );
}

export function parsePositiveInteger(value: string): number {
  const number = Number(value);
  // Commander reports this as a usage error naming the option and the value.
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number <= 0) {
    throw new InvalidArgumentError('It must be a whole number of 1 or more.');
  }
  return number;
}

export async function openHost(options: CommonOptions, extra: Partial<HostOptions> = {}): Promise<Host> {
  // With --server, the config is read here so only the named servers reach the host (and are started).
  // A command may have read the config already (run does, to check its model first).
  const given = typeof extra.config === 'object' ? extra.config : undefined;
  const config =
    options.server === undefined
      ? (given ?? options.config)
      : onlyServers(
          given ?? (await loadConfig({ configPath: options.config, stateDir: options.stateDir })),
          options.server,
        );
  const host = await createHost({
    model: options.model,
    baseUrl: options.baseUrl,
    toolTimeoutMs: options.timeout,
    stateDir: options.stateDir,
    ...(options.root === undefined ? {} : { roots: options.root }),
    onDiagnostic: (message) => writeError(`mcp-host: ${message}`),
    ...extra,
    config,
    approver: extra.approver ?? chooseApprover(options),
  });
  const note = noServersNote(host.config);
  if (note !== undefined) writeError(`mcp-host: ${note}`);
  return host;
}
