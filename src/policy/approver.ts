/**
 * The seam between the host and whoever may say yes. The policy decides *whether* a call or a tool definition
 * needs a person; an `Approver` is how that person is asked: a terminal prompt, a web dialog, rules alone in a
 * headless run, or `--yes`. Keeping it an interface lets the loop stay the same everywhere and lets tests answer
 * the way a user would.
 */

import type { ServerTrust } from '../config/types.js';
import type { HiddenContentFlag } from './hidden-content.js';
import type { ToolAnnotations } from './tool-annotations.js';
import type { ToolDefinitionSnapshot } from './tool-definition.js';

/** The text of the error result the model receives when the user says no. */
export const USER_DENIED_MESSAGE = 'User denied this call.';

/** The text of the error result the model receives when a deny rule matched. */
export function ruleDenialMessage(pattern: string): string {
  return `Denied by rule ${pattern}.`;
}

/** One tool call the policy wants a person to allow or deny. */
export interface ToolApprovalRequest {
  /** The provider's id for this call, when it came from the model. */
  callId?: string;
  serverName: string;
  /** Namespaced (`fs__write_file`). */
  toolName: string;
  /** The server's own name for the tool. */
  originalToolName: string;
  /** Exactly what will be sent (parsed JSON). */
  arguments: unknown;
  /** As the server declared them; whether they count depends on `trust`. */
  annotations?: ToolAnnotations;
  trust: ServerTrust;
  /** Why this call needs asking (the policy's reason). */
  reason: string;
  /** E.g. the tool reaches outside systems. */
  warnings: string[];
  /** The tool's description as the model sees it, for showing raw when `hiddenContent` is not empty. */
  description?: string;
  hiddenContent: HiddenContentFlag[];
  /** False when an `ask` rule decided: an "always allow" answer would be overruled by that rule anyway. */
  canAlwaysAllow: boolean;
  /** The call as its caller named it (see connections/call-streams.ts), when it did: whose question this is. */
  call?: object;
}

/**
 * `allow-tool-for-run` / `allow-server-for-run`: allow this call, and every later call of the same tool (or of any
 * tool of the same server) until the host closes, without asking again.
 */
export type ToolApprovalAnswer = 'allow-once' | 'allow-tool-for-run' | 'allow-server-for-run' | 'allow-always' | 'deny';

/** Why a tool is withheld from the model until a person approves its definition. */
export type WithholdReason =
  /** The definition differs from the one approved (a possible rug pull). */
  | 'definition-changed'
  /** The user revoked the tool. */
  | 'tool-revoked'
  /** The tool appeared on an untrusted server after its first start. */
  | 'new-tool-untrusted'
  /** An untrusted server's tool whose definition hides content (escape codes, invisible text, tags…). */
  | 'hidden-content'
  /** The server's command line or URL changed since it was approved. */
  | 'server-changed'
  /** The user revoked the server. */
  | 'server-revoked';

/** A new or changed tool definition waiting to be shown to the model. */
export interface DefinitionApprovalRequest {
  serverName: string;
  toolName: string;
  originalToolName: string;
  trust: ServerTrust;
  change: WithholdReason;
  /** A sentence saying why the tool is withheld. */
  reason: string;
  /** The definition approved before, when there was one. */
  previous?: ToolDefinitionSnapshot;
  current: ToolDefinitionSnapshot;
  /** Unified diff from `previous` to `current` (every line added when there is no previous); invisible characters escaped. */
  diff: string;
  hiddenContent: HiddenContentFlag[];
}

/** A server whose identity no longer matches its approval (or was revoked); its tools wait on this answer. */
export interface ServerApprovalRequest {
  serverName: string;
  trust: ServerTrust;
  change: 'server-changed' | 'server-revoked';
  reason: string;
  /** The command line or URL it runs now, secrets redacted. */
  target: string;
  /** Namespaced names of the tools it lists now. */
  toolNames: string[];
}

export type DefinitionApprovalAnswer = 'approve' | 'reject';

export interface Approver {
  /** Who answers, as recorded in the audit log: `terminal`, `headless`, `yes`, `web` … */
  readonly kind: string;
  /**
   * Asks about one tool call. Rejects with the signal's reason when `signal` aborts (the run is ending), so an
   * abort is not mistaken for a denial.
   */
  approveToolCall(request: ToolApprovalRequest, signal?: AbortSignal): Promise<ToolApprovalAnswer>;
  /** Asks whether a new or changed tool definition may be shown to the model. */
  approveToolDefinition(request: DefinitionApprovalRequest, signal?: AbortSignal): Promise<DefinitionApprovalAnswer>;
  /** Asks whether a server whose command line or URL changed (or that was revoked) may be trusted again. */
  approveServer(request: ServerApprovalRequest, signal?: AbortSignal): Promise<DefinitionApprovalAnswer>;
  /** The error text the model gets when this approver denies a call. Default `USER_DENIED_MESSAGE`. */
  denialMessage?(request: ToolApprovalRequest): string;
}
