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
import type { AuditSink } from '../audit/audit-sink.js';
import type { CatalogEntry, ToolCatalog } from '../catalog/tool-catalog.js';
import { type ClientFeaturesOptions, createClientFeatures } from '../client-features/client-features.js';
import type { ClientRequestApprover } from '../client-features/client-request-approver.js';
import { createSystemUrlOpener } from '../client-features/open-url.js';
import { createServerFeatureAccess, type ServerFeatureAccess } from '../client-features/server-feature-access.js';
import type { ServerLogEntry } from '../client-features/server-log.js';
import type { ToolProgressUpdate } from '../client-features/terminal-client-features.js';
import { loadConfig } from '../config/load-config.js';
import type { HostConfig } from '../config/types.js';
import { isHeadless } from '../connections/oauth/authorization-url.js';
import { createRemoteAuthorization, type RemoteAuthorization } from '../connections/oauth/remote-authorization.js';
import type { ServerConnection, ServerConnectionOptions, ServerStatus } from '../connections/server-connection.js';
import { budgetToolResult } from '../content/budget-tool-results.js';
import { handleReadStoredResult, readStoredResultTool } from '../content/read-stored-result-tool.js';
import type { AgentEvent } from '../loop/events.js';
import { createToolCallExecutor, type HostToolHandler } from '../loop/execute-tool-call.js';
import { type RunResult, runAgent } from '../loop/run-agent.js';
import type { ExecutedToolCall } from '../loop/tool-call-types.js';
import type { Approver } from '../policy/approver.js';
import { createHeadlessApprover } from '../policy/headless-approver.js';
import { checkRules } from '../policy/permission-rules.js';
import { isSafeToRetry } from '../policy/tool-annotations.js';
import type { TrustStore } from '../policy/trust-store.js';
import type { LlmProvider, Message, ToolDefinition, UserPart } from '../providers/types.js';
import {
  type CallDutiesOptions,
  createAuthorise,
  createRecord,
  createShapeResult,
  serverConfigOf,
  withCallId,
} from './call-duties.js';
import { callSettings } from './call-settings.js';
import { connectServers } from './connect-servers.js';
import { createProvider } from './create-provider.js';
import { eventStream } from './event-stream.js';
import { openHostState } from './host-state.js';
import { LiveCatalog } from './live-catalog.js';
import { chooseModel } from './model-choice.js';
import { createToolReview } from './review-tools.js';
import { serverExitFields } from './server-exit-fields.js';

/** Name under which the host's own tools appear in the catalog (they have no MCP server). */
export const HOST_TOOLS_SERVER = 'mcp-host';

export interface HostOptions {
  /**
   * Opens an OAuth authorization URL for a remote server that asks for it. Default: the system browser on a desktop,
   * nothing when headless (the URL is then reported through `onDiagnostic` for the user to open).
   */
  openAuthorizationUrl?: ((url: string) => Promise<void>) | false;
  /** A config file path, or a config already loaded. Default: `mcp-host.json`, then `.mcp.json` in `cwd`. */
  config?: string | HostConfig;
  cwd?: string;
  /** `provider:model`; overrides the config's `model`. */
  model?: string;
  /** A provider built by the caller; overrides `model`. */
  provider?: LlmProvider;
  baseUrl?: string;
  env?: Record<string, string | undefined>;
  system?: string;
  /** Default: the config's `maxTurns`, else 20 (DEFAULT_MAX_TURNS). */
  maxTurns?: number;
  /** Default: the config's `maxParallelCalls`, else 8 (DEFAULT_MAX_PARALLEL_CALLS). */
  maxParallelCalls?: number;
  /** Stream model output as it arrives. Default true. */
  stream?: boolean;
  /** Overrides every server's `timeoutMs` (a per-tool override still wins). */
  toolTimeoutMs?: number;
  /** Per result, in estimated tokens. Default: the config's `maxResultTokens`, else 25,000. */
  maxResultTokens?: number;
  /** Who is asked before a call that needs consent. Default: nobody (headless: such calls are denied). */
  approver?: Approver;
  /** The state folder (trust store, audit log, stored results). Default `MCP_HOST_STATE_DIR`, then the XDG state home. */
  stateDir?: string;
  /** The audit log file. Default: the config's `auditFile`, `MCP_HOST_AUDIT_FILE`, then `audit.jsonl` in the state folder. */
  auditFile?: string;
  /** A sink of the caller's for audit records; `false` keeps them in memory only. */
  auditSink?: AuditSink | false;
  /** A trust store of the caller's (e.g. `TrustStore.inMemory()`). */
  trustStore?: TrustStore;
  /** Non-fatal problems (a server that failed to start, stdout noise, withheld tools…), for stderr. */
  onDiagnostic?: (message: string) => void;
  /** Connect some servers over a transport of the caller's (e.g. in-memory, for tests and benchmarks). */
  transportFactory?: ServerConnectionOptions['transportFactory'];
  /** Folders offered to servers as roots (paths or file:// URIs). Default: the config's `roots`, else `cwd`. */
  roots?: string[];
  /** Who answers servers' sampling and elicitation requests. Default: headless (sampling denied, forms declined). */
  clientRequestApprover?: ClientRequestApprover;
  /** With no `clientRequestApprover`: let servers use the model for sampling without asking. Default false. */
  allowSampling?: boolean;
  /** Every log message a server sends (they are also appended to a per-server log in the state folder). */
  onServerLog?: (entry: ServerLogEntry) => void;
  /** Progress a server reports for a running tool call. */
  onProgress?: (update: ToolProgressUpdate) => void;
  /** Elicitation modes, URL opener, server log folder (see ClientFeaturesOptions). */
  clientFeatures?: Pick<ClientFeaturesOptions, 'elicitation' | 'openUrl' | 'serverLogDirectory'>;
}

