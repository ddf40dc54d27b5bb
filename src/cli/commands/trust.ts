/**
 * `mcp-host trust`: what the trust store remembers, next to what the servers list now — and the way to approve or
 * revoke a server or a tool outside a run (the command every "withheld" message names). Approving shows what is
 * being approved (the diff for a changed tool, hidden content flags) so approving from a script is not blind.
 * Exit codes: 0 ok, 1 something could not be done (a server could not be listed), 2 a usage error.
 */

import type { Command } from 'commander';
import { resolveAuditLogPath } from '../../audit/audit-log-path.js';
import { openTrustChangeLog, type TrustChangeLog } from '../../audit/trust-change-log.js';
import { chosenStateDir, ensureStateDir, resolveStateDir } from '../../config/state-dir.js';
import { type ApprovalsPlace, approvalsPlace, FINGERPRINT_OPTION } from '../../config/trust-commands.js';
import type { ServerConfig } from '../../config/types.js';
import { showRaw } from '../../policy/hidden-content.js';
import { crossReferenceNames, reviewServerTools } from '../../policy/review-server-tools.js';
import type { PinnableTool } from '../../policy/tool-definition.js';
import { buildTrustReport, formatTrustReport } from '../../policy/trust-report.js';
import { TrustStore } from '../../policy/trust-store.js';
import { closeNames } from '../../text/close-names.js';
import { escapeJsonControlCodes } from '../../text/strip-control-codes.js';
import { CommandGroup } from '../command-group.js';
import { STATE_DIR_HELP } from '../common-options.js';
import { EXIT_RUN_FAILED, EXIT_USAGE } from '../exit-codes.js';
import { cleanedWriter } from '../output.js';
import { COMMAND_LINE, createCommandLineApprover } from './trust-approver.js';
import { approveConfigFile } from './trust-config.js';
import { approveSkill, revokeSkill, SKILL_PREFIX, type SkillTrustContext } from './trust-skill.js';

/** One configured server as the trust command needs it. */
export interface TrustCommandServer {
  config: ServerConfig;
  /** Its tools as listed now, with the namespaced names the catalog gives them (`CatalogEntry` fits); absent when not listed. */
  tools?: ReadonlyArray<{ name: string; tool: PinnableTool }>;
  /** Why the tools could not be listed (failed to start, timed out …), with the stderr tail if useful. */
  error?: string;
}

export interface LoadServersAndToolsOptions {
  /** `--config`, when given. */
  configPath?: string;
  /** False: only the config is needed; do not start any server. */
  listTools: boolean;
  /** Start and list only these servers (by config name); undefined: every enabled server. */
  serverNames?: string[];
  /** The state folder, resolved: where the config approvals and remote servers' OAuth tokens are kept. */
  stateDir: string;
  /** The same folder when chosen for this run (`--state-dir`): the commands printed name it. */
  chosenStateDir?: string;
}

export interface LoadedServersAndTools {
  /** Every server in the config (disabled ones too, without tools), in config order. */
  servers: TrustCommandServer[];
  /** `HostConfig.secrets`, redacted from command lines and the audit log. */
  secrets: string[];
  /** The config file read (`HostConfig.file`); absent when there was none. Its approvals are kept apart. */
  configFile?: string;
  /** The config's `auditFile`: trust changes go to the log a run of this config writes. */
  auditFile?: string;
}

export interface TrustCommandDependencies {
  /** Loads the config and, when asked, starts the named servers, lists their tools and closes them again. */
  loadServersAndTools(options: LoadServersAndToolsOptions): Promise<LoadedServersAndTools>;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
}

interface TrustOptions {
  config?: string;
  stateDir?: string;
  auditFile?: string;
  json?: boolean;
  offline?: boolean;
  /** `trust approve skill:NAME --fingerprint`: the fingerprint reviewed. */
  fingerprint?: string;
}

