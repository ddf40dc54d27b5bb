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

/** What happened to a pin: a server's, a tool's, a skill's (server `skill:NAME`) or the config file's (server `config`). */
export type TrustChangeKind =
  | 'server-approved'
  | 'server-withheld'
  | 'server-revoked'
  | 'tool-approved'
  | 'tool-withheld'
  | 'tool-revoked'
  | 'skill-approved'
  | 'skill-withheld'
  | 'skill-revoked'
  | 'approved';

export interface TrustChangeRecord extends AuditRecordBase {
  type: 'trust-change';
  server: string;
  /** The server's own tool name; absent for a change to the server itself. */
  tool?: string;
  change: TrustChangeKind;
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

/**
 * A trust change as the code that makes it describes it: a review's `TrustChange` (`policy/review-server-tools.ts`),
 * or a revocation, a skill's pin or a config's approval made from the command line or the web UI.
 */
export interface TrustChangeFields {
  serverName: string;
  toolName?: string;
  change: TrustChangeKind;
  by: string;
  detail: string;
  fingerprint?: string;
}

/** The one place a `trust-change` record is put together, whoever made the change: its keys in the log's order. */
export function trustChangeRecord(change: TrustChangeFields, time: string, runId: string): TrustChangeRecord {
  return {
    type: 'trust-change',
    time,
    runId,
    server: change.serverName,
    ...(change.toolName === undefined ? {} : { tool: change.toolName }),
    change: change.change,
    by: change.by,
    detail: change.detail,
    ...(change.fingerprint === undefined ? {} : { fingerprint: change.fingerprint }),
  };
}

/** A fresh id for one host run. */
export function createRunId(): string {
  return randomUUID();
}

type Fields = Record<string, unknown>;
const isText = (value: unknown) => typeof value === 'string';
const isNumber = (value: unknown) => typeof value === 'number';
/** Each named field is present and of its kind. */
const has = (record: Fields, check: (value: unknown) => boolean, names: readonly string[]) =>
  names.every((name) => check(record[name]));
/** Each named field is absent, or of its kind. */
const mayHave = (record: Fields, check: (value: unknown) => boolean, names: readonly string[]) =>
  names.every((name) => record[name] === undefined || check(record[name]));

function isCallingClient(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const client = value as Fields;
  return isText(client.name) && mayHave(client, isText, ['version', 'principal', 'clientId', 'session']);
}

/** The fields each type of record has, of the kinds the host writes them. */
const RECORD_SHAPES: Record<AuditRecordType, (record: Fields) => boolean> = {
  'tool-call': (record) =>
    has(record, isText, ['server', 'tool', 'originalTool', 'decision', 'policy', 'decidedBy', 'reason', 'outcome']) &&
    mayHave(record, isText, ['callId', 'trust', 'approver', 'rule', 'startedAt', 'error', 'origin']) &&
    mayHave(record, isNumber, ['durationMs', 'resultBytes']) &&
    mayHave(record, (value) => typeof value === 'boolean', ['truncated']) &&
    mayHave(record, isCallingClient, ['client']),
  'server-start': (record) =>
    has(record, isText, ['server', 'transport', 'trust']) &&
    mayHave(record, isNumber, ['pid', 'toolCount']) &&
    mayHave(record, isText, ['protocolVersion']),
  'server-exit': (record) =>
    has(record, isText, ['server', 'reason']) &&
    mayHave(record, (value) => value === null || isNumber(value), ['exitCode']) &&
    mayHave(record, (value) => value === null || isText(value), ['signal']) &&
    mayHave(record, isText, ['stderrTail']),
  'trust-change': (record) =>
    has(record, isText, ['server', 'change', 'by', 'detail']) && mayHave(record, isText, ['tool', 'fingerprint']),
  approval: (record) =>
    has(record, isText, ['server', 'tool', 'answer', 'approver', 'reason']) && mayHave(record, isText, ['callId']),
};

/**
 * Whether a parsed line is one of our records: a `type` we know, a `time`, a `runId`, and that type's fields of the
 * kinds the host writes. A line someone else wrote into the log with a field of another kind is no record: shown,
 * it would end the reader (a number where text is trimmed) or pass for what it is not.
 */
export function isAuditRecord(value: unknown): value is AuditRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Fields;
  if (typeof record.type !== 'string' || !Object.hasOwn(RECORD_SHAPES, record.type)) return false;
  return has(record, isText, ['time', 'runId']) && RECORD_SHAPES[record.type as AuditRecordType](record);
}
