/** The audit trail: record types, sinks, redaction, reading and following the log. */

export { AUDIT_FILE_ENV_VARIABLE, AUDIT_LOG_FILE_NAME, resolveAuditLogPath } from './audit-log-path.js';
export {
  type ApprovalRecord,
  AUDIT_RECORD_TYPES,
  type AuditRecord,
  type AuditRecordType,
  createRunId,
  isAuditRecord,
  type ServerExitRecord,
  type ServerStartRecord,
  type ToolCallOutcome,
  type ToolCallRecord,
  type TrustChangeRecord,
} from './audit-record.js';
export { type AuditRecorder, createAuditRecorder, type ToolCallAuditInput } from './audit-recorder.js';
export { type AuditSink, createMemoryAuditSink, type MemoryAuditSink } from './audit-sink.js';
export { type FollowAuditLogOptions, followAuditLog } from './follow-audit-log.js';
export { formatAuditHeader, formatAuditRow, formatAuditTable } from './format-audit-record.js';
export {
  AUDIT_LOG_FILE_MODE,
  createJsonlAuditLog,
  type JsonlAuditLog,
  type JsonlAuditLogOptions,
} from './jsonl-audit-log.js';
export { type AuditLogContents, type AuditLogFilter, matchesAuditFilter, readAuditLog } from './read-audit-log.js';
export { REDACTED, redactArguments, redactText, redactValues, SECRET_KEY_PATTERN } from './redact.js';
