/** A server that writes a banner and a log line to stdout: the session survives, each line is reported once. */
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { closeHosts, faultFixture, openFaultHost, resultText } from './fault-helpers.js';

afterEach(closeHosts);

/** Far longer than each test may take: a start-up or call that hung until it fails the test by its own limit. */
const LONG_TIMEOUT_MS = 120_000;
const TEST_LIMIT = { timeout: 60_000 };
const patient = { startupTimeoutMs: LONG_TIMEOUT_MS, timeoutMs: LONG_TIMEOUT_MS };

describe('a server that prints to stdout', () => {
  it('keeps the session and reports the banner and the log line once each, naming the server', TEST_LIMIT, async () => {
    const diagnostics: string[] = [];
    const started = performance.now();
    const host = await openFaultHost(hostConfig([stdioServer('noisy', [fixtureServerPath('stdout-noise')], patient)]), {
      onDiagnostic: (message) => diagnostics.push(message),
    });
    expect(host.servers()[0]?.state).toBe('connected');

    const first = await host.callTool('noisy__echo', { text: 'hello' });
    const second = await host.callTool('noisy__echo', { text: 'again' });
    const elapsed = performance.now() - started;
    expect(first.outcome).toBe('ok');
    expect(resultText(first.result)).toBe('hello');
    expect(resultText(second.result)).toBe('again');
    console.info(
      `stdout noise: start-up and two calls in ${Math.round(elapsed)} ms, ${diagnostics.length} diagnostics`,
    );

    const banner = diagnostics.filter((line) => line.includes('Noisy server 1.0 — ready on stdio'));
    expect(banner).toHaveLength(1);
    expect(banner[0]).toContain('server "noisy"');
    expect(banner[0]).toContain('stdout');
    const logLines = diagnostics.filter((line) => line.includes('echo called'));
    // One diagnostic per offending line: the log line was written twice, once per call.
    expect(logLines).toHaveLength(2);
    for (const line of logLines) expect(line).toContain('server "noisy"');
  });
});

describe('a server that prints to stdout without a newline', () => {
  it('keeps the message the text was glued to, and reports the text', TEST_LIMIT, async () => {
    const diagnostics: string[] = [];
    const host = await openFaultHost(hostConfig([stdioServer('glued', [faultFixture('glued-banner.mjs')], patient)]), {
      onDiagnostic: (message) => diagnostics.push(message),
    });
    expect(host.servers()[0]?.state).toBe('connected');
    const call = await host.callTool('glued__echo', { text: 'intact' });
    expect(resultText(call.result)).toBe('intact');
    expect(diagnostics.filter((line) => line.includes('Starting glued-banner… '))).toHaveLength(1);
    expect(diagnostics.filter((line) => line.includes('working… '))).toHaveLength(1);
    for (const line of diagnostics) expect(line).toContain('server "glued"');
  });
});
