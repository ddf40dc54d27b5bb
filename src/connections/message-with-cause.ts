/**
 * An error's message with the reason underneath it: `fetch failed` alone does not say whether the address refused
 * the connection, did not resolve or failed its TLS check; the reason is in the error's `cause` (several addresses
 * tried give an `AggregateError`, whose first error is taken).
 */

/** Causes followed at most; a chain is never longer in practice, and a cycle must end. */
const MAX_CAUSE_DEPTH = 5;
/** The reason is system text, but bounded all the same. */
const MAX_REASON_LENGTH = 300;

export function messageWithCause(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = innermostReason(error);
  if (reason === undefined || message.includes(reason)) return message;
  return `${message} (${reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH)}…` : reason})`;
}

function innermostReason(error: unknown): string | undefined {
  let reason: string | undefined;
  let current = causeOf(error);
  for (let depth = 0; current !== undefined && depth < MAX_CAUSE_DEPTH; depth += 1) {
    const message = current instanceof Error ? current.message : undefined;
    const code = (current as { code?: unknown }).code;
    if (message) reason = message;
    else if (typeof code === 'string') reason = code;
    const first = current instanceof AggregateError ? (current.errors as unknown[])[0] : undefined;
    current = first ?? causeOf(current);
  }
  return reason;
}

function causeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined;
}
