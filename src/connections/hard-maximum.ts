/**
 * The hard maximum of a call whose progress notifications keep extending its timeout.
 *
 * The SDK checks `maxTotalTimeout` only when a progress notification arrives, and when it trips it fails the
 * call without sending `notifications/cancelled`, so the server keeps working on a call nobody waits for.
 * A timer of our own that aborts the request fires on time, and the SDK's abort path sends the cancellation.
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/** The message the SDK uses for the same condition; `toCallFailure` recognises it. */
export const HARD_MAXIMUM_MESSAGE = 'Maximum total timeout exceeded';

export async function withHardMaximum<T>(
  maxTotalMs: number | undefined,
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (maxTotalMs === undefined) return call(signal);
  const controller = new AbortController();
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(() => {
    controller.abort(new SdkError(SdkErrorCode.RequestTimeout, HARD_MAXIMUM_MESSAGE, { maxTotalTimeout: maxTotalMs }));
  }, maxTotalMs);
  try {
    return await call(controller.signal);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
}