export function createTrustCommand(dependencies: TrustCommandDependencies): Command {
  const command = new CommandGroup('trust').description(
    'list servers and tools with their trust state; approve or revoke them',
  );
  const withCommonOptions = (sub: Command): Command =>
    sub
      .option('-c, --config <file>', 'the config file (default: mcp-host.json or .mcp.json here)')
      .option('--state-dir <dir>', STATE_DIR_HELP)
      .option('--audit-file <path>', 'the audit log that records trust changes');

  const list = withCommonOptions(command.createCommand('list'))
    .description('servers and tools with their state (starts the servers to compare what they list now)')
    .option('--offline', 'do not start servers: show only what the trust store remembers')
    .option('--json', 'machine-readable output')
    .action(async (_options: TrustOptions, self: Command) => {
      await listTrust(self, self.optsWithGlobals<TrustOptions>(), dependencies);
    });
  command.listByDefault(list);

  withCommonOptions(command.command('approve'))
    .description(
      'approve a server (its command line or URL and every tool it lists now), one of its tools, or skill:NAME',
    )
    .argument('<server>', 'server name as in the config, or skill:NAME for a skill')
    .argument('[tool]', "the tool's name on the server (or its namespaced name)")
    .option(
      `${FINGERPRINT_OPTION} <sha256>`,
      'for skill:NAME: approve only if its files still have this fingerprint, as `mcp-host skills show` printed it',
    )
    .action(async (server: string, tool: string | undefined, _options: TrustOptions, self: Command) => {
      const options = self.optsWithGlobals<TrustOptions>();
      if (server.startsWith(SKILL_PREFIX)) {
        const name = server.slice(SKILL_PREFIX.length);
        await approveSkill(self, name, skillContext(options, dependencies), options.fingerprint);
        return;
      }
      // A server's tools are reviewed as they are listed when it is approved: no fingerprint of them is shown.
      if (options.fingerprint !== undefined) {
        self.error(`error: ${FINGERPRINT_OPTION} is for approving a skill (skill:NAME), not a server or its tools.`, {
          exitCode: EXIT_USAGE,
        });
      }
      await approve(self, server, tool, options, dependencies);
    });

  withCommonOptions(command.command('config'))
    .description(
      'approve the content of the config found in this folder (mcp-host.json or .mcp.json), so its servers start',
    )
    .argument('[file]', 'the config file to approve (default: the one found in this folder)')
    .action(async (file: string | undefined, _options: TrustOptions, self: Command) => {
      await approveConfigFile(self, file, skillContext(self.optsWithGlobals<TrustOptions>(), dependencies));
    });

  withCommonOptions(command.command('revoke'))
    .description('revoke a server (all its tools), one tool, or skill:NAME: withheld until approved again')
    .argument('<server>', 'server name, or skill:NAME for a skill')
    .argument('[tool]', "the tool's name on the server (or its namespaced name)")
    .action(async (server: string, tool: string | undefined, _options: TrustOptions, self: Command) => {
      if (server.startsWith(SKILL_PREFIX)) {
        const options = self.optsWithGlobals<TrustOptions>();
        await revokeSkill(self, server.slice(SKILL_PREFIX.length), skillContext(options, dependencies));
        return;
      }
      await revoke(self, server, tool, self.optsWithGlobals<TrustOptions>(), dependencies);
    });
  return command;
}

/** Names, paths and errors come from the config and its servers: they are printed without control codes. */
function environment(dependencies: TrustCommandDependencies) {
  return {
    stdout: cleanedWriter(dependencies.stdout ?? process.stdout),
    stderr: cleanedWriter(dependencies.stderr ?? process.stderr),
    env: dependencies.env ?? process.env,
    cwd: dependencies.cwd ?? process.cwd(),
  };
}

