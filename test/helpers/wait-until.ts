/**
 * Waiting in tests on something observable (a line written, a process gone, a record read) rather than for a fixed
 * time: a slow machine then makes a test slower, never wrong. Polls `check` every `intervalMs` until it holds, and
 * fails after `timeoutMs` naming `what` it waited for.
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
