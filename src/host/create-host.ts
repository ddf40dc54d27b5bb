/**
 * The library entry point: config → servers → catalog → model → loop, behind one object.
 *
 *   const host = await createHost({ config: 'mcp-host.json' });
 *   for await (const event of host.stream('What is 5 plus 7?')) { … }
 *   await host.close();
 */

import { dirname, join } from 'node:path';
import { createRunId } from '../audit/audit-record.js';
import { type AuditRecorder, createAuditRecorder } from '../audit/audit-recorder.js';
import { createArgumentValidator } from '../catalog/argument-validation.js';
import type { CatalogEntry, ToolCatalog } from '../catalog/tool-catalog.js';
import { toolUiOf } from '../catalog/tool-ui.js';
import { createClientFeatures } from '../client-features/client-features.js';
import { createServerFeatureAccess } from '../client-features/server-feature-access.js';
import { loadConfig } from '../config/load-config.js';
import { assertNoReservedServerNames } from '../config/reserved-names.js';
import type { HostConfig } from '../config/types.js';
import type { ServerConnection, ServerConnectionOptions, ServerStatus } from '../connections/server-connection.js';
import { budgetToolResult } from '../content/budget-tool-results.js';
import { estimateTokens } from '../content/linear-token-estimate.js';
import { handleReadStoredResult, readStoredResultTool } from '../content/read-stored-result-tool.js';
import type { ResultStore } from '../content/result-store.js';
import { createCallExecutor } from '../loop/call-executor.js';
import { eventStream } from '../loop/event-stream.js';
import type { HostToolHandler } from '../loop/execute-tool-call.js';
import { linkSignals } from '../loop/linked-signal.js';
import { type RunResult, runAgent } from '../loop/run-agent.js';
import type { ToolCallContext } from '../loop/tool-call-types.js';
import { createHeadlessApprover } from '../policy/headless-approver.js';
import { checkRules } from '../policy/permission-rules.js';
import { RunApprovals } from '../policy/run-approvals.js';
import type { LlmProvider, Message, ToolDefinition, UserPart } from '../providers/types.js';
import { openConversation } from '../sessions/open-conversation.js';
import { openSessionStore } from '../sessions/session-store.js';
import {
  boundServerInstructions,
  instructionsAllowed,
  type ServerInstructions,
} from '../skills/server-instructions.js';
import { connectServers } from './connect-servers.js';
import { createProvider } from './create-provider.js';
import { openHostSkills } from './host-skills.js';
import { openHostState } from './host-state.js';
import { HOST_TOOLS_SERVER } from './host-tools-server.js';
import type { Host, HostOptions, HostServerStatus, RunOptions } from './host-types.js';
import { LiveCatalog } from './live-catalog.js';
import { chooseModel } from './model-choice.js';
import { readAcrossStores } from './read-across-stores.js';
import { remoteServerAuthorization } from './remote-server-authorization.js';
import { createToolReview } from './review-tools.js';
import { createServerControls } from './server-controls.js';
import { DiscoveryCatalog, discoveryApplies, metaToolDefinitions, withDiscovery } from './tool-discovery.js';

export { HOST_TOOLS_SERVER } from './host-tools-server.js';
export type { Host, HostOptions, RunOptions } from './host-types.js';