function skillContext(options: TrustOptions, dependencies: TrustCommandDependencies): SkillTrustContext {
  return {
    ...environment(dependencies),
    ...(options.config === undefined ? {} : { configPath: options.config }),
    ...(options.stateDir === undefined ? {} : { stateDir: options.stateDir }),
    record: (stateDir, secrets, server, change, detail, fingerprint) => {
      const audit = openTrustAudit(options, dependencies, stateDir, secrets);
      try {
        audit.record({ serverName: server, change, detail, ...(fingerprint === undefined ? {} : { fingerprint }) });
      } finally {
        audit.close();
      }
    },
  };
}

/** Where the approvals are kept, as the commands printed name it. */
function approvalsOf(
  options: TrustOptions,
  loaded: LoadedServersAndTools,
  dependencies: TrustCommandDependencies,
): ApprovalsPlace {
  return approvalsPlace(loaded.configFile, chosenStateDir(options.stateDir, environment(dependencies).cwd));
}

function chosenStateDirOption(options: TrustOptions, dependencies: TrustCommandDependencies) {
  const chosen = chosenStateDir(options.stateDir, environment(dependencies).cwd);
  return chosen === undefined ? {} : { chosenStateDir: chosen };
}

function stateDirOf(options: TrustOptions, dependencies: TrustCommandDependencies): string {
  const { env, cwd } = environment(dependencies);
  return resolveStateDir({ ...(options.stateDir === undefined ? {} : { flag: options.stateDir }), env, cwd });
}

/**
 * The trust store as a run of the same config sees it: approvals are kept per config file (the host opens the
 * store with `scope: config.file ?? ''`), and approvals from before that are matched against the configured servers.
 */
function openStore(stateDir: string, loaded: LoadedServersAndTools): TrustStore {
  const store = TrustStore.inStateDir(stateDir, { scope: loaded.configFile ?? '' });
  store.useConfiguredServers(loaded.servers.map((server) => server.config));
  return store;
}

/** The audit log that records the changes made from the command line, one record per change. */
function openTrustAudit(
  options: TrustOptions,
  dependencies: TrustCommandDependencies,
  stateDir: string,
  secrets: string[],
  configAuditFile?: string,
): TrustChangeLog {
  const { env, cwd } = environment(dependencies);
  // As a run decides: --audit-file, then the config's auditFile, then MCP_HOST_AUDIT_FILE, then the state folder.
  const flag = options.auditFile ?? configAuditFile;
  const file = resolveAuditLogPath({
    ...(flag === undefined ? {} : { flag }),
    stateDir,
    env,
    cwd,
  });
  return openTrustChangeLog(file, { secrets, by: 'command-line' });
}

async function listTrust(
  command: Command,
  options: TrustOptions,
  dependencies: TrustCommandDependencies,
): Promise<void> {
  const { stdout } = environment(dependencies);
  const stateDir = stateDirOf(options, dependencies);
  const loaded = await dependencies.loadServersAndTools({
    ...(options.config === undefined ? {} : { configPath: options.config }),
    stateDir,
    ...chosenStateDirOption(options, dependencies),
    listTools: options.offline !== true,
  });
  const store = openStore(stateDir, loaded);
  const report = buildTrustReport(store, loaded.servers, { approvals: approvalsOf(options, loaded, dependencies) });
  stdout.write(
    options.json === true
      ? `${escapeJsonControlCodes(JSON.stringify(report, null, 2))}\n`
      : formatTrustReport(report, { offline: options.offline === true }),
  );
  const failed = loaded.servers.filter((server) => server.error !== undefined);
  if (failed.length > 0) {
    // Why each failed is in the listing just printed (the report's `error` in JSON); the closing line names them only.
    const names = failed.map((server) => server.config.name).join(', ');
    const why = options.json === true ? "each server's error field" : 'the listing above';
    command.error(`error: could not list the tools of ${names} (why: ${why}); shown from the trust store only.`, {
      exitCode: EXIT_RUN_FAILED,
      code: 'mcp-host.trust-list-incomplete',
    });
  }
}

