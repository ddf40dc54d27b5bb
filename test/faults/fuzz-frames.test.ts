/**
 * 10,000 and then 100,000 random and malformed frames from a server (garbage, cut-off JSON, wrong JSON-RPC shapes, huge ids,
 * unknown methods, responses to unknown ids, deep nesting, raw bytes): the host neither crashes nor leaves a
 * rejection unhandled, reports the noise in bounded diagnostics, and the connection still answers afterwards.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { rssGrowthDuring } from '../helpers/rss-growth-during.js';
import { closeHosts, faultFixture, openFaultHost, resultText } from './fault-helpers.js';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => {
  unhandled.push(reason);
};

beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
});

afterEach(async () => {
  await closeHosts();
  process.off('unhandledRejection', onUnhandled);
  process.off('uncaughtException', onUnhandled);
});

/** Lets pending rejections surface: a full turn of the event loop after the microtasks have run. */
async function settled(): Promise<void> {
  for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('a server that writes malformed frames', () => {
  it('survives 10,000 of them and still answers a ping and a tool call', { timeout: 120_000 }, async () => {
    const diagnostics: string[] = [];
    const host = await openFaultHost(
      hostConfig([stdioServer('fuzz', [faultFixture('frame-spewer.mjs')], { timeoutMs: 100_000 })]),
      { onDiagnostic: (message) => diagnostics.push(message) },
    );
    const started = performance.now();
    for (const seed of [1, 2]) {
      const spew = await host.callTool('fuzz__spew', { count: 5_000, seed });
      expect(spew.outcome).toBe('ok');
      expect(resultText(spew.result)).toMatch(/^spewed 5000 frames, \d+ bytes$/);
    }
    console.info(`10,000 malformed frames handled in ${Math.round(performance.now() - started)} ms`);

    const echo = await host.callTool('fuzz__echo', { text: 'still here' });
    expect(echo.outcome).toBe('ok');
    expect(resultText(echo.result)).toBe('still here');
    await expect(host.connection('fuzz')?.sdkClient?.ping()).resolves.toBeDefined();
    expect(host.servers()[0]?.state).toBe('connected');

    await settled();
    expect(unhandled).toEqual([]);
    // Noise is reported, but boundedly: not one diagnostic per bad frame.
    expect(diagnostics.some((line) => line.includes('server "fuzz"'))).toBe(true);
    expect(diagnostics.length).toBeLessThan(100);
  });

  it('survives 100,000 of them with bounded memory, answers every call, and leaves no process behind', {
    timeout: 240_000,
  }, async () => {
    const diagnostics: string[] = [];
    // Generous: on a loaded machine the four spews share the cores with everything else.
    const host = await openFaultHost(
      hostConfig([stdioServer('fuzz', [faultFixture('frame-spewer.mjs')], { timeoutMs: 200_000 })]),
      { onDiagnostic: (message) => diagnostics.push(message) },
    );
    const pid = host.servers()[0]?.pid;
    const started = performance.now();
    // Four spews at once, with echo calls in between: every call gets its own answer.
    const { value: calls, growthMb } = await rssGrowthDuring(
      () =>
        Promise.all([
          ...[11, 12, 13, 14].map((seed) => host.callTool('fuzz__spew', { count: 25_000, seed })),
          ...Array.from({ length: 20 }, (_, index) => host.callTool('fuzz__echo', { text: `call ${index}` })),
        ]),
      50,
    );
    console.info(
      `100,000 malformed frames handled in ${Math.round(performance.now() - started)} ms; RSS growth ${growthMb.toFixed(1)} MB`,
    );
    for (const call of calls.slice(0, 4)) expect(resultText(call.result)).toMatch(/^spewed 25000 frames, \d+ bytes$/);
    calls.slice(4).forEach((call, index) => {
      expect(resultText(call.result)).toBe(`call ${index}`);
    });
    expect(growthMb).toBeLessThan(300);
    await settled();
    expect(unhandled).toEqual([]);
    expect(diagnostics.length).toBeLessThan(200);

    await closeHosts();
    expect(pid).toBeDefined();
    expect(() => process.kill(pid!, 0)).toThrow();
  });
});
