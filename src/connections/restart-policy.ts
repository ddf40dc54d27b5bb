/**
 * When a crashed server is started again. Bounded, so a server that crashes at every start does
 * not spin: after the last attempt it stays failed and says so.
 */
const RESTART_DELAYS_MS: readonly number[] = [500, 2_000, 5_000];

export function restartDelay(attempt: number): number | undefined {
  return RESTART_DELAYS_MS[attempt];
}
