/**
 * The library entry point: config → servers → catalog → model → loop, behind one object. Wiring only: each part
 * is built in its own module, and here they are connected.
 *
 *   const host = await createHost({ config: 'mcp-host.json' });
 *   for await (const event of host.stream('What is 5 plus 7?')) { … }
 *   await host.close();
 */

import { createRunId } from '../audit/audit-record.js';
import { type AuditRecorder, createAuditRecorder } from '../audit/audit-recorder.js';
import type { ToolCatalog } from '../catalog/tool-catalog.js';
import { createServerFeatureAccess } from '../client-features/server-feature-access.js';
import { storedResultBudget } from '../client-features/stored-result-budget.js';
import { chosenStateDir } from '../config/state-dir.js';
import { approvalsPlace } from '../config/trust-commands.js';
import type { ServerConnection } from '../connections/server-connection.js';
import { DEFAULT_RESULT_TOKEN_BUDGET } from '../content/default-result-budget.js';
import { createHeadlessApprover } from '../policy/headless-approver.js';
import { connectedServerInstructions } from '../skills/connected-server-instructions.js';
import { hostClose, startUpStops } from './close-host.js';
import { createDirectCall } from './direct-call.js';
import { hostCallExecutors } from './host-call-executors.js';
import { createHostCatalog } from './host-catalog.js';
import { openHostClientFeatures } from './host-client-features.js';
import { openHostConfig, runConfigOf } from './host-config.js';
import { hostConnectionOptions } from './host-connection-options.js';
import { createHostConversations } from './host-conversation.js';
import { createHostModel } from './host-model.js';
import { hostServerControls } from './host-server-controls.js';
import { openHostSkills } from './host-skills.js';
import { openHostState } from './host-state.js';
import { createHostToolSet } from './host-tool-set.js';
import type { Host, HostOptions } from './host-types.js';
import type { LiveCatalog } from './live-catalog.js';
import { createOfferedTools } from './offered-tools.js';
import { ruleWarnings } from './rule-warnings.js';
import { serverEvents } from './server-events.js';
import { createServersLoggingLevel } from './servers-logging-level.js';
import { createRun } from './start-run.js';
import { startServers } from './start-servers.js';
import { streamRun } from './stream-run.js';

export { HOST_TOOLS_SERVER } from './host-tools-server.js';
export type { Host, HostOptions, RunOptions } from './host-types.js';