export interface RunOptions {
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** Earlier conversation to continue; the prompt is appended. */
  history?: Message[];
  images?: UserPart[];
  /** Start from a server prompt (`mcp-host run --prompt server:NAME`): its messages open the conversation. */
  prompt?: { server?: string; name: string; arguments?: Record<string, string> };
}

export interface Host {
  readonly config: HostConfig;
  /** Ties this host's audit records together. */
  readonly runId: string;
  readonly stateDir: string;
  /** The catalog in force (it changes between turns when servers change their tools). */
  catalog(): ToolCatalog;
  servers(): ServerStatus[];
  failures(): ReadonlyArray<{ server: string; message: string }>;
  toolDefinitions(): ToolDefinition[];
  connection(server: string): ServerConnection | undefined;
  /** The model, created on first use (listing tools needs none). */
  provider(): Promise<LlmProvider>;
  run(prompt: string, options?: RunOptions): Promise<RunResult>;
  stream(prompt: string, options?: Omit<RunOptions, 'onEvent'>): AsyncIterable<AgentEvent>;
  /** Calls one tool directly, as the user's own act (deny rules apply; nobody is asked; audited). */
  callTool(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<ExecutedToolCall>;
  close(): Promise<void>;
  /** Servers' resources and prompts, and the roots offered to them. */
  readonly resources: ServerFeatureAccess['resources'];
  readonly prompts: ServerFeatureAccess['prompts'];
  readonly roots: ServerFeatureAccess['roots'];
}

export async function createHost(options: HostOptions = {}): Promise<Host> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const config =
    typeof options.config === 'object' ? options.config : await loadConfig({ configPath: options.config, cwd, env });
  const diagnostic = options.onDiagnostic ?? (() => undefined);
  for (const warning of config.warnings ?? []) diagnostic(warning);

