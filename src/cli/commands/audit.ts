/**
 * `mcp-host audit`: reads the audit log back for people (a table) or scripts (`--json`, one record per line), with
 * filters, and `--follow` to watch calls as they happen. Exit codes: 0 ok (also when there is no log yet), 1 the
 * log could not be read, 2 a usage error.
 */

import { join } from 'node:path';
import type { Command } from 'commander';
import { MAX_AUDIT_LINE_BYTES } from '../../audit/audit-line-splitter.js';
import { AUDIT_LOG_FILE_NAME, resolveAuditLogPath } from '../../audit/audit-log-path.js';
import type { AuditRecord } from '../../audit/audit-record.js';
import { followAuditLog } from '../../audit/follow-audit-log.js';
import { formatAuditHeader, formatAuditRow, formatAuditTable } from '../../audit/format-audit-record.js';
import { type AuditLogFilter, readAuditLog } from '../../audit/read-audit-log.js';
import { loadConfig } from '../../config/load-config.js';
import { existingStateDir, resolveStateDir } from '../../config/state-dir.js';
import { closeNames } from '../../text/close-names.js';
import { escapeJsonControlCodes } from '../../text/strip-control-codes.js';
import { STATE_DIR_HELP } from '../common-options.js';
import { EXIT_RUN_FAILED, EXIT_SIGINT, EXIT_SIGTERM } from '../exit-codes.js';
import { UsageErrorCommand } from '../usage-error-command.js';

export interface AuditCommandDependencies {
  /** Default `process.stdout`. */
  stdout?: NodeJS.WritableStream;
  /** Default `process.stderr`. */
  stderr?: NodeJS.WritableStream;
  /** Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default `process.cwd()`. */
  cwd?: string;
  /** Ends `--follow`. Default: the first SIGINT or SIGTERM. */
  signal?: AbortSignal;
  /** Default `() => new Date()`; `--since 1h` counts back from it. */
  now?: () => Date;
}

