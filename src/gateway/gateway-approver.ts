/**
 * Consent in the gateway. An "ask" decision for a downstream client's call becomes an elicitation to that client
 * when it declares the capability (its user answers in its own UI); otherwise, or with `consent: "deny"`, the call
 * is denied with a message saying what would allow it. New or changed tool definitions are never approved here:
 * they stay withheld until `mcp-host trust approve`, as in any unattended run.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import { redactArguments } from '../audit/redact.js';
import type { GatewayConsent } from '../config/gateway-settings.js';
import type { Approver, ToolApprovalAnswer, ToolApprovalRequest } from '../policy/approver.js';
import { showOnOneLine } from '../text/invisible-characters.js';
import { stripControlCodes } from '../text/strip-control-codes.js';

/** A form elicitation as the downstream client receives it. */
interface ApprovalElicitation {
  message: string;
  requestedSchema: {
    type: 'object';
    properties: Record<string, { type: 'string'; title: string; description: string; enum: string[] }>;
    required: string[];
  };
}

export type ElicitAnswer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

/**
 * On the 2026-07-28 revision a server cannot send the client a request: the approval is returned as an
 * `input_required` result, and the client's answer comes with its retry of the call. Thrown out of the call (it has
 * not run, and nothing is recorded) so the session can return that result.
 */
export class ApprovalInputRequired extends Error {
  constructor(readonly elicitation: ApprovalElicitation) {
    super("the call needs the client's approval");
  }
}

/** The downstream call being decided: how to ask its client, if at all. */
export interface DownstreamCall {
  /** Present when the client declared elicitation. */
  elicit?: (request: ApprovalElicitation, timeoutMs: number) => Promise<ElicitAnswer>;
  consent: GatewayConsent;
  approvalTimeoutMs: number;
  secrets: readonly string[];
  /**
   * Whether "always allow" may be offered: it is kept in the trust store for every client and the host's own chat,
   * so only a client of the machine's own user (over stdio) may give it, never a token holder over HTTP.
   */
  mayAlwaysAllow: boolean;
  /** Set by the approver: why the call was denied, for the error result. */
  denial?: string;
}

const calls = new AsyncLocalStorage<DownstreamCall>();

/** Runs `work` (a `host.callTool`) with `call` as the context the approver asks through. */
export function withDownstreamCall<T>(call: DownstreamCall, work: () => Promise<T>): Promise<T> {
  return calls.run(call, work);
}

const MAX_SHOWN_ARGUMENT_CHARACTERS = 2_000;

const DECISION_FIELD = 'decision';

function describeCall(request: ToolApprovalRequest, secrets: readonly string[]): string {
  let shown = JSON.stringify(redactArguments(request.arguments, { secrets })) ?? '{}';
  if (shown.length > MAX_SHOWN_ARGUMENT_CHARACTERS) shown = `${shown.slice(0, MAX_SHOWN_ARGUMENT_CHARACTERS)}…`;
  const lines = [
    `mcp-host: allow a call to ${showOnOneLine(request.originalToolName)} on server "${request.serverName}" (${request.trust})?`,
    `Why it asks: ${request.reason}`,
    ...request.warnings.map((warning) => `Warning: ${warning}`),
    `Arguments: ${shown}`,
  ];
  return stripControlCodes(lines.join('\n'));
}

function offersAlwaysAllow(request: ToolApprovalRequest, call: DownstreamCall): boolean {
  return request.canAlwaysAllow && call.mayAlwaysAllow;
}

function approvalElicitation(request: ToolApprovalRequest, call: DownstreamCall): ApprovalElicitation {
  const answers = ['allow-once', ...(offersAlwaysAllow(request, call) ? ['allow-always'] : []), 'deny'];
  return {
    message: describeCall(request, call.secrets),
    requestedSchema: {
      type: 'object',
      properties: {
        [DECISION_FIELD]: {
          type: 'string',
          title: 'Decision',
          description: 'allow-once runs this call; allow-always remembers the tool; deny refuses it',
          enum: answers,
        },
      },
      required: [DECISION_FIELD],
    },
  };
}

function answerOf(reply: ElicitAnswer, request: ToolApprovalRequest, call: DownstreamCall): ToolApprovalAnswer {
  if (reply.action !== 'accept') return 'deny';
  const decision = reply.content?.[DECISION_FIELD];
  if (decision === 'allow-once') return 'allow-once';
  // An answer that was not offered is not taken.
  if (decision === 'allow-always' && offersAlwaysAllow(request, call)) return 'allow-always';
  return 'deny';
}

export function createGatewayApprover(): Approver {
  return {
    kind: 'gateway-client',
    async approveToolCall(request, signal) {
      const call = calls.getStore();
      if (call === undefined) return 'deny';
      if (call.consent === 'deny') {
        call.denial = `${request.toolName} needs approval and this gateway profile does not ask (consent "deny"): add a rule to permissions.allow in the gateway's config.`;
        return 'deny';
      }
      if (call.elicit === undefined) {
        call.denial = `${request.toolName} needs approval and this client cannot be asked (it does not support elicitation): add a rule to permissions.allow in the gateway's config.`;
        return 'deny';
      }
      signal?.throwIfAborted();
      try {
        const reply = await call.elicit(approvalElicitation(request, call), call.approvalTimeoutMs);
        const answer = answerOf(reply, request, call);
        if (answer === 'deny') call.denial = `The user denied this call (${reply.action}).`;
        return answer;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (error instanceof ApprovalInputRequired) throw error;
        call.denial = `${request.toolName} needs approval and asking the client failed: ${error instanceof Error ? error.message : String(error)}`;
        return 'deny';
      }
    },
    approveToolDefinition: async () => 'reject',
    approveServer: async () => 'reject',
    denialMessage: (request) => calls.getStore()?.denial ?? `${request.toolName} was denied.`,
  };
}