/** A tool named by its server name or its namespaced name. */
function findTool(server: TrustCommandServer, name: string) {
  return server.tools?.find((entry) => entry.tool.name === name) ?? server.tools?.find((entry) => entry.name === name);
}

async function approve(
  command: Command,
  serverName: string,
  toolName: string | undefined,
  options: TrustOptions,
  dependencies: TrustCommandDependencies,
): Promise<void> {
  const { stdout, stderr } = environment(dependencies);
  const stateDir = stateDirOf(options, dependencies);
  const loaded = await dependencies.loadServersAndTools({
    ...(options.config === undefined ? {} : { configPath: options.config }),
    stateDir,
    ...chosenStateDirOption(options, dependencies),
    listTools: true,
    serverNames: [serverName],
  });
  const server = loaded.servers.find((candidate) => candidate.config.name === serverName);
  if (server === undefined) {
    const known = loaded.servers.map((candidate) => candidate.config.name).join(', ') || '(none)';
    command.error(`error: no server named "${serverName}" in the config; configured servers: ${known}.`);
  }
  const store = openStore(ensureStateDir(stateDir), loaded);
  const others = crossReferenceNames(
    loaded.servers.flatMap((candidate) =>
      (candidate.tools ?? []).map((entry) => ({ ...entry, server: candidate.config.name })),
    ),
    serverName,
  );

  const named = toolName === undefined ? undefined : findTool(server, toolName);
  if (toolName !== undefined && named === undefined) {
    // A name the server does not list is a usage error, as an unknown tool is for `tools call`; a server whose
    // tools could not be listed is a failed run.
    if (server.error !== undefined) {
      command.error(
        `error: cannot approve ${toolName}: the tools of ${serverName} could not be listed: ${server.error}.`,
        { exitCode: EXIT_RUN_FAILED },
      );
    }
    const listed = (server.tools ?? []).map((entry) => entry.tool.name);
    const close = closeNames(toolName, listed, 3);
    const hint = close.length > 0 ? ` (did you mean ${close.join(', ')}?)` : '; `mcp-host trust` shows its tools';
    command.error(`error: cannot approve ${toolName}: ${serverName} does not list a tool named "${toolName}"${hint}.`, {
      exitCode: EXIT_USAGE,
    });
  }
  const entries = named === undefined ? (server.tools ?? []) : [named];
  // What each was before, for the lines that say what changed.
  const serverWas = store.checkServer(server.config);
  const toolWas = new Map(entries.map((entry) => [entry.tool.name, store.checkTool(serverName, entry.tool)]));
  const namespaced = new Map(entries.map((entry) => [entry.tool.name, entry.name]));
  const audit = openTrustAudit(options, dependencies, stateDir, loaded.secrets, loaded.auditFile);
  let approvedAny = false;
  try {
    // The review a run makes, with the person at the command line as the approver of what it would withhold.
    await reviewServerTools({
      store,
      server: server.config,
      tools: entries,
      approver: createCommandLineApprover({ wholeServer: toolName === undefined, stdout, stderr }),
      approvedBy: COMMAND_LINE,
      otherServerToolNames: others,
      secrets: loaded.secrets,
      onNotice: (message) => stderr.write(`Note: ${message}\n`),
      onTrustChange: (change) => {
        if (change.change === 'server-approved' || change.change === 'tool-approved') {
          const tool = change.toolName;
          const was = tool === undefined ? serverWas : toolWas.get(tool);
          approvedAny = true;
          audit.record({ ...change, serverName, detail: `Approved from the command line (was ${was}).` });
          stdout.write(
            tool === undefined
              ? `Approved server ${serverName} (was ${was}).\n`
              : `Approved tool ${showRaw(namespaced.get(tool) ?? tool)} (was ${was}).\n`,
          );
        } else {
          audit.record({ ...change, serverName });
        }
      },
      approvals: approvalsOf(options, loaded, dependencies),
    });
  } finally {
    audit.close();
  }
  // A tool of a server whose command line or URL changed stays withheld, however its own pin stands.
  const allApprovedBefore = serverWas === 'known' && [...toolWas.values()].every((was) => was === 'approved');
  if (!approvedAny && allApprovedBefore && server.tools !== undefined) {
    const what =
      named !== undefined
        ? `Tool ${showRaw(named.name)} is`
        : entries.length === 0
          ? `Server ${serverName}, which lists no tools, is`
          : `Server ${serverName} and its ${entries.length === 1 ? 'one tool' : `${entries.length} tools`} are`;
    stdout.write(`${what} approved already: nothing to approve.\n`);
  }
  if (toolName === undefined && server.tools === undefined) {
    const why = server.error === undefined ? '' : `: ${server.error}`;
    command.error(
      `error: approved server ${serverName} but could not list its tools${why}; they are reviewed when it next starts.`,
      { exitCode: EXIT_RUN_FAILED, code: 'mcp-host.trust-approve-incomplete' },
    );
  }
}

