/**
 * The library entry point: config → servers → catalog → model → loop, behind one object.
 *
 *   const host = await createHost({ config: 'mcp-host.json' });
 *   for await (const event of host.stream('What is 5 plus 7?')) { … }
 *   await host.close();
 */
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { ToolCatalog } from '../catalog/tool-catalog.js';
import { loadConfig } from '../config/load-config.js';
import type { HostConfig } from '../config/types.js';
import type { ServerConnection, ServerConnectionOptions, ServerStatus } from '../connections/server-connection.js';
import type { AgentEvent } from '../loop/events.js';
import { createToolCallExecutor } from '../loop/execute-tool-call.js';
import { type RunResult, runAgent } from '../loop/run-agent.js';
import type { ExecutedToolCall } from '../loop/tool-call-types.js';
import type { LlmProvider, Message, ToolDefinition, UserPart } from '../providers/types.js';
import { connectServers } from './connect-servers.js';
import { createProvider } from './create-provider.js';
import { eventStream } from './event-stream.js';
import { chooseModel } from './model-choice.js';
import { shapeToolResult } from './shape-tool-result.js';

export interface HostOptions {
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
  /** Default 20 (DEFAULT_MAX_TURNS). */
  maxTurns?: number;
  /** Default 8 (DEFAULT_MAX_PARALLEL_CALLS). */
  maxParallelCalls?: number;
  /** Stream model output as it arrives. Default true. */
  stream?: boolean;
  /** Overrides every server's `timeoutMs` when set. */
  toolTimeoutMs?: number;
  /** Non-fatal problems (a server that failed to start, stdout noise…), for stderr. */
  onDiagnostic?: (message: string) => void;
  /** Connect some servers over a transport of the caller's (e.g. in-memory, for tests and benchmarks). */
  transportFactory?: ServerConnectionOptions['transportFactory'];
}

export interface RunOptions {
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** Earlier conversation to continue; the prompt is appended. */
  history?: Message[];
  images?: UserPart[];
}

export interface Host {
  readonly config: HostConfig;
  readonly runIdPrefix: string;
  catalog(): ToolCatalog;
  servers(): ServerStatus[];
  failures(): ReadonlyArray<{ server: string; message: string }>;
  toolDefinitions(): ToolDefinition[];
  /** The model, created on first use (listing tools needs none). */
  provider(): Promise<LlmProvider>;
  run(prompt: string, options?: RunOptions): Promise<RunResult>;
  stream(prompt: string, options?: Omit<RunOptions, 'onEvent'>): AsyncIterable<AgentEvent>;
  /** Calls one tool directly, as the user's own act (no model involved). */
  callTool(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<ExecutedToolCall>;
  close(): Promise<void>;
}

export async function createHost(options: HostOptions = {}): Promise<Host> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const config =
    typeof options.config === 'object' ? options.config : await loadConfig({ configPath: options.config, cwd, env });
  const diagnostic = options.onDiagnostic ?? (() => undefined);
  for (const warning of config.warnings ?? []) diagnostic(warning);

  const connected = await connectServers(config.servers, {
    onDiagnostic: (server, message) => diagnostic(`server "${server}" ${message}`),
    transportFactory: options.transportFactory,
  });
  for (const failure of connected.failures) diagnostic(failure.message);
  const connections = new Map<string, ServerConnection>(connected.connections.map((entry) => [entry.name, entry]));
  const catalog = ToolCatalog.build(connected.tools);

  let providerPromise: Promise<LlmProvider> | undefined;
  const provider = (): Promise<LlmProvider> => {
    if (options.provider) return Promise.resolve(options.provider);
    providerPromise ??= (async () => {
      const choice = chooseModel({ flag: options.model, config: config.model, env });
      return createProvider(choice.spec, {
        baseUrl: options.baseUrl,
        env,
        cwd: config.file ? dirname(config.file) : cwd,
      });
    })();
    return providerPromise;
  };

  const toolDefinitions = (): ToolDefinition[] =>
    catalog.entries.map((entry) => ({
      name: entry.name,
      description: entry.tool.description ?? entry.tool.title ?? '',
      inputSchema: entry.tool.inputSchema as Record<string, unknown>,
    }));

  const executeToolCall = createToolCallExecutor({
    catalog: () => catalog,
    server: (name) => connections.get(name),
    callOptions: (entry) => ({
      timeoutMs: options.toolTimeoutMs ?? connections.get(entry.server)?.config.timeoutMs ?? 60_000,
    }),
    shapeResult: (raw, entry) => shapeToolResult(raw, entry),
  });

  const runIdPrefix = randomUUID();
  let runCount = 0;

  const run = async (prompt: string, runOptions: RunOptions = {}): Promise<RunResult> => {
    const model = await provider();
    runCount += 1;
    const messages: Message[] = [
      ...(runOptions.history ?? []),
      { role: 'user', content: [{ type: 'text', text: prompt }, ...(runOptions.images ?? [])] },
    ];
    return runAgent({
      runId: `${runIdPrefix}-${runCount}`,
      provider: model,
      tools: toolDefinitions,
      executeToolCall,
      messages,
      system: options.system,
      maxTurns: options.maxTurns,
      maxParallelCalls: options.maxParallelCalls,
      stream: options.stream ?? true,
      signal: runOptions.signal,
      emit: runOptions.onEvent ?? (() => undefined),
    });
  };

  let closed = false;
  return {
    config,
    runIdPrefix,
    catalog: () => catalog,
    servers: () => config.servers.map((server) => connections.get(server.name)?.status() ?? disabledStatus(server)),
    failures: () => connected.failures,
    toolDefinitions,
    provider,
    run,
    stream: (prompt, streamOptions = {}) => eventStream((emit) => run(prompt, { ...streamOptions, onEvent: emit })),
    callTool: async (name, args, callOptions = {}) =>
      executeToolCall(
        { type: 'tool-call', id: `direct-${randomUUID()}`, name, argumentsText: JSON.stringify(args) },
        {
          runId: `${runIdPrefix}-direct`,
          turn: 0,
          signal: callOptions.signal ?? new AbortController().signal,
          emit: () => undefined,
        },
      ),
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all([...connections.values()].map((connection) => connection.close()));
    },
  };
}

function disabledStatus(server: HostConfig['servers'][number]): ServerStatus {
  return { name: server.name, state: server.disabled ? 'idle' : 'failed', transport: server.transport };
}
