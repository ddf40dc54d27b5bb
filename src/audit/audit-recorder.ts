/**
 * Builds audit records from what the loop already has (the call, its `Authorization`, timings, the outcome) and
 * hands them to the sink, stamping the time and the run id. The loop then needs one line per event and cannot
 * forget a field the log promises.
 */

import type { ApproverAnswer, Authorization, ToolCallToAuthorize } from '../policy/authorize-tool-call.js';
import type { TrustChange } from '../policy/review-server-tools.js';
import {
  type ApprovalRecord,
  type AuditRecord,
  type CallingClient,
  type CallOrigin,
  type ServerExitRecord,
  type ServerStartRecord,
  type ToolCallOutcome,
  type ToolCallRecord,
  trustChangeRecord,
} from './audit-record.js';
import type { AuditSink } from './audit-sink.js';
import { isoTime } from './iso-time.js';

export interface ToolCallAuditInput {
  call: ToolCallToAuthorize;
  authorization: Authorization;
  /** When the call was sent to the server; absent when it never was (denied). */
  startedAt?: Date;
  durationMs?: number;
  outcome: ToolCallOutcome;
  resultBytes?: number;
  truncated?: boolean;
  error?: string;
  client?: CallingClient;
  origin?: CallOrigin;
}

type Fields<Record extends AuditRecord> = Omit<Record, 'type' | 'time' | 'runId'>;

export interface AuditRecorder {
  readonly runId: string;
  /** After the call ends (or is denied), before its result goes back to the model. */
  toolCall(input: ToolCallAuditInput): Promise<void>;
  /**
   * An approver's answer about a call (`Authorization.asked`), and why the policy asked (its decision's reason). Call
   * it right after `authorizeToolCall` when someone was asked.
   */
  approval(call: ToolCallToAuthorize, asked: ApproverAnswer, whyAsked: string): Promise<void>;
  serverStart(fields: Fields<ServerStartRecord>): Promise<void>;
  serverExit(fields: Fields<ServerExitRecord>): Promise<void>;
  /** Pass as `onTrustChange` to `reviewServerTools`. */
  trustChange(change: TrustChange): Promise<void>;
}

export function createAuditRecorder(options: { sink: AuditSink; runId: string }): AuditRecorder {
  const { sink, runId } = options;
  const write = async (record: AuditRecord): Promise<void> => {
    await sink.write(record);
  };
  const stamp = () => ({ time: isoTime(Date.now()), runId });

  return {
    runId,
    async toolCall(input) {
      const { call, authorization } = input;
      // Key by key, in the order the log has always had them: on Node 20 a literal with spreads between its keys
      // costs microseconds a call. Cast because the required keys arrive one by one, in that order.
      const record = { type: 'tool-call', time: isoTime(Date.now()), runId } as ToolCallRecord;
      if (call.callId !== undefined) record.callId = call.callId;
      record.server = call.serverName;
      record.tool = call.toolName;
      record.originalTool = call.originalToolName;
      record.arguments = call.arguments;
      record.decision = authorization.allowed ? 'allow' : 'deny';
      record.policy = authorization.decision.action;
      record.decidedBy = authorization.decidedBy;
      if (authorization.trust !== undefined) record.trust = authorization.trust;
      if (authorization.asked !== undefined) record.approver = authorization.asked.approver;
      if (authorization.decision.rule !== undefined) record.rule = authorization.decision.rule;
      record.reason = authorization.reason;
      if (input.startedAt !== undefined) record.startedAt = isoTime(input.startedAt.getTime());
      if (input.durationMs !== undefined) record.durationMs = input.durationMs;
      record.outcome = input.outcome;
      if (input.resultBytes !== undefined) record.resultBytes = input.resultBytes;
      if (input.truncated !== undefined) record.truncated = input.truncated;
      if (input.error !== undefined) record.error = input.error;
      if (input.client !== undefined) record.client = input.client;
      if (input.origin !== undefined) record.origin = input.origin;
      await write(record);
    },
    async approval(call, asked, whyAsked) {
      const record: ApprovalRecord = {
        type: 'approval',
        ...stamp(),
        ...(call.callId === undefined ? {} : { callId: call.callId }),
        server: call.serverName,
        tool: call.toolName,
        answer: asked.answer,
        approver: asked.approver,
        reason: whyAsked,
      };
      await write(record);
    },
    async serverStart(fields) {
      await write({ type: 'server-start', ...stamp(), ...fields });
    },
    async serverExit(fields) {
      await write({ type: 'server-exit', ...stamp(), ...fields });
    },
    async trustChange(change) {
      await write(trustChangeRecord(change, isoTime(Date.now()), runId));
    },
  };
}
