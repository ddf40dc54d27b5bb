/**
 * The hard maximum of a call whose progress notifications keep extending its timeout.
 *
 * The SDK checks `maxTotalTimeout` only when a progress notification arrives, and when it trips it fails the
 * call without sending `notifications/cancelled`, so the server keeps working on a call nobody waits for.
 * A timer of our own that aborts the request fires on time, and the SDK's abort path sends the cancellation.
 *
 * The timer is set at the call's first progress notification, for what is left of the maximum: until then the call's
 * own timeout, never longer than the maximum, ends it first. Most calls send no progress and so cost no timer.
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { abortableSignal } from './never-aborted.js';

/**
 * Controllers of calls that ended without aborting, for the next calls: making a signal costs microseconds on Node 20,
 * a good part of a call's own work. One goes back only once its call has settled, when nothing listens to it any more
 * (the client library removes its listener as the request settles, this file its own), and only if it never aborted.
 */
const idleControllers: AbortController[] = [];
const MAX_IDLE_CONTROLLERS = 16;

/** The message the SDK uses for the same condition; `toCallFailure` recognises it. */
const HARD_MAXIMUM_MESSAGE = 'Maximum total timeout exceeded';

/**
 * `call` gets the signal to send the request with and `progressed`, to call on each progress notification. With no
 * `maxTotalMs`, the caller's signal is passed through and `progressed` does nothing.
 */
export async function withHardMaximum<T>(
  maxTotalMs: number | undefined,
  callerSignal: AbortSignal | undefined,
  call: (signal: AbortSignal | undefined, progressed: () => void) => Promise<T>,
): Promise<T> {
  // A signal that never aborts is as good as none, and costs no listener to follow.
  const source = abortableSignal(callerSignal);
  if (maxTotalMs === undefined) return call(source, () => undefined);
  const started = performance.now();
  const controller = idleControllers.pop() ?? new AbortController();
  // A progress notification that comes after the end must not start a timer on a controller handed on since.
  let settled = false;
  const forward = () => controller.abort(source?.reason);
  if (source?.aborted) forward();
  else source?.addEventListener('abort', forward, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const progressed = () => {
    if (settled || timer !== undefined || controller.signal.aborted) return;
    const left = Math.max(0, maxTotalMs - (performance.now() - started));
    timer = setTimeout(() => {
      controller.abort(
        new SdkError(SdkErrorCode.RequestTimeout, HARD_MAXIMUM_MESSAGE, { maxTotalTimeout: maxTotalMs }),
      );
    }, left);
  };
  try {
    return await call(controller.signal, progressed);
  } finally {
    settled = true;
    clearTimeout(timer);
    source?.removeEventListener('abort', forward);
    if (!controller.signal.aborted && idleControllers.length < MAX_IDLE_CONTROLLERS) idleControllers.push(controller);
  }
}