export async function createHost(options: HostOptions = {}): Promise<Host> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const onDiagnostic = options.onDiagnostic ?? (() => undefined);
  const config = await openHostConfig(options, cwd, env, onDiagnostic);

  const runConfig = runConfigOf(config);
  const secrets = runConfig.secrets;
  const state = openHostState(runConfig, options, env, cwd, onDiagnostic);
  const approvals = approvalsPlace(config.file, chosenStateDir(options.stateDir, cwd));
  const runId = createRunId();
  const audit: AuditRecorder = createAuditRecorder({ sink: state.audit, runId });
  const approver = options.approver ?? createHeadlessApprover();
  const model = createHostModel({ ...options, config, env, cwd });
  // Filled once the servers are connected; read at each use.
  const connections = new Map<string, ServerConnection>();
  let live: LiveCatalog | undefined;
  const events = serverEvents({ catalog: () => live, audit, onDiagnostic, onToolsChanged: options.onToolsChanged });
  // What the skill and resource tools return and what a server's prompt opens a run with are cut as a tool result
  // is, the rest kept in the result store: once something is, the model is offered the tool that reads it.
  const maxTokensPerResult = options.maxResultTokens ?? config.maxResultTokens ?? DEFAULT_RESULT_TOKEN_BUDGET;
  const resultBudget = storedResultBudget({
    store: state.results,
    maxTokensPerResult,
    // Only calls and runs budget anything, and they come after the host tools below exist.
    onStored: () => hostTools.resultStored(),
  });
  const skills = openHostSkills({
    config,
    cwd,
    env,
    stateDir: state.stateDir,
    approvals,
    system: options.system ?? config.system,
    serverInstructions: () => connectedServerInstructions(config.servers, connections),
    instructions: options.instructions,
    onDiagnostic,
    audit: () => audit,
    budget: resultBudget,
  });
  await skills.recordReview();

  const features = openHostClientFeatures(options, {
    config,
    cwd,
    env,
    model,
    state,
    runId,
    secrets,
    onDiagnostic,
    budget: resultBudget,
    callsInFlight: (server) => connections.get(server)?.callsInFlight ?? 0,
  });
  const hostTools = createHostToolSet({
    results: state.results,
    skills: { entries: () => skills.entries, handlers: skills.handlers },
    resources: features.resourceTools({ connections: () => connections.values() }),
    onOfferChanged: events.onHostToolsChanged,
  });
  const connectionOptions = await hostConnectionOptions(options, { runConfig, features, events, state, onDiagnostic });
  const started = { connections: () => connections.values(), features, state };
  const { abandon, stopIfInterrupted } = startUpStops(started, options.signal, onDiagnostic);
  const connected = await startServers({
    servers: config.servers,
    connectionOptions,
    connections,
    audit,
    onDiagnostic,
    stopIfInterrupted,
  });

  live = createHostCatalog(options, {
    config,
    connections,
    approvals,
    state,
    approver,
    audit,
    hostTools,
    onDiagnostic,
  });
  const catalog = live;
  // Every server's first-sight approvals in one save of the trust store (a save is an fsync), not one per server.
  await state.trustStore.batch(() => catalog.seed(connected.tools)).catch(abandon);
  const loggingLevel = createServersLoggingLevel(config.servers, connections);
  const serverControls = hostServerControls({
    config,
    connections,
    connectionOptions,
    loggingLevel,
    catalog,
    audit,
    onToolsChanged: options.onToolsChanged,
  });
  await stopIfInterrupted();
  const catalogNow = (): ToolCatalog => catalog.current();
  const failedServers = connected.failures.map((failure) => failure.server);
  for (const warning of ruleWarnings(config, catalogNow().entries, failedServers)) onDiagnostic(warning);

  const access = createServerFeatureAccess({
    connections: () => [...connections.values()],
    roots: features.roots,
    cwd,
    budget: resultBudget,
    maxTokensPerResult,
    onDiagnostic,
  });
  const offered = createOfferedTools(config.toolDiscovery, config.nativeToolSearch);
  const executors = hostCallExecutors({
    config,
    options,
    catalog,
    approver,
    state,
    audit,
    secrets,
    skills,
    hostTools,
    features,
    connections,
    modelCatalog: () => offered.modelCatalog(catalogNow()),
    onDiagnostic,
  });
  const toolDefinitions = () => offered.definitions(catalogNow());
  const run = createRun({
    runId,
    config,
    options,
    provider: model.provider,
    prompts: access.prompts,
    skills,
    // The catalog is swapped only here, when a turn begins.
    toolsForTurn: async (provider) => offered.forTurn(await catalog.beginTurn(), provider),
    execute: offered.withDiscovery(executors.forModel),
  });

  const conversations = createHostConversations({
    stateDir: state.stateDir,
    configFile: config.file,
    contextTokens: config.contextTokens,
    provider: model.provider,
    createProvider: model.named,
    runTurn: (text, turn) => run(text, turn),
    systemPrompt: () => skills.systemPrompt().text,
    toolDefinitions,
    onResultStore: hostTools.addConversationStore,
    onDiagnostic,
  });
  return {
    config: runConfig,
    runId,
    stateDir: state.stateDir,
    approvals,
    catalog: catalogNow,
    ...serverControls,
    failures: () => connected.failures,
    toolDefinitions,
    systemPrompt: () => skills.systemPrompt(),
    skills: skills.overview,
    projectFolder: skills.projectFolder,
    connection: (server) => connections.get(server),
    setServersLoggingLevel: (level) => loggingLevel.set(level),
    serverLoggingLevelAsked: (server) => loggingLevel.askedOf(server),
    setServerLoggingLevel: (server, level) => loggingLevel.setFor(server, level),
    provider: model.provider,
    run,
    stream: (prompt, streamOptions) => streamRun(run, prompt, streamOptions),
    conversation: conversations.open,
    callTool: createDirectCall({ runId, ...executors }),
    refreshCatalog: () => catalog.beginTurn(),
    reviewTools: (server) => catalog.relist(server),
    withheldReason: (name) => catalog.describeMissing(name),
    withheldNotice: (name) => catalog.describeMissingToPerson(name),
    readStoredText: (id) => state.results.readWhole(id),
    ...access,
    close: hostClose(started, audit, conversations),
  };
}
