/**
 * Why a tool call did not produce a result. The loop turns each into an error result for the
 * model (a tool failure never ends a run); the audit log records the kind as the outcome.
 */
import type { ServerExit } from './server-exit.js';

export type CallFailureKind = 'timeout' | 'cancelled' | 'crashed' | 'disconnected' | 'protocol' | 'not-connected';

/** One URL a server said the user must visit before it can answer (error -32042, URL elicitation required). */
export interface RequiredUrlElicitation {
  elicitationId: string;
  url: string;
  message: string;
}

export class CallFailure extends Error {
  override readonly name = 'CallFailure';
  /** Set when the server answered -32042: the call can go on once the user has visited these URLs. */
  readonly urlElicitations?: readonly RequiredUrlElicitation[];
  /**
   * Set when the call failed because its server went away and the connection had already reported that exit
   * (`onExit`) as it happened: the message is the exit's description, which whoever showed the report has shown.
   */
  readonly serverExit?: ServerExit;
  constructor(
    readonly kind: CallFailureKind,
    message: string,
    readonly server: string,
    options?: { cause?: unknown; urlElicitations?: readonly RequiredUrlElicitation[]; serverExit?: ServerExit },
  ) {
    super(message, options);
    if (options?.urlElicitations !== undefined) this.urlElicitations = options.urlElicitations;
    if (options?.serverExit !== undefined) this.serverExit = options.serverExit;
  }
}
