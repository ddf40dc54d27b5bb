/**
 * The library entry point: config → servers → catalog → model → loop, behind one object. Wiring only: each part
 * is built in its own module, and here they are connected.
 *
 *   const host = await createHost({ config: 'mcp-host.json' });
 *   for await (const event of host.stream('What is 5 plus 7?')) { … }
 *   await host.close();
 */

import { join } from 'node:path';
import { createRunId } from '../audit/audit-record.js';
import { type AuditRecorder, createAuditRecorder } from '../audit/audit-recorder.js';
import { recordServerStart } from '../audit/record-server-start.js';
import { createArgumentValidator } from '../catalog/argument-validation.js';
import type { ToolCatalog } from '../catalog/tool-catalog.js';
import { createClientFeatures } from '../client-features/client-features.js';
import { createServerFeatureAccess } from '../client-features/server-feature-access.js';
import { configFromObject } from '../config/config-from-object.js';
import { loadConfig } from '../config/load-config.js';
import { assertNoReservedServerNames } from '../config/reserved-names.js';
import { chosenStateDir } from '../config/state-dir.js';
import { approvalsPlace } from '../config/trust-commands.js';
import type { HostConfig, ServerConfig } from '../config/types.js';
import type { ServerConnection, ServerConnectionOptions } from '../connections/server-connection.js';
import { budgetToolResult } from '../content/budget-tool-results.js';
import { createCallExecutor } from '../loop/call-executor.js';
import { createHeadlessApprover } from '../policy/headless-approver.js';
import { RunApprovals } from '../policy/run-approvals.js';
import { connectedServerInstructions, withheldInstructionNotices } from '../skills/connected-server-instructions.js';
import { abandonStart, closeHost } from './close-host.js';
import { connectServers } from './connect-servers.js';
import { createDirectCall } from './direct-call.js';
import { createHostConversations } from './host-conversation.js';
import { createHostModel } from './host-model.js';
import { openHostSkills } from './host-skills.js';
import { openHostState } from './host-state.js';
import { createHostToolSet } from './host-tool-set.js';
import { HOST_TOOLS_SERVER } from './host-tools-server.js';
import type { Host, HostOptions } from './host-types.js';
import { LiveCatalog } from './live-catalog.js';
import { createOfferedTools } from './offered-tools.js';
import { remoteServerAuthorization } from './remote-server-authorization.js';
import { createToolReview } from './review-tools.js';
import { ruleWarnings } from './rule-warnings.js';
import { createServerControls } from './server-controls.js';
import { serverStatus } from './server-status.js';
import { createRun } from './start-run.js';
import { streamRun } from './stream-run.js';

export { HOST_TOOLS_SERVER } from './host-tools-server.js';
export type { Host, HostOptions, RunOptions } from './host-types.js';

