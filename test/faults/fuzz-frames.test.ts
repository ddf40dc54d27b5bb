/**
 * 10,000 random and malformed frames from a server (garbage, cut-off JSON, wrong JSON-RPC shapes, huge ids,
 * unknown methods, responses to unknown ids, deep nesting, raw bytes): the host neither crashes nor leaves a
 * rejection unhandled, reports the noise in bounded diagnostics, and the connection still answers afterwards.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostConfig, stdioServer } from '../helpers/configs.js';
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

describe('a server that writes malformed frames', () => {
  it('survives 10,000 of them and still answers a ping and a tool call', { timeout: 60_000 }, async () => {
    const diagnostics: string[] = [];
    const host = await openFaultHost(
      hostConfig([stdioServer('fuzz', [faultFixture('frame-spewer.mjs')], { timeoutMs: 30_000 })]),
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

    // Give stray promises a moment to settle before checking that none was left unhandled.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(unhandled).toEqual([]);
    // Noise is reported, but boundedly: not one diagnostic per bad frame.
    expect(diagnostics.some((line) => line.includes('server "fuzz"'))).toBe(true);
    expect(diagnostics.length).toBeLessThan(100);
  });
});