async function revoke(
  command: Command,
  serverName: string,
  toolName: string | undefined,
  options: TrustOptions,
  dependencies: TrustCommandDependencies,
): Promise<void> {
  const { stdout } = environment(dependencies);
  // Only the config is read (no server is started): it says which config's approvals to revoke.
  const stateDir = stateDirOf(options, dependencies);
  const loaded = await dependencies.loadServersAndTools({
    ...(options.config === undefined ? {} : { configPath: options.config }),
    stateDir,
    ...chosenStateDirOption(options, dependencies),
    listTools: false,
  });
  ensureStateDir(stateDir);
  const store = openStore(stateDir, loaded);
  const stored = store.list().find((server) => server.name === serverName);
  if (stored === undefined) {
    const known =
      store
        .list()
        .map((server) => server.name)
        .join(', ') || '(none)';
    command.error(`error: server "${serverName}" is not in the trust store; servers there: ${known}.`);
  }
  let target = toolName;
  if (toolName !== undefined && !stored.tools.some((tool) => tool.name === toolName)) {
    // Accept the namespaced name too (`fs__write_file` for `write_file`).
    const prefix = `${serverName}__`;
    const stripped = toolName.startsWith(prefix) ? toolName.slice(prefix.length) : undefined;
    if (stripped === undefined || !stored.tools.some((tool) => tool.name === stripped)) {
      command.error(
        `error: ${serverName} has no tool "${toolName}" in the trust store; \`mcp-host trust\` lists them.`,
      );
    }
    target = stripped;
  }
  // As approving what is approved already: nothing changes, and a "Revoked" line would say something did.
  if (revokedAlready(stored, target)) {
    stdout.write(
      target === undefined
        ? `Server ${serverName} and its tools are revoked already: nothing to revoke.\n`
        : `Tool ${showRaw(target)} of ${serverName} is revoked already: nothing to revoke.\n`,
    );
    return;
  }
  store.revoke(serverName, target);
  const audit = openTrustAudit(options, dependencies, stateDir, loaded.secrets, loaded.auditFile);
  try {
    if (target === undefined) {
      audit.record({ serverName, change: 'server-revoked', detail: 'Revoked from the command line.' });
      stdout.write(`Revoked server ${serverName}: its tools are withheld until you approve it again.\n`);
    } else {
      audit.record({ serverName, toolName: target, change: 'tool-revoked', detail: 'Revoked from the command line.' });
      stdout.write(`Revoked ${serverName} tool ${showRaw(target)}: withheld until you approve it again.\n`);
    }
  } finally {
    audit.close();
  }
}

/** A server revoked with all its tools, or one tool revoked (itself, or with its server). */
function revokedAlready(stored: ReturnType<TrustStore['list']>[number], tool: string | undefined): boolean {
  if (tool === undefined) return stored.state === 'revoked' && stored.tools.every((entry) => entry.state === 'revoked');
  return stored.state === 'revoked' || stored.tools.some((entry) => entry.name === tool && entry.state === 'revoked');
}
