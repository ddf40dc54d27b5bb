/**
 * Why a tool call did not produce a result. The loop turns each into an error result for the
 * model (a tool failure never ends a run); the audit log records the kind as the outcome.
 */
export type CallFailureKind = 'timeout' | 'cancelled' | 'crashed' | 'disconnected' | 'protocol' | 'not-connected';

export class CallFailure extends Error {
  override readonly name = 'CallFailure';
  constructor(
    readonly kind: CallFailureKind,
    message: string,
    readonly server: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
