/** The library's public surface. */

export type { AuditRecord } from './audit/audit-record.js';
export type { AuditSink } from './audit/audit-sink.js';
export { createMemoryAuditSink } from './audit/audit-sink.js';
export { createJsonlAuditLog } from './audit/jsonl-audit-log.js';
export { readAuditLog } from './audit/read-audit-log.js';
export { type CatalogEntry, ToolCatalog } from './catalog/tool-catalog.js';
export type { ClientRequestApprover } from './client-features/client-request-approver.js';
export { createHeadlessClientRequestApprover } from './client-features/headless-client-request-approver.js';
export { ConfigError } from './config/config-error.js';
export { loadConfig } from './config/load-config.js';
export type { HostConfig, PermissionRules, ServerConfig, ServerTrust } from './config/types.js';
export { CallFailure, type CallFailureKind } from './connections/call-failure.js';
export { ServerConnection, type ServerState, type ServerStatus } from './connections/server-connection.js';
export { createHost, type Host, type HostOptions, type RunOptions } from './host/create-host.js';
export { chooseModel, KNOWN_PROVIDERS, ModelChoiceError, parseModelSpec } from './host/model-choice.js';
export type { AgentEvent, CallOutcome, RunStopReason } from './loop/events.js';
export { DEFAULT_MAX_PARALLEL_CALLS, DEFAULT_MAX_TURNS, type RunResult, runAgent } from './loop/run-agent.js';
export type { Approver, DefinitionApprovalRequest, ToolApprovalRequest } from './policy/approver.js';
export { createHeadlessApprover } from './policy/headless-approver.js';
export { createTerminalApprover } from './policy/terminal-approver.js';
export { TrustStore } from './policy/trust-store.js';
export { TrustStoreError } from './policy/trust-store-file.js';
export { createYesApprover } from './policy/yes-approver.js';
export * from './providers/types.js';
export type { Conversation, ConversationOptions, ConversationUsage } from './sessions/conversation-types.js';
export { type SessionSummary, UnknownSessionError } from './sessions/session-store.js';