  // The run's secrets: the config's, plus values the model sends under secret-looking keys (see call-duties).
  const secrets = [...config.secrets];
  const state = openHostState({ ...config, secrets }, options, env, cwd, diagnostic);
  const runId = createRunId();
  const audit: AuditRecorder = createAuditRecorder({ sink: state.audit, runId });
  const approver = options.approver ?? createHeadlessApprover();

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
  const connected = await connectServers(config.servers, {
    capabilities: features.capabilities,
    configureClient: features.configureClient,
    onDiagnostic: (server, message) => diagnostic(`server "${server}" ${message}`),
    onToolsChanged: (server) => live?.markChanged(server),
    onExit: (server, description) => {
      diagnostic(description);
      void audit.serverExit(serverExitFields(server, description));
    },
    transportFactory: options.transportFactory,
    authorization: createAuthorization(config, state.stateDir, options, diagnostic),
  });
  for (const failure of connected.failures) diagnostic(failure.message);
  const connections = new Map<string, ServerConnection>(connected.connections.map((entry) => [entry.name, entry]));
  for (const connection of connected.connections) {
    const status = connection.status();
    if (status.state !== 'connected') continue;
    await audit.serverStart({
      server: status.name,
      transport: status.transport,
      trust: connection.config.trust,
      ...(status.pid === undefined ? {} : { pid: status.pid }),
      ...(status.protocolVersion === undefined ? {} : { protocolVersion: status.protocolVersion }),
      ...(status.toolCount === undefined ? {} : { toolCount: status.toolCount }),
    });
  }

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
  const hostTools = new Map<string, HostToolHandler>([
    [readStoredResultTool.name, (args) => handleReadStoredResult(state.results, args)],
  ]);
  // `<server>__list_resources` / `<server>__read_resource` for every server that offers resources.
  const resourceTools = features.resourceTools({
    connections: () => connections.values(),
    serverToolNames: (server) =>
      connected.tools.find((list) => list.server === server)?.tools.map((tool) => tool.name) ?? [],
  });
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
      onNotice: diagnostic,
    }),
    extraEntries: () => [...(storedAnything ? [hostToolEntry] : []), ...resourceToolEntries()],
    onDiagnostic: diagnostic,
  });
  await live.seed(connected.tools);
  const catalogNow = (): ToolCatalog => live!.current();
  for (const warning of checkRules(
    config.permissions,
    catalogNow().entries.map((entry) => entry.name),
  )) {
    diagnostic(warning);
  }

  const duties = (initiator: CallDutiesOptions['initiator']): CallDutiesOptions => ({
    isHostTool: (name) => hostTools.has(name),
    config,
    approver,
    trustStore: state.trustStore,
    results: state.results,
    catalogEntries: () => catalogNow().entries,
    initiator,
    maxResultTokens: options.maxResultTokens,
    secrets,
  });
  const shapeResult = createShapeResult(duties('model'));
  const makeExecutor = (initiator: CallDutiesOptions['initiator']) =>
    createToolCallExecutor({
      catalog: catalogNow,
      describeMissing: (name) => live?.describeMissing(name),
      server: (name) => connections.get(name),
      callOptions: (entry) => ({
        ...callSettings(config, entry, options.toolTimeoutMs),
        ...(options.onProgress
          ? { onProgress: (update) => options.onProgress?.({ server: entry.server, tool: entry.name, ...update }) }
          : {}),
      }),
      hostTools,
      authorise: createAuthorise(duties(initiator), () => audit),
      shapeResult: (raw, entry, context) => {
        const shaped = shapeResult(raw, entry, context);
        if (shaped.cut && !storedAnything) {
          storedAnything = true;
          live?.invalidate();
        }
        return shaped;
      },
      record: createRecord(config, () => audit, secrets),
      retryOnce: (entry) =>
        isSafeToRetry(entry.tool.annotations, serverConfigOf(config, entry.server)?.trust ?? 'untrusted'),
    });
  const executeForModel = withCallId(makeExecutor('model'));
  const executeForUser = withCallId(makeExecutor('user'));

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
    catalog.entries.map((entry) => ({
      name: entry.name,
      description: entry.tool.description ?? entry.tool.title ?? '',
      inputSchema: entry.tool.inputSchema as Record<string, unknown>,
    }));

  let runCount = 0;
  const run = async (prompt: string, runOptions: RunOptions = {}): Promise<RunResult> => {
    const model = await provider();
    runCount += 1;
    const opening = runOptions.prompt
      ? await access.prompts.messages(runOptions.prompt, runOptions.prompt.arguments)
      : [];
    // With a server prompt, the text (if any) follows its messages; without one, the text is the user's turn.
    const userParts: UserPart[] = [
      ...(prompt !== '' || opening.length === 0 ? [{ type: 'text' as const, text: prompt }] : []),
      ...(runOptions.images ?? []),
    ];
    const messages: Message[] = [
      ...(runOptions.history ?? []),
      ...opening,
      ...(userParts.length > 0 ? [{ role: 'user' as const, content: userParts }] : []),
    ];
    return runAgent({
      runId: `${runId}-${runCount}`,
      provider: model,
      // The catalog is swapped only here, when a turn begins.
      tools: async () => toDefinitions(await live!.beginTurn()),
      executeToolCall: executeForModel,
      messages,
      system: options.system,
      maxTurns: options.maxTurns ?? config.maxTurns,
      maxParallelCalls: options.maxParallelCalls ?? config.maxParallelCalls,
      stream: options.stream ?? true,
      signal: runOptions.signal,
      emit: runOptions.onEvent ?? (() => undefined),
    });
  };

  let closed = false;
  return {
    config,
    runId,
    stateDir: state.stateDir,
    catalog: catalogNow,
    servers: () => config.servers.map((server) => connections.get(server.name)?.status() ?? notStartedStatus(server)),
    failures: () => connected.failures,
    toolDefinitions: () => toDefinitions(catalogNow()),
    connection: (server) => connections.get(server),
    provider,
    run,
    stream: (prompt, streamOptions = {}) => eventStream((emit) => run(prompt, { ...streamOptions, onEvent: emit })),
    callTool: async (name, args, callOptions = {}) =>
      executeForUser(
        { type: 'tool-call', id: `direct-${createRunId()}`, name, argumentsText: JSON.stringify(args) },
        {
          runId: `${runId}-direct`,
          turn: 0,
          callsInTurn: 1,
          signal: callOptions.signal ?? new AbortController().signal,
          emit: () => undefined,
        },
      ),
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
      await state.results.flush().catch(() => undefined);
      await state.audit.close();
    },
  };
}

/** OAuth for remote servers, only when the config has any; tokens live in the state folder. */
function createAuthorization(
  config: HostConfig,
  stateDirectory: string,
  options: HostOptions,
  diagnostic: (message: string) => void,
): RemoteAuthorization | undefined {
  if (!config.servers.some((server) => server.transport !== 'stdio' && !server.disabled)) return undefined;
  const openUrl =
    options.openAuthorizationUrl === false
      ? undefined
      : (options.openAuthorizationUrl ?? (isHeadless() ? undefined : createSystemUrlOpener()));
  return createRemoteAuthorization({
    stateDirectory,
    openUrl,
    onAuthorizationRequired: (request) =>
      diagnostic(
        request.opened
          ? `server "${request.server}" needs authorization: a browser was opened at ${request.url}`
          : `server "${request.server}" needs authorization: open this URL in a browser to continue: ${request.url}${request.openError ? ` (${request.openError})` : ''}`,
      ),
  });
}

function notStartedStatus(server: HostConfig['servers'][number]): ServerStatus {
  return { name: server.name, state: server.disabled ? 'idle' : 'failed', transport: server.transport };
}