const DURATION_UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `--since`: a duration back from now (`30m`, `1h`, `2d`, `1w`, `90s`) or a date (`2025-01-31`, ISO 8601). */
export function parseSince(text: string, now: Date): Date | undefined {
  const duration = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(text.trim());
  if (duration !== null) {
    const unit = DURATION_UNITS[duration[2]!.toLowerCase()]!;
    return new Date(now.getTime() - Number(duration[1]) * unit);
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return undefined;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : new Date(parsed);
}

interface AuditOptions {
  since?: string;
  server?: string;
  tool?: string;
  json?: boolean;
  follow?: boolean;
  stateDir?: string;
  auditFile?: string;
  config?: string;
}

export function createAuditCommand(dependencies: AuditCommandDependencies = {}): Command {
  const command = new UsageErrorCommand('audit');
  command
    .description(
      'show the audit log: every tool call with its decision and outcome, server starts and exits, trust changes',
    )
    .option('--since <when>', 'only records since a duration ago (30m, 1h, 2d) or a date (2025-01-31, ISO 8601)')
    .option('--server <name>', 'only records of this server')
    .option('--tool <pattern>', 'only records of tools matching this glob (namespaced or server name, e.g. "fs__*")')
    .option('--json', 'one JSON record per line instead of a table')
    .option('-f, --follow', 'keep printing records as they are written (Ctrl-C to stop)')
    .option('--state-dir <dir>', STATE_DIR_HELP)
    .option(
      '-c, --config <file>',
      "read the log this config's auditFile names (default: mcp-host.json or .mcp.json here)",
    )
    .option(
      '--audit-file <path>',
      'the audit log (default: $MCP_HOST_AUDIT_FILE, else audit.jsonl in the state folder)',
    )
    .action(async (_options: AuditOptions, self: Command) => {
      await runAudit(self, self.optsWithGlobals<AuditOptions>(), dependencies);
    });
  return command;
}

async function runAudit(
  command: Command,
  options: AuditOptions,
  dependencies: AuditCommandDependencies,
): Promise<void> {
  const stdout = dependencies.stdout ?? process.stdout;
  const stderr = dependencies.stderr ?? process.stderr;
  const env = dependencies.env ?? process.env;
  const cwd = dependencies.cwd ?? process.cwd();
  const now = dependencies.now?.() ?? new Date();

  const filter: AuditLogFilter = {};
  if (options.since !== undefined) {
    const since = parseSince(options.since, now);
    if (since === undefined) {
      command.error(
        `error: --since expects a duration such as 30m, 1h or 2d, or a date such as 2025-01-31 or 2025-01-31T12:00:00Z; got "${options.since}".`,
      );
    }
    filter.since = since;
  }
  if (options.server !== undefined) filter.server = options.server;
  if (options.tool !== undefined) filter.tool = options.tool;

  const stateDir = resolveStateDir({ ...(options.stateDir === undefined ? {} : { flag: options.stateDir }), env, cwd });
  // As a run decides: --audit-file, then the config's auditFile, then MCP_HOST_AUDIT_FILE, then the state folder.
  const configured =
    options.auditFile === undefined
      ? (await loadConfig({ ...(options.config === undefined ? {} : { configPath: options.config }), cwd, env }))
          .auditFile
      : undefined;
  const flag = options.auditFile ?? configured;
  const file = resolveAuditLogPath({
    ...(flag === undefined ? {} : { flag }),
    stateDir,
    env,
    cwd,
  });
  // A file in the folder's place is refused as the other commands refuse it, not reported as a log not written yet;
  // a log named elsewhere does not need the folder.
  if (file === join(stateDir, AUDIT_LOG_FILE_NAME)) existingStateDir(stateDir);

  let contents: Awaited<ReturnType<typeof readAuditLog>>;
  try {
    contents = await readAuditLog(file, filter);
  } catch (error) {
    command.error(`error: ${(error as Error).message}`, {
      exitCode: EXIT_RUN_FAILED,
      code: 'mcp-host.audit-unreadable',
    });
  }
  if (!contents.exists)
    stderr.write(`mcp-host: no audit log at ${file} yet; it is written when the host runs tools.\n`);
  if (contents.skippedLines > 0) {
    const torn = contents.tornLastLine ? ' (the last one was cut short by a host that stopped mid-write)' : '';
    const overlong =
      contents.overlongLines > 0 ? `, ${contents.overlongLines} of them longer than ${MAX_AUDIT_LINE_BYTES} bytes` : '';
    stderr.write(
      `mcp-host: skipped ${contents.skippedLines} line(s) of ${file} that were not whole records${overlong}${torn}.\n`,
    );
  }

  const print = (record: AuditRecord): void => {
    stdout.write(
      options.json === true ? `${escapeJsonControlCodes(JSON.stringify(record))}\n` : formatAuditRow(record),
    );
  };
  if (options.follow !== true) {
    if (options.json === true) for (const record of contents.records) print(record);
    else if (contents.records.length > 0) stdout.write(formatAuditTable(contents.records));
    else if (contents.exists)
      stderr.write(`No records match${unknownServerNote(options.server, contents.serverNames)}.\n`);
    return;
  }

  // Listening for Ctrl-C before the first line is printed: whoever sees output may stop the command, and a signal
  // before the handlers would end the process without its exit code.
  const { signal, release, exitCode } = followSignal(dependencies.signal);
  try {
    if (options.json !== true) stdout.write(formatAuditHeader());
    for (const record of contents.records) print(record);
    for await (const record of followAuditLog(file, { filter, signal, startOffset: contents.endOffset })) print(record);
  } finally {
    release();
  }
  // Stopped by Ctrl-C or SIGTERM: exits as every other command does (130, 143), as `tail -f` does.
  const stoppedBy = exitCode();
  if (stoppedBy !== undefined) process.exitCode = stoppedBy;
}

interface FollowSignal {
  signal: AbortSignal;
  release: () => void;
  /** 130 or 143 once a SIGINT or SIGTERM stopped the following; undefined otherwise. */
  exitCode: () => number | undefined;
}

/** The caller's signal, or one that aborts on the first SIGINT or SIGTERM (handlers removed afterwards). */
function followSignal(given: AbortSignal | undefined): FollowSignal {
  if (given !== undefined) return { signal: given, release: () => {}, exitCode: () => undefined };
  const controller = new AbortController();
  let stoppedBy: number | undefined;
  const interrupt = (): void => {
    stoppedBy = EXIT_SIGINT;
    controller.abort();
  };
  const terminate = (): void => {
    stoppedBy = EXIT_SIGTERM;
    controller.abort();
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', terminate);
  return {
    signal: controller.signal,
    release: () => {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', terminate);
    },
    exitCode: () => stoppedBy,
  };
}

/** `--server` naming a server no record of the log names, most often a misspelling, as the note after the colon. */
function unknownServerNote(server: string | undefined, serverNames: ReadonlySet<string> | undefined): string {
  if (server === undefined || serverNames === undefined || serverNames.has(server)) return '';
  const [close] = closeNames(server, [...serverNames], 1);
  // The log's names are quoted as JSON strings: a control code in one would reach the terminal.
  const hint = close === undefined ? '' : ` (did you mean ${JSON.stringify(close)}?)`;
  return `: no record names a server ${JSON.stringify(server)}${hint}`;
}
