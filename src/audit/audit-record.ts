/**
 * The records of the audit log: one per tool call, plus the events that explain them (servers starting and
 * exiting, pins and approvals changing). Each is one JSON object on one line, self-describing by `type`, with the
 * run it belongs to, so `mcp-host audit` and any JSON tool can read the log without the host.
 */

import { randomUUID } from 'node:crypto';

export type ToolCallOutcome = 'ok' | 'error' | 'timeout' | 'denied' | 'crashed' | 'cancelled';

interface AuditRecordBase {
  /** ISO 8601, when the record was written (for a call: when it ended). */
  time: string;
  /** Ties together the records of one host run (`createRunId`). */
  runId: string;
}

/** The MCP client that made a call through the gateway (`mcp-host serve`), as it introduced itself. */
export interface CallingClient {
  /** `clientInfo.name` from its initialize request (untrusted: the client says so). */
  name: string;
  version?: string;
  /** The gateway token's name it authenticated with, or its OAuth access token's subject (`sub`), over HTTP. */
  principal?: string;
  /** The OAuth client its access token was issued to (`client_id`, else `azp`). */
  clientId?: string;
  /** The gateway session (HTTP `Mcp-Session-Id`, or `stdio`). */
  session?: string;
}

/** Who asked for a call other than the model or the user: `app`, an MCP App view rendered by the web UI. */
export type CallOrigin = 'app';

export interface ToolCallRecord extends AuditRecordBase {
  type: 'tool-call';
  callId?: string;
  server: string;
  /** Namespaced (`fs__write_file`). */
  tool: string;
  /** The server's own name. */
  originalTool: string;
  /** Secrets redacted (see redact.ts). */
  arguments: unknown;
  /** The final decision. */
  decision: 'allow' | 'deny';
  /** What the policy said before anyone was asked. */
  policy: 'allow' | 'ask' | 'deny';
  /** `rule`, `annotation`, `trust`, `default`, `remembered`, `skill`, `approver`, `run-approval` or `direct-call`. */
  decidedBy: string;
  /**
   * The trust the call was decided under: its server's (`trusted` or `untrusted`), or `trusted` for the host's own
   * tools. Absent when the call named no known tool.
   */
  trust?: string;
  /** The approver's kind (`terminal`, `headless`, `yes` …) when one was asked. */
  approver?: string;
  /** The deciding pattern, when a rule decided. */
  rule?: string;
  reason: string;
  /** ISO 8601: when the call was sent to its server (or the host's own tool began); absent for one never sent. */
  startedAt?: string;
  /** From `startedAt` to the result, a retry included; the wait for the user's approval before it is not. */
  durationMs?: number;
  outcome: ToolCallOutcome;
  /** Size of the full result's payload in bytes (text as UTF-8, binary data as base64), before any output budget. */
  resultBytes?: number;
  /** Whether the model got a shortened result. */
  truncated?: boolean;
  /** For `error`, `timeout`, `crashed`: what happened, secrets redacted. */
  error?: string;
  /** Present when a downstream MCP client made the call through the gateway. */
  client?: CallingClient;
  /** Present when an MCP App view asked for the call. */
  origin?: CallOrigin;
}

export interface ServerStartRecord extends AuditRecordBase {
  type: 'server-start';
  server: string;
  transport: string;
  trust: string;
  pid?: number;
  protocolVersion?: string;
  toolCount?: number;
}

export interface ServerExitRecord extends AuditRecordBase {
  type: 'server-exit';
  server: string;
  /** E.g. `closed`, `crashed`, `failed`. */
  reason: string;
  exitCode?: number | null;
  signal?: string | null;
  /** The last lines the server wrote to stderr, secrets redacted. */
  stderrTail?: string;
}

interface TrustChangeRecord extends AuditRecordBase {
  type: 'trust-change';
  server: string;
  /** The server's own tool name; absent for a change to the server itself. */
  tool?: string;
  /** `server-approved`, `tool-approved`, `tool-withheld`, `server-withheld`, `server-revoked`, `tool-revoked`. */
  change: string;
  /** `first-sight`, `trusted-server`, an approver kind, or `command-line`. */
  by: string;
  detail: string;
  /** The fingerprint of the definition approved, for `tool-approved`. */
  fingerprint?: string;
}

export interface ApprovalRecord extends AuditRecordBase {
  type: 'approval';
  callId?: string;
  server: string;
  tool: string;
  /** `allow-once`, `allow-tool-for-run`, `allow-server-for-run`, `allow-always` or `deny`. */
  answer: string;
  approver: string;
  /** Why it was asked. */
  reason: string;
}

export type AuditRecord = ToolCallRecord | ServerStartRecord | ServerExitRecord | TrustChangeRecord | ApprovalRecord;
type AuditRecordType = AuditRecord['type'];

const AUDIT_RECORD_TYPES: readonly AuditRecordType[] = [
  'tool-call',
  'server-start',
  'server-exit',
  'trust-change',
  'approval',
];

/** A fresh id for one host run. */
export function createRunId(): string {
  return randomUUID();
}

/** Whether a parsed line looks like one of our records (a `type` we know, a `time` and a `runId`). */
export function isAuditRecord(value: unknown): value is AuditRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    AUDIT_RECORD_TYPES.includes(record.type as AuditRecordType) &&
    typeof record.time === 'string' &&
    typeof record.runId === 'string'
  );
}
