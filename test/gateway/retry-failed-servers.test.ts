/**
 * When the gateway starts a failed server again: after the first wait, then after twice as long each time the attempt
 * fails, up to ten minutes; a server that comes back and fails again soon waits longer still, and one that stayed up
 * is given the first wait again. A server the config cannot start is left alone. A stand-in host, on fake timers.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { retryFailedServers } from '../../src/gateway/retry-failed-servers.js';
import type { Host } from '../../src/host/create-host.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A host of one server, `flaky`, whose state the test sets, and the times its restarts were asked for. */
function standIn(options: { unavailable?: string; lastError?: string } = {}) {
  const lastError = options.lastError ?? 'it exited with code 9';
  const state = { value: 'failed', startsOk: false };
  const asked: number[] = [];
  const host = {
    config: { servers: [{ name: 'flaky', ...(options.unavailable ? { unavailable: options.unavailable } : {}) }] },
    connection: () => ({ state: state.value }),
    restartServer: async () => {
      asked.push(Date.now());
      state.value = state.startsOk ? 'connected' : 'failed';
      return { name: 'flaky', state: state.value, lastError };
    },
  } as unknown as Host;
  return { host, state, asked };
}

it('waits the first wait, then twice as long after each failed attempt, up to ten minutes', async () => {
  const { host, asked } = standIn();
  const said: string[] = [];
  const start = Date.now();
  const retries = retryFailedServers(host, 30_000, (message) => said.push(message));
  await vi.advanceTimersByTimeAsync(60 * 60_000);
  await retries.stop();
  const waits = asked.map((at, index) => Math.round((at - (index === 0 ? start : asked[index - 1]!)) / 1000));
  // Seen failed at the first look (1 s), tried 30 s later; then 60, 120, 240, 480 s, and 600 s from then on.
  expect(waits.slice(0, 7)).toEqual([31, 60, 120, 240, 480, 600, 600]);
  expect(said[0]).toBe('server "flaky" still fails to start: it exited with code 9; tried again in 60 s');
});

it('waits longer for a server that comes back and soon fails again, and the first wait after one that stayed up', async () => {
  const { host, state, asked } = standIn();
  const retries = retryFailedServers(host, 30_000, () => undefined);
  state.startsOk = true;
  await vi.advanceTimersByTimeAsync(31_000);
  expect(asked).toHaveLength(1);
  // Down again soon after: the next attempt waits twice the first wait.
  state.value = 'failed';
  await vi.advanceTimersByTimeAsync(1_000);
  const failedAgainAt = Date.now();
  await vi.advanceTimersByTimeAsync(61_000);
  expect(asked).toHaveLength(2);
  expect(Math.round((asked[1]! - failedAgainAt) / 1000)).toBe(60);
  // Up for ten minutes: forgotten, so its next failure has the first wait.
  await vi.advanceTimersByTimeAsync(11 * 60_000);
  state.value = 'failed';
  await vi.advanceTimersByTimeAsync(1_000);
  const thirdFailureAt = Date.now();
  await vi.advanceTimersByTimeAsync(31_000);
  expect(asked).toHaveLength(3);
  expect(Math.round((asked[2]! - thirdFailureAt) / 1000)).toBe(30);
  await retries.stop();
});

it('leaves alone a server the config cannot start', async () => {
  const { host, asked } = standIn({ unavailable: 'the variable TOKEN is not set' });
  const retries = retryFailedServers(host, 1_000, () => undefined);
  await vi.advanceTimersByTimeAsync(60_000);
  await retries.stop();
  expect(asked).toEqual([]);
});

it('keeps a first wait longer than ten minutes after an attempt fails, rather than shortening it', async () => {
  const { host, asked } = standIn();
  const start = Date.now();
  const retries = retryFailedServers(host, 20 * 60_000, () => undefined);
  await vi.advanceTimersByTimeAsync(2 * 60 * 60_000);
  await retries.stop();
  const waits = asked.map((at, index) => Math.round((at - (index === 0 ? start : asked[index - 1]!)) / 60_000));
  expect(waits.slice(0, 3)).toEqual([20, 20, 20]);
});

it('looks at the servers no more often than every 100 ms, however short the first wait', async () => {
  const { host } = standIn();
  let looks = 0;
  // One server: one look at its connection per look at the servers.
  const connection = host.connection.bind(host);
  host.connection = (server) => {
    looks += 1;
    return connection(server);
  };
  const retries = retryFailedServers(host, 1, () => undefined);
  await vi.advanceTimersByTimeAsync(1_000);
  await retries.stop();
  expect(looks).toBeLessThanOrEqual(10);
});

it("says a server's failure on one short line, without its control codes, however long its error", async () => {
  const { host } = standIn({ lastError: `\u001b[2J\u001b]52;c;bWFsaWNl\u0007${'x'.repeat(100_000)}\nforged line` });
  const said: string[] = [];
  const retries = retryFailedServers(host, 1_000, (message) => said.push(message));
  await vi.advanceTimersByTimeAsync(3_000);
  await retries.stop();
  expect(said.length).toBeGreaterThan(0);
  for (const message of said) {
    expect([...message].some((character) => (character.codePointAt(0) ?? 0) < 0x20)).toBe(false);
    expect(message).not.toContain('\u007f');
    expect(message.length).toBeLessThan(400);
  }
});
