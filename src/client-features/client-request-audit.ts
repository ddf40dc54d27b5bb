/**
 * Servers' requests to the client are audited like tool calls: which server asked, what it asked (the prompt of a
 * sampling request, the fields of a form — never the values the user typed), who decided and how it ended. The
 * audit log has no record type of its own for them yet, so each becomes a `tool-call` record whose tool is the
 * MCP method (`sampling/createMessage`, `elicitation/create`), which every reader of the log already shows.
 */
import type { SamplingMessage } from '@modelcontextprotocol/client';
import type { ToolCallRecord } from '../audit/audit-record.js';
import type { AuditSink } from '../audit/audit-sink.js';
import { redactArguments } from '../audit/redact.js';
import { base64DecodedSize } from '../content/describe-content.js';

type ClientRequestMethod = 'sampling/createMessage' | 'elicitation/create';

export interface ClientRequestRecord {
  server: string;
  method: ClientRequestMethod;
  /** What was asked, without binary data. */
  request: unknown;
  /** `allow`/`deny` for sampling; `accept`/`decline`/`cancel` for elicitation. */
  answer: string;
  /** The approver's kind. */
  approver: string;
  /** Why it ended this way, one sentence. */
  reason: string;
  outcome: 'ok' | 'denied' | 'error' | 'cancelled';
  startedAt: Date;
  durationMs: number;
  /** The model that answered a sampling request. */
  model?: string;
  /** Size in bytes of the answer sent back (UTF-8 of its JSON). */
  resultBytes?: number;
  error?: string;
}

export type ClientRequestRecorder = (record: ClientRequestRecord) => void | Promise<void>;

/** A recorder writing to an audit sink, with secrets redacted from the request. */
export function auditClientRequests(options: {
  sink: AuditSink;
  runId: string;
  secrets?: readonly string[];
}): ClientRequestRecorder {
  return async (record) => {
    await options.sink.write(toAuditRecord(record, options.runId, options.secrets ?? []));
  };
}

function toAuditRecord(record: ClientRequestRecord, runId: string, secrets: readonly string[]): ToolCallRecord {
  const allowed = record.answer === 'allow' || record.answer === 'accept';
  return {
    type: 'tool-call',
    time: new Date().toISOString(),
    runId,
    server: record.server,
    tool: record.method,
    originalTool: record.method,
    arguments: redactArguments(record.request, { secrets }),
    decision: allowed ? 'allow' : 'deny',
    policy: 'ask',
    decidedBy: 'approver',
    approver: record.approver,
    reason: record.reason,
    startedAt: record.startedAt.toISOString(),
    durationMs: record.durationMs,
    outcome: record.outcome,
    ...(record.resultBytes !== undefined ? { resultBytes: record.resultBytes } : {}),
    ...(record.error !== undefined ? { error: record.error } : {}),
  };
}

/** Sampling messages with image and audio data replaced by their size: the log keeps the prompt, not the media. */
export function withoutBinaryData(messages: readonly SamplingMessage[]): unknown[] {
  return messages.map((message) => {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    return {
      role: message.role,
      content: blocks.map((block) =>
        block.type === 'image' || block.type === 'audio'
          ? { type: block.type, mimeType: block.mimeType, bytes: base64DecodedSize(block.data) }
          : block,
      ),
    };
  });
}

export function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}
