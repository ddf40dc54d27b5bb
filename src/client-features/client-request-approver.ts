/**
 * The seam between the host and the person who answers what a *server* asks of the client: may the host's model
 * answer this server's prompt (sampling), what should be filled into this form, may this URL be opened
 * (elicitation). It sits beside the policy layer's `Approver` (which answers about tool calls) rather than inside
 * it, so either can change without the other. A terminal, a web dialog or a test answers through it; with no one
 * to ask, the headless implementation declines.
 */
import type { SamplingMessage } from '@modelcontextprotocol/client';
import type { DescribedUrl } from './describe-url.js';
import type { FormField } from './elicitation-form-fields.js';

/** A server's `sampling/createMessage`, as the person deciding sees it. */
export interface SamplingApprovalRequest {
  serverName: string;
  /** The model that would answer, `provider:model`. */
  model: string;
  systemPrompt?: string;
  /** The full prompt, exactly as the server sent it. */
  messages: SamplingMessage[];
  maxTokens: number;
  /** Tools the server offers the model inside this request (the server runs them, not the host). */
  tools: Array<{ name: string; description?: string }>;
  /** What the server asked for but the host does not apply, e.g. `includeContext` or `temperature`. */
  notApplied: string[];
  /** The server's model preferences (hint names), for information. */
  modelHints: string[];
  /**
   * The call the request came with, as its caller named it, when that can be told (see connections/call-streams.ts):
   * whose question it is.
   */
  call?: object;
}

export type SamplingApprovalAnswer = 'allow' | 'deny';

/** The values of an accepted form, by field name. */
export type ElicitationContent = Record<string, string | number | boolean | string[]>;

/** A form-mode `elicitation/create`. */
export interface FormElicitationRequest {
  serverName: string;
  message: string;
  fields: FormField[];
  /**
   * The call the request came with, as its caller named it, when that can be told (see connections/call-streams.ts):
   * whose question it is.
   */
  call?: object;
}

export type FormElicitationAnswer =
  | { action: 'accept'; content: ElicitationContent }
  | { action: 'decline' }
  | { action: 'cancel' };

/** A URL-mode `elicitation/create`: the server wants the user to visit a URL (nothing is fetched by the host). */
export interface UrlElicitationRequest {
  serverName: string;
  message: string;
  elicitationId: string;
  url: DescribedUrl;
  /**
   * The call it is about, as its caller named it (see connections/call-streams.ts): the one a server's
   * `elicitation/create` came with, when that can be told, or the one the server refused with -32042. Whose question
   * it is.
   */
  call?: object;
}

/** `accept` means the user consents to the URL being opened in their browser. */
export type UrlElicitationAnswer = 'accept' | 'decline' | 'cancel';

export interface ClientRequestApprover {
  /** Who answers, as recorded in the audit log: `terminal`, `headless`, `web`, a test's name … */
  readonly kind: string;
  /** Whether the host's model may answer this server's sampling request. Rejects when `signal` aborts. */
  approveSampling(request: SamplingApprovalRequest, signal?: AbortSignal): Promise<SamplingApprovalAnswer>;
  /** Asks the user to fill in a form, decline it or cancel. Rejects when `signal` aborts. */
  elicitForm(request: FormElicitationRequest, signal?: AbortSignal): Promise<FormElicitationAnswer>;
  /** Asks whether to open a URL. Only `accept` lets the host open it. Rejects when `signal` aborts. */
  elicitUrl(request: UrlElicitationRequest, signal?: AbortSignal): Promise<UrlElicitationAnswer>;
}
