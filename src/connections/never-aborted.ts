/**
 * The signal of a call nobody can cancel (its caller passed none). One for all such calls: making a signal costs
 * microseconds on Node 20, and neither a call's own hard maximum (hard-maximum.ts) nor a question at the terminal
 * (line-prompter.ts) listens to this one. Whoever else waits on it removes their listener when done, so the count
 * says nothing about a leak: no warning past ten.
 */
import { setMaxListeners } from 'node:events';

export const NEVER_ABORTED: AbortSignal = new AbortController().signal;
setMaxListeners(0, NEVER_ABORTED);

/**
 * `signal`, or undefined for the one that never aborts: what a wait should listen to. A listener on the shared signal
 * would stay for as long as its wait lasts, which may be forever, where no one counts them.
 */
export function abortableSignal(signal: AbortSignal | undefined): AbortSignal | undefined {
  return signal === NEVER_ABORTED ? undefined : signal;
}