export async function createHost(options: HostOptions = {}): Promise<Host> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const config =
    typeof options.config === 'object'
      ? configFromObject(options.config, { cwd, env })
      : await loadConfig({ configPath: options.config, cwd, env, stateDir: options.stateDir });
  assertNoReservedServerNames(config);
  const diagnostic = options.onDiagnostic ?? (() => undefined);
  for (const warning of config.warnings ?? []) diagnostic(warning);

  // The run's secrets: the config's, plus values the model sends under secret-looking keys (see loop/authorize-call).
  // Credentials the OAuth flow reads at run time join it too (see connections/oauth/remote-authorization).
  const secrets = [...config.secrets];
  const runConfig: HostConfig = { ...config, secrets };
  const state = openHostState(runConfig, options, env, cwd, diagnostic);
  const approvals = approvalsPlace(config.file, chosenStateDir(options.stateDir, cwd));
  const runId = createRunId();
  const audit: AuditRecorder = createAuditRecorder({ sink: state.audit, runId });
  const approver = options.approver ?? createHeadlessApprover();
  const model = createHostModel({ ...options, config, env, cwd });
  // Filled once the servers are connected; read at each use.
  const connections = new Map<string, ServerConnection>();
  let live: LiveCatalog | undefined;
  const system = options.system ?? config.system;
  const skills = openHostSkills({
    config,
    cwd,
    env,
    stateDir: state.stateDir,
    approvals,
    ...(system === undefined ? {} : { system }),
    serverInstructions: () => connectedServerInstructions(config.servers, connections),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    onDiagnostic: diagnostic,
    audit: () => audit,
  });
  await skills.recordReview();

  const features = createClientFeatures({
    config,
    cwd,
    env,
    roots: options.roots,
    approver: options.clientRequestApprover,
    allowSampling: options.allowSampling,
    provider: model.provider,
    createProvider: model.configured,
    onServerLog: options.onServerLog,
    onResourceUpdated: options.onResourceUpdated,
    onDiagnostic: diagnostic,
    audit: { sink: state.audit, runId, secrets },
    serverLogDirectory: join(state.stateDir, 'logs'),
    budget: (parts) => {
      const budgeted = budgetToolResult(parts, {
        store: state.results,
        maxTokensPerResult: options.maxResultTokens ?? config.maxResultTokens,
      });
      if (budgeted.cut) hostTools.resultStored();
      return budgeted.content;
    },
    ...options.clientFeatures,
  });
  const hostTools = createHostToolSet({
    results: state.results,
    skills: { entries: () => skills.entries, handlers: skills.handlers },
    resources: features.resourceTools({ connections: () => connections.values() }),
    onOfferChanged: () => {
      live?.invalidate();
      // Told as a server's change is, so a gateway's clients and the web UI list the host's tools afresh.
      options.onToolsChanged?.(HOST_TOOLS_SERVER);
    },
  });
  const connectionOptions: ServerConnectionOptions = {
    capabilities: features.capabilities,
    configureClient: features.configureClient,
    onDiagnostic: (server, message) => diagnostic(`server "${server}" ${message}`),
    onToolsChanged: (server) => {
      live?.markChanged(server);
      options.onToolsChanged?.(server);
    },
    onExit: (server, { description, ...fields }) => {
      diagnostic(description);
      void audit.serverExit({ server, ...fields });
    },
    transportFactory: options.transportFactory,
    // A tool result's text too long to hold in memory goes to the result store as it arrives.
    openSpill: () => state.results.startStream(),
    authorization: await remoteServerAuthorization(runConfig, state.stateDir, options, diagnostic),
    secrets,
  };
  const connected = await connectServers(config.servers, connectionOptions);
  for (const connection of connected.connections) connections.set(connection.name, connection);
  const started = { connections: () => connections.values(), features, state };
  const abandon = (error: unknown) => abandonStart(started, error, options.signal?.aborted === true, diagnostic);
  if (options.signal?.aborted) await abandon(options.signal.reason);
  for (const failure of connected.failures) diagnostic(failure.message);
  for (const notice of withheldInstructionNotices(config.servers, connections)) diagnostic(notice);
  for (const connection of connected.connections) await recordServerStart(audit, connection);

  live = new LiveCatalog(connections, {
    review: createToolReview({
      config,
      approvals,
      trustStore: state.trustStore,
      approver,
      audit: () => audit,
      // The listings as they are now (after any list_changed), not as they were at start-up.
      otherToolNames: (server) => live?.listedToolNames(server) ?? [],
      toolName: (server, tool) => live?.nameOf(server, tool),
      onNotice: diagnostic,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    }),
    extraEntries: () => hostTools.entries(),
    onDiagnostic: diagnostic,
    serverOrder: config.servers.map((server) => server.name),
    ...(options.relistWaitMs === undefined ? {} : { relistWaitMs: options.relistWaitMs }),
  });
  const catalog = live;
  // Every server's first-sight approvals in one save of the trust store (a save is an fsync), not one per server.
  await state.trustStore.batch(() => catalog.seed(connected.tools)).catch(abandon);
  const controls = createServerControls({
    servers: config.servers,
    connections,
    connectionOptions,
    relist: async (server) => {
      catalog.markChanged(server);
      await catalog.beginTurn();
    },
    forget: (server) => catalog.forget(server),
    onStarted: (connection) => recordServerStart(audit, connection),
    onStopped: (server, reason) => audit.serverExit({ server, reason }),
    status: (server) => statusOf(config.servers.find((candidate) => candidate.name === server)!),
  });
  if (options.signal?.aborted) await abandon(options.signal.reason);
  const catalogNow = (): ToolCatalog => catalog.current();
  const failedServers = connected.failures.map((failure) => failure.server);
  for (const warning of ruleWarnings(config, catalogNow().entries, failedServers)) diagnostic(warning);
  const statusOf = (server: ServerConfig) =>
    serverStatus(server, {
      connections,
      unsupportedTools: (name) => catalog.unsupportedTools(name),
      isDisabled: controls.isDisabled,
    });

  const runApprovals = new RunApprovals();
  const argumentValidator = createArgumentValidator();
  const executorFor = (initiator: 'model' | 'user', callable: () => ToolCatalog) =>
    createCallExecutor({
      config,
      catalog: callable,
      fullCatalog: catalogNow,
      initiator,
      approver,
      trustStore: state.trustStore,
      runApprovals,
      // An active skill's allowed-tools narrow the model's calls before the policy is asked; the user's own are theirs.
      ...(initiator === 'model'
        ? { narrow: (entry, args, context) => skills.narrow(entry, args, context, hostTools.handlers.has(entry.name)) }
        : {}),
      argumentValidator,
      results: state.results,
      audit: () => audit,
      secrets,
      toolTimeoutMs: options.toolTimeoutMs,
      maxResultTokens: options.maxResultTokens,
      onProgress: options.onProgress,
      onResultCut: hostTools.resultStored,
      onDiagnostic: diagnostic,
      // A server's exit is reported through `onDiagnostic` (`onExit` above): with none, nobody has heard it.
      serverExitsShown: options.onDiagnostic !== undefined,
      describeMissing: (name) => catalog.describeMissing(name),
      server: (name) => connections.get(name),
      hostTools: hostTools.handlers,
      confirmCurrent: (entry, signal) => catalog.confirmCurrentAtOnce(entry, signal),
      askToOpenRequiredUrl: (entry, required, context) =>
        features.askToOpenRequiredUrl(
          entry.server,
          { ...required, message: `To run the tool ${entry.name}: ${required.message}` },
          context.signal,
        ),
    });
  const access = createServerFeatureAccess({
    connections: () => [...connections.values()],
    roots: features.roots,
    cwd,
    onDiagnostic: diagnostic,
  });
  const offered = createOfferedTools(config.toolDiscovery, config.nativeToolSearch);
  const forModel = executorFor('model', () => offered.modelCatalog(catalogNow()));
  const run = createRun({
    runId,
    config,
    options,
    provider: model.provider,
    prompts: access.prompts,
    skills,
    // The catalog is swapped only here, when a turn begins.
    toolsForTurn: async (provider) => offered.forTurn(await catalog.beginTurn(), provider),
    execute: offered.withDiscovery(forModel),
  });

  let closed = false;
  const conversations = createHostConversations({
    stateDir: state.stateDir,
    configFile: config.file,
    contextTokens: config.contextTokens,
    provider: model.provider,
    createProvider: model.named,
    runTurn: (text, turn) => run(text, turn),
    systemPrompt: () => skills.systemPrompt().text,
    toolDefinitions: () => offered.definitions(catalogNow()),
    onResultStore: hostTools.addConversationStore,
    onDiagnostic: diagnostic,
  });
  return {
    config: runConfig,
    runId,
    stateDir: state.stateDir,
    approvals,
    catalog: catalogNow,
    servers: () => config.servers.map(statusOf),
    restartServer: (server) => controls.restart(server),
    disableServer: (server) => controls.disable(server),
    enableServer: (server) => controls.enable(server),
    failures: () => connected.failures,
    toolDefinitions: () => offered.definitions(catalogNow()),
    systemPrompt: () => skills.systemPrompt(),
    skills: () => ({
      offered: skills.review.offered,
      withheld: skills.review.withheld,
      problems: skills.discovered.problems,
    }),
    projectFolder: skills.projectFolder,
    connection: (server) => connections.get(server),
    provider: model.provider,
    run,
    stream: (prompt, streamOptions) => streamRun(run, prompt, streamOptions),
    conversation: conversations.open,
    callTool: createDirectCall({
      runId,
      forUser: executorFor('user', catalogNow),
      forModel,
      // An app's call is decided as the model's would be (it may ask), but may reach the app's own tools.
      forApp: executorFor('model', catalogNow),
    }),
    refreshCatalog: () => catalog.beginTurn(),
    reviewTools: (server) => {
      catalog.markChanged(server);
      return catalog.beginTurn();
    },
    withheldReason: (name) => catalog.describeMissing(name),
    readStoredText: (id) => state.results.readWhole(id),
    resources: access.resources,
    prompts: access.prompts,
    roots: access.roots,
    close: async () => {
      if (closed) return;
      closed = true;
      conversations.releaseAll();
      await closeHost(started, audit);
    },
  };
}
