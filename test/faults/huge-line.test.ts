/**
 * A server that writes one line of hundreds of megabytes with no newline: the host fails the call with a size
 * error, does not buffer the line (its memory stays far below the line's size), and carries on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServerLaunch } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { rssGrowthDuring } from '../helpers/rss-growth-during.js';
import { closeHosts, openFaultHost, resultText } from './fault-helpers.js';

afterEach(closeHosts);

const MEBIBYTE = 1024 * 1024;
const LIMIT = 8 * MEBIBYTE;
const LINE_MB = 300;
/** Far longer than each test may take: a call that waited for it fails the test by the test's own limit. */
const LONG_TIMEOUT_MS = 120_000;

function hugeLineServer(name: string, env: Record<string, string>) {
  const launch = fixtureServerLaunch('huge-line', { HUGE_LINE_MB: String(LINE_MB), ...env });
  return stdioServer(name, launch.args, { env: launch.env ?? {}, maxMessageBytes: LIMIT, timeoutMs: LONG_TIMEOUT_MS });
}

describe('a line of hundreds of megabytes with no newline', () => {
  it('fails the call with a size error, with bounded memory, and the host carries on', {
    timeout: 60_000,
  }, async () => {
    const diagnostics: string[] = [];
    const host = await openFaultHost(
      hostConfig([hugeLineServer('huge', {}), stdioServer('calm', [fixtureServerLaunch('counter').args[0]!])]),
      { onDiagnostic: (message) => diagnostics.push(message) },
    );
    const started = performance.now();
    const { value: call, growthMb } = await rssGrowthDuring(() => host.callTool('huge__huge', {}));
    const elapsed = performance.now() - started;
    console.info(`huge line refused after ${Math.round(elapsed)} ms; peak RSS growth ${growthMb.toFixed(1)} MB`);

    expect(call.result.isError).toBe(true);
    const text = resultText(call.result);
    expect(text).toContain('server "huge"');
    expect(text).toContain(`maximum of ${LIMIT} bytes`);
    // The line is 300 MB; the host held at most the limit's worth of it.
    expect(growthMb).toBeLessThan(LINE_MB / 3);

    expect(resultText((await host.callTool('calm__echo', { text: 'fine' })).result)).toBe('fine');
  });

  it('refuses a server whose first line is already too long, naming the limit', { timeout: 60_000 }, async () => {
    const host = await openFaultHost(
      hostConfig([
        hugeLineServer('huge', { HUGE_LINE_AT: 'start' }),
        stdioServer('calm', [fixtureServerLaunch('counter').args[0]!]),
      ]),
    );
    const failure = host.failures().find((entry) => entry.server === 'huge');
    expect(failure?.message).toContain('server "huge" failed to start');
    expect(failure?.message).toContain(`maximum of ${LIMIT} bytes`);
    expect(resultText((await host.callTool('calm__echo', { text: 'fine' })).result)).toBe('fine');
  });
});
