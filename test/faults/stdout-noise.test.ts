/** A server that writes a banner and a log line to stdout: the session survives, each line is reported once. */
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { closeHosts, faultFixture, openFaultHost, resultText } from './fault-helpers.js';

afterEach(closeHosts);

describe('a server that prints to stdout', () => {
  it('keeps the session and reports the banner and the log line once each, naming the server', async () => {
    const diagnostics: string[] = [];
    const started = performance.now();
    const host = await openFaultHost(hostConfig([stdioServer('noisy', [fixtureServerPath('stdout-noise')])]), {
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
    // Never a silent hang: start-up and two calls are quick.
    expect(elapsed).toBeLessThan(10_000);

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
  it('keeps the message the text was glued to, and reports the text', async () => {
    const diagnostics: string[] = [];
    const started = performance.now();
    const host = await openFaultHost(hostConfig([stdioServer('glued', [faultFixture('glued-banner.mjs')])]), {
      onDiagnostic: (message) => diagnostics.push(message),
    });
    expect(host.servers()[0]?.state).toBe('connected');
    const call = await host.callTool('glued__echo', { text: 'intact' });
    expect(resultText(call.result)).toBe('intact');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(diagnostics.filter((line) => line.includes('Starting glued-banner… '))).toHaveLength(1);
    expect(diagnostics.filter((line) => line.includes('working… '))).toHaveLength(1);
    for (const line of diagnostics) expect(line).toContain('server "glued"');
  });
});