export async function createHost(options: HostOptions = {}): Promise<Host> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const config =
    typeof options.config === 'object'
      ? options.config
      : await loadConfig({ configPath: options.config, cwd, env, stateDir: options.stateDir });
  assertNoReservedServerNames(config);
  const diagnostic = options.onDiagnostic ?? (() => undefined);
  for (const warning of config.warnings ?? []) diagnostic(warning);

  // The run's secrets: the config's, plus values the model sends under secret-looking keys (see loop/authorize-call).
  const secrets = [...config.secrets];
  const state = openHostState({ ...config, secrets }, options, env, cwd, diagnostic);
  const runId = createRunId();
  const audit: AuditRecorder = createAuditRecorder({ sink: state.audit, runId });
  const approver = options.approver ?? createHeadlessApprover();
  // Set once the servers are connected; the system prompt is composed at each run, long after.
  let serverInstructions: () => ServerInstructions[] = () => [];
  const system = options.system ?? config.system;
  const skills = openHostSkills({
    config,
    cwd,
    env,
    stateDir: state.stateDir,
    ...(system === undefined ? {} : { system }),
    serverInstructions: () => serverInstructions(),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    onDiagnostic: diagnostic,
    audit: () => audit,
  });
  await skills.recordReview();

  let live: LiveCatalog | undefined;
  let hostModel: (() => Promise<LlmProvider>) | undefined;
  const features = createClientFeatures({
    config,
    cwd,
    env,
    roots: options.roots,
    approver: options.clientRequestApprover,
    allowSampling: options.allowSampling,
    // Servers may ask for sampling as soon as they are connected, before `provider` below is defined.
    provider: () =>
      hostModel ? hostModel() : Promise.reject(new Error('the host is still starting; ask again in a moment')),
    createProvider: (spec) =>
      createProvider(spec, { baseUrl: options.baseUrl, env, cwd: config.file ? dirname(config.file) : cwd }),
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
      if (budgeted.cut && !storedAnything) {
        storedAnything = true;
        live?.invalidate();
      }
      return budgeted.content;
    },
    ...options.clientFeatures,
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
    authorization: await remoteServerAuthorization(config, state.stateDir, options, diagnostic),
    secrets,
  };
  const connected = await connectServers(config.servers, connectionOptions);
  // Interrupted start-up: close what was started, whatever step the signal came in.
  const abandon = async (error: unknown): Promise<never> => {
    await Promise.all(connected.connections.map((connection) => connection.close().catch(() => undefined)));
    // Stopped on purpose: a server killed mid-initialize did not "fail to start", whatever its exit looked like.
    if (options.signal?.aborted) {
      for (const connection of connected.connections)
        diagnostic(`server "${connection.name}" stopped: start-up was interrupted`);
    }
    await features.close().catch(() => undefined);
    await state.audit.close();
    throw error;
  };
  if (options.signal?.aborted) await abandon(options.signal.reason);
  for (const failure of connected.failures) diagnostic(failure.message);
  const connections = new Map<string, ServerConnection>(connected.connections.map((entry) => [entry.name, entry]));
  serverInstructions = () =>
    config.servers.flatMap((server) => {
      const connection = connections.get(server.name);
      if (!instructionsAllowed(server) || connection?.state !== 'connected') return [];
      const bounded = boundServerInstructions(server.name, connection.instructions);
      return bounded === undefined ? [] : [bounded];
    });
  for (const server of config.servers) {
    const sent = connections.get(server.name)?.instructions;
    if (instructionsAllowed(server) || sent === undefined || sent.trim() === '') continue;
    diagnostic(
      `server "${server.name}" sent instructions for the model; they are left out because the server is untrusted (set "allowInstructions": true on it to include them)`,
    );
  }
  const recordStart = async (connection: ServerConnection) => {
    const status = connection.status();
    if (status.state !== 'connected') return;
    await audit.serverStart({
      server: status.name,
      transport: status.transport,
      trust: connection.config.trust,
      ...(status.pid === undefined ? {} : { pid: status.pid }),
      ...(status.protocolVersion === undefined ? {} : { protocolVersion: status.protocolVersion }),
      ...(status.toolCount === undefined ? {} : { toolCount: status.toolCount }),
    });
  };
  for (const connection of connected.connections) await recordStart(connection);

  // The host's own tool for reading the rest of a cut result; offered once there is something to read.
  let storedAnything = false;
  const hostToolEntry: CatalogEntry = {
    name: readStoredResultTool.name,
    server: HOST_TOOLS_SERVER,
    tool: {
      name: readStoredResultTool.name,
      description: readStoredResultTool.description,
      inputSchema: readStoredResultTool.inputSchema as never,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
  };
  // Conversations' compacted tool results: the stored-result tool reads them too, and is offered in every
  // conversation from its start, so the tools array does not change when compaction first refers to one.
  const conversationResults: ResultStore[] = [];
  const hostTools = new Map<string, HostToolHandler>([
    [
      readStoredResultTool.name,
      (args) =>
        handleReadStoredResult(
          readAcrossStores(state.results, () => conversationResults),
          args,
        ),
    ],
    ...skills.handlers,
  ]);
  // `mcp-host__<server>__list_resources` / `…__read_resource` for every server that offers resources.
  const resourceTools = features.resourceTools({ connections: () => connections.values() });
  const resourceToolEntries = (): CatalogEntry[] => {
    const entries = resourceTools.entries();
    for (const [name, handler] of resourceTools.handlers) hostTools.set(name, handler);
    return entries;
  };
  const access = createServerFeatureAccess({
    connections: () => [...connections.values()],
    roots: features.roots,
    cwd,
    onDiagnostic: diagnostic,
  });

  live = new LiveCatalog(connections, {
    review: createToolReview({
      config,
      trustStore: state.trustStore,
      approver,
      audit: () => audit,
      // The listings as they are now (after any list_changed), not as they were at start-up.
      otherToolNames: (server) => live?.listedToolNames(server) ?? [],
      toolName: (server, tool) => live?.nameOf(server, tool),
      onNotice: diagnostic,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    }),
    extraEntries: () => [
      ...(storedAnything || conversationResults.length > 0 ? [hostToolEntry] : []),
      ...skills.entries,
      ...resourceToolEntries(),
    ],
    onDiagnostic: diagnostic,
    serverOrder: config.servers.map((server) => server.name),
  });
  await live.seed(connected.tools).catch(abandon);
  const controls = createServerControls({
    servers: config.servers,
    connections,
    connectionOptions,
    relist: async (server) => {
      live?.markChanged(server);
      await live?.beginTurn();
    },
    forget: (server) => live?.forget(server),
    onStarted: recordStart,
    onStopped: (server, reason) => audit.serverExit({ server, reason }),
    status: (server) => statusOf(config.servers.find((candidate) => candidate.name === server)!),
  });
  if (options.signal?.aborted) await abandon(options.signal.reason);
  const catalogNow = (): ToolCatalog => live!.current();
  for (const warning of checkRules(
    config.permissions,
    catalogNow().entries.map((entry) => ({
      toolName: entry.name,
      serverName: entry.server,
      originalToolName: entry.tool.name,
    })),
  )) {
    diagnostic(warning);
  }

  function statusOf(server: HostConfig['servers'][number]): HostServerStatus {
    const status = connections.get(server.name)?.status() ?? notStartedStatus(server);
    const unsupported = live?.unsupportedTools(server.name) ?? [];
    return {
      ...status,
      ...(controls.isDisabled(server.name) ? { state: 'idle' as const, disabled: true } : {}),
      ...(unsupported.length === 0 ? {} : { unsupportedTools: unsupported }),
    };
  }

  const runApprovals = new RunApprovals();
  const argumentValidator = createArgumentValidator();
  const executorFor = (initiator: 'model' | 'user', catalog: () => ToolCatalog) =>
    createCallExecutor({
      config,
      catalog,
      fullCatalog: catalogNow,
      initiator,
      approver,
      trustStore: state.trustStore,
      runApprovals,
      // An active skill's allowed-tools narrow the model's calls before the policy is asked; the user's own are theirs.
      ...(initiator === 'model'
        ? { narrow: (entry, args, context) => skills.narrow(entry, args, context, hostTools.has(entry.name)) }
        : {}),
      argumentValidator,
      results: state.results,
      audit: () => audit,
      secrets,
      toolTimeoutMs: options.toolTimeoutMs,
      maxResultTokens: options.maxResultTokens,
      onProgress: options.onProgress,
      onResultCut: () => {
        if (storedAnything) return;
        storedAnything = true;
        live?.invalidate();
      },
      onDiagnostic: diagnostic,
      describeMissing: (name) => live?.describeMissing(name),
      server: (name) => connections.get(name),
      hostTools,
      confirmCurrent: (entry, signal) => live!.confirmCurrent(entry, signal),
      askToOpenRequiredUrl: (entry, required, context) =>
        features.askToOpenRequiredUrl(
          entry.server,
          { ...required, message: `To run the tool ${entry.name}: ${required.message}` },
          context.signal,
        ),
    });
  // Tools an MCP App keeps to itself (`_meta.ui.visibility: ["app"]`) are neither offered to the model nor callable by it.
  const modelCatalogs = new WeakMap<ToolCatalog, ToolCatalog>();
  const modelCatalog = (catalog: ToolCatalog): ToolCatalog => {
    let filtered = modelCatalogs.get(catalog);
    if (!filtered) {
      filtered = catalog.filter((entry) => !toolUiOf(entry.tool).appOnly);
      modelCatalogs.set(catalog, filtered);
    }
    return filtered;
  };
  const executeForModel = executorFor('model', () => modelCatalog(catalogNow()));
  const executeForUser = executorFor('user', catalogNow);
  // An app's call is decided as the model's would be (it may ask), but may reach the app's own tools.
  const executeForApp = executorFor('model', catalogNow);

  let providerPromise: Promise<LlmProvider> | undefined;
  const provider = (): Promise<LlmProvider> => {
    if (options.provider) return Promise.resolve(options.provider);
    providerPromise ??= (async () => {
      const choice = chooseModel({ flag: options.model, config: config.model, env });
      // A path on the command line is the user's, relative to where they are; one in the config is relative to it.
      return createProvider(choice.spec, {
        baseUrl: options.baseUrl,
        env,
        cwd: choice.source === 'flag' || !config.file ? cwd : dirname(config.file),
      });
    })();
    return providerPromise;
  };
  hostModel = provider;

  const toDefinitions = (catalog: ToolCatalog): ToolDefinition[] =>
    modelCatalog(catalog).entries.map((entry) => ({
      name: entry.name,
      description: entry.tool.description ?? entry.tool.title ?? '',
      inputSchema: entry.tool.inputSchema as Record<string, unknown>,
    }));

  // Discovery is decided once per catalog: the offered tools stay byte-stable while the catalog does.
  let discovered: { catalog: ToolCatalog; discovery: DiscoveryCatalog | undefined } | undefined;
  const discoveryFor = (catalog: ToolCatalog): DiscoveryCatalog | undefined => {
    if (discovered?.catalog !== catalog) {
      // The model searches only what it may call: an app's own tools are left out here too.
      const offered = modelCatalog(catalog).entries;
      const applies = discoveryApplies(config.toolDiscovery ?? 'auto', offered);
      discovered = { catalog, discovery: applies ? new DiscoveryCatalog(offered) : undefined };
    }
    return discovered.discovery;
  };
  const toolsForTurn = (catalog: ToolCatalog): ToolDefinition[] => {
    const discovery = discoveryFor(catalog);
    return discovery === undefined ? toDefinitions(catalog) : metaToolDefinitions(discovery.entries.length);
  };
  const executeInLoop = withDiscovery(executeForModel, () => discovered?.discovery);

  let runCount = 0;
  const maxOutputTokens = options.maxOutputTokens ?? config.maxOutputTokens;
  const run = async (prompt: string, runOptions: RunOptions = {}): Promise<RunResult> => {
    const model = runOptions.provider ?? (await provider());
    runCount += 1;
    const opening = runOptions.prompt
      ? await access.prompts.messages(runOptions.prompt, runOptions.prompt.arguments)
      : [];
    // With a server prompt, the text (if any) follows its messages; without one, the text is the user's turn.
    const userParts: UserPart[] = [
      ...(prompt !== '' || opening.length === 0 ? [{ type: 'text' as const, text: prompt }] : []),
      ...(runOptions.images ?? []),
    ];
    const added: Message[] = [
      ...opening,
      ...(userParts.length > 0 ? [{ role: 'user' as const, content: userParts }] : []),
    ];
    for (const message of added) runOptions.onMessage?.(message);
    const messages: Message[] = [...(runOptions.history ?? []), ...added];
    const thisRun = `${runId}-${runCount}`;
    // Composed once per run: every turn of it sends the same bytes, so provider prompt caches hold.
    const systemText = skills.systemPrompt().text;
    return runAgent({
      runId: thisRun,
      provider: model,
      // The catalog is swapped only here, when a turn begins.
      tools: async () => toolsForTurn(await live!.beginTurn()),
      executeToolCall: executeInLoop,
      messages,
      ...(systemText === undefined ? {} : { system: systemText }),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      maxTurns: options.maxTurns ?? config.maxTurns,
      maxParallelCalls: options.maxParallelCalls ?? config.maxParallelCalls,
      stream: options.stream ?? true,
      signal: runOptions.signal,
      emit: runOptions.onEvent ?? (() => undefined),
      ...(runOptions.onMessage ? { onMessage: runOptions.onMessage } : {}),
    }).finally(() => skills.active.end(thisRun));
  };

  let closed = false;
  return {
    config,
    runId,
    stateDir: state.stateDir,
    catalog: catalogNow,
    servers: () => config.servers.map(statusOf),
    restartServer: (server) => controls.restart(server),
    disableServer: (server) => controls.disable(server),
    enableServer: (server) => controls.enable(server),
    failures: () => connected.failures,
    toolDefinitions: () => toDefinitions(catalogNow()),
    systemPrompt: () => skills.systemPrompt(),
    skills: () => ({
      offered: skills.review.offered,
      withheld: skills.review.withheld,
      problems: skills.discovered.problems,
    }),
    projectFolder: skills.projectFolder,
    connection: (server) => connections.get(server),
    provider,
    run,
    stream: (prompt, streamOptions = {}) =>
      eventStream(async (emit, closed) => {
        if (!streamOptions.signal) return run(prompt, { ...streamOptions, onEvent: emit, signal: closed });
        const linked = linkSignals([streamOptions.signal, closed]);
        try {
          return await run(prompt, { ...streamOptions, onEvent: emit, signal: linked.signal });
        } finally {
          linked.dispose();
        }
      }),
    conversation: async (conversationOptions = {}) =>
      openConversation(
        {
          store: openSessionStore(state.stateDir),
          config: config.file ?? null,
          provider: await provider(),
          // A model named mid-conversation is the user's: a relative script path is relative to where they are.
          createProvider: (spec) => createProvider(spec, { baseUrl: options.baseUrl, env, cwd }),
          runTurn: (text, turn) => run(text, turn),
          ...(config.contextTokens === undefined ? {} : { contextTokens: config.contextTokens }),
          fixedTokens: () =>
            estimateTokens(skills.systemPrompt().text ?? '') +
            estimateTokens(JSON.stringify(toDefinitions(catalogNow()))),
          onResultStore: (store) => {
            if (conversationResults.length === 0) live?.invalidate();
            conversationResults.push(store);
          },
          onDiagnostic: diagnostic,
        },
        conversationOptions,
      ),
    callTool: async (name, args, callOptions = {}) => {
      const kind = callOptions.origin === 'app' ? 'app' : callOptions.client ? 'client' : 'direct';
      const context: ToolCallContext = {
        runId: `${runId}-${kind}`,
        turn: 0,
        callsInTurn: 1,
        signal: callOptions.signal ?? new AbortController().signal,
        emit: () => undefined,
        ...(callOptions.client ? { client: callOptions.client } : {}),
        ...(callOptions.origin ? { origin: callOptions.origin } : {}),
        ...(callOptions.onProgress ? { onProgress: callOptions.onProgress } : {}),
      };
      // A client's call is its model's, and an app's is as untrusted: the policy asks as for the host's own model.
      const execute = kind === 'app' ? executeForApp : kind === 'client' ? executeForModel : executeForUser;
      return execute(
        {
          type: 'tool-call',
          id: `${kind}-${createRunId()}`,
          name,
          argumentsText: JSON.stringify(args),
        },
        context,
      );
    },
    refreshCatalog: () => live!.beginTurn(),
    reviewTools: (server) => {
      live!.markChanged(server);
      return live!.beginTurn();
    },
    withheldReason: (name) => live?.describeMissing(name),
    resources: access.resources,
    prompts: access.prompts,
    roots: access.roots,
    close: async () => {
      if (closed) return;
      closed = true;
      // Each server-start gets its server-exit: the ones still up are closed by the host, as asked.
      for (const connection of connections.values()) {
        if (connection.status().state === 'connected')
          await audit.serverExit({ server: connection.name, reason: 'closed' });
      }
      await Promise.all([...connections.values()].map((connection) => connection.close()));
      await features.close();
      await state.results.close().catch(() => undefined);
      await state.staleResultsRemoved;
      await state.audit.close();
    },
  };
}

function notStartedStatus(server: HostConfig['servers'][number]): ServerStatus {
  return {
    name: server.name,
    state: server.disabled ? 'idle' : 'failed',
    transport: server.transport,
    ...(server.unavailable === undefined || server.disabled ? {} : { lastError: server.unavailable }),
  };
}
