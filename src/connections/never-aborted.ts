/**
 * The signal of a call nobody can cancel (its caller passed none). One for all such calls: making a signal costs
 * microseconds on Node 20, and a call's own hard maximum (hard-maximum.ts) need not listen to this one. Whoever waits
 * on it removes their listener when done, so the count says nothing about a leak: no warning past ten.
 */
import { setMaxListeners } from 'node:events';

export const NEVER_ABORTED: AbortSignal = new AbortController().signal;
setMaxListeners(0, NEVER_ABORTED);
