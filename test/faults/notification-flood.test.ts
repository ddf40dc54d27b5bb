/**
 * A server that sends 200,000 notifications (log messages and `tools/list_changed`) ahead of a call's answer:
 * the call is answered, not timed out; `list_changed` costs a bounded number of re-listings; log messages past the
 * per-server rate are dropped with one counted warning; a failing re-listing is reported once, not once per
 * notification; memory stays bounded.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { closeHosts, faultFixture, openFaultHost, resultText, waitUntil } from './fault-helpers.js';

afterEach(closeHosts);

const COUNT = 200_000;

/** Samples this process's RSS until stopped; returns the peak in MB. */
function sampleRss(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return () => {
    clearInterval(timer);
    return Math.round(Math.max(peak, process.memoryUsage().rss) / 1024 / 1024);
  };
}

describe('a flood of 200,000 notifications', () => {
  it('answers the call, coalesces re-listings, drops logs with one counted warning', { timeout: 180_000 }, async () => {
    const diagnostics: string[] = [];
    const logged: string[] = [];
    const host = await openFaultHost(
      hostConfig([
        stdioServer('flood', [faultFixture('hostile-server.mjs'), 'flood'], {
          timeoutMs: 60_000,
        }),
      ]),
      {
        onDiagnostic: (message) => diagnostics.push(message),
        onServerLog: (entry) => logged.push(String(entry.data)),
      },
    );
    const before = Math.round(process.memoryUsage().rss / 1024 / 1024);
    const peak = sampleRss();
    const started = performance.now();
    const flood = await host.callTool('flood__flood', { count: COUNT, kind: 'mixed' });
    const elapsed = Math.round(performance.now() - started);
    const peakMb = peak();
    console.info(`${COUNT} notifications: call answered in ${elapsed} ms; RSS ${before} MB before, peak ${peakMb} MB`);

    expect(flood.outcome).toBe('ok');
    expect(resultText(flood.result)).toBe(`flooded ${COUNT}`);

    const listCount = async () =>
      (JSON.parse(resultText((await host.callTool('flood__list_count', {})).result)) as { toolsListRequests: number })
        .toolsListRequests;
    // A request answered after the flood: the host has taken in every notification sent before the flood's answer.
    await listCount();
    // Resolves once no re-listing is in flight; with no notification pending none starts after it. The count asked
    // after it comes behind every tools/list the flood caused.
    await host.refreshCatalog();
    // One listing at start; the 100,000 list_changed cost a handful, not one each.
    expect(await listCount()).toBeLessThanOrEqual(20);

    const echo = await host.callTool('flood__echo', { text: 'still here' });
    expect(resultText(echo.result)).toBe('still here');

    // Closing reports the drops not yet reported: every warning the flood causes has been given after it.
    await closeHosts();
    expect(diagnostics.filter((line) => line.includes('could not re-list'))).toEqual([]);
    const dropped = diagnostics.filter((line) => /dropped [\d,]+ log messages/.test(line));
    expect(dropped.length).toBeGreaterThanOrEqual(1);
    expect(dropped.length).toBeLessThanOrEqual(3);
    expect(diagnostics.length).toBeLessThan(20);
    // Most of the 100,000 log messages were dropped, and what was kept is bounded.
    expect(logged.length).toBeLessThan(10_000);
    const logFiles = readdirSync(join(host.stateDir, 'logs'));
    const logLines = readFileSync(join(host.stateDir, 'logs', logFiles[0]!), 'utf8').split('\n').length;
    expect(logLines).toBeLessThan(10_000);
    expect(peakMb - before).toBeLessThan(300);
  });

  it('reports a re-listing that keeps failing once per burst, not once per notification', {
    timeout: 180_000,
  }, async () => {
    const diagnostics: string[] = [];
    const host = await openFaultHost(
      hostConfig([
        stdioServer('flood', [faultFixture('hostile-server.mjs'), 'flood'], {
          timeoutMs: 60_000,
          env: { FLOOD_FAILS_LIST_MS: '600000' },
        }),
      ]),
      { onDiagnostic: (message) => diagnostics.push(message) },
    );
    const flood = await host.callTool('flood__flood', { count: 100_000, kind: 'list' });
    expect(flood.outcome).toBe('ok');
    await waitUntil(() => diagnostics.some((line) => line.includes('could not re-list')), 'the re-listing to fail');
    // The report comes when a re-listing burst ends; this resolves once none is in flight, and with every
    // notification taken in before the flood's answer, none starts after it.
    await host.refreshCatalog();
    const relist = diagnostics.filter((line) => line.includes('could not re-list'));
    expect(relist).toEqual(['server "flood" could not re-list its tools: tools/list is unavailable during the flood']);
    // Re-listing was asked for a handful of times, not 100,000.
    const listed = (host.servers()[0]?.stderrTail ?? '').match(/tools\/list (\d+)/g) ?? [];
    expect(Number(listed.at(-1)?.split(' ')[1])).toBeLessThanOrEqual(20);
  });
});
