/** The library's public surface. */
export { ToolCatalog, type CatalogEntry } from './catalog/tool-catalog.js';
export { loadConfig } from './config/load-config.js';
export { ConfigError } from './config/config-error.js';
export type { HostConfig, ServerConfig, PermissionRules, ServerTrust } from './config/types.js';
export { CallFailure, type CallFailureKind } from './connections/call-failure.js';
export { ServerConnection, type ServerStatus, type ServerState } from './connections/server-connection.js';
export { createHost, type Host, type HostOptions, type RunOptions } from './host/create-host.js';
export { chooseModel, parseModelSpec, ModelChoiceError, KNOWN_PROVIDERS } from './host/model-choice.js';
export type { AgentEvent, CallOutcome, RunStopReason } from './loop/events.js';
export { runAgent, DEFAULT_MAX_TURNS, DEFAULT_MAX_PARALLEL_CALLS, type RunResult } from './loop/run-agent.js';
export * from './providers/types.js';
