/**
 * A remote server answering with hundreds of megabytes: `maxMessageBytes` bounds HTTP responses as it bounds stdio
 * lines. The call fails with the size error (JSON body or one SSE event), the host stops reading (the server
 * could write only a little past the limit), its memory stays far below the response's size, and the next call
 * on the same server works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../src/host/create-host.js';
import { type OversizedServer, startOversizedServer } from '../fixtures/faults/oversized-http-server.js';
import { hostConfig, httpServer } from '../helpers/configs.js';
import { rssGrowthDuring } from '../helpers/rss-growth-during.js';
import { closeHosts, openFaultHost, resultText } from './fault-helpers.js';

const MEBIBYTE = 1024 * 1024;
const LIMIT = 4 * MEBIBYTE;
const RESPONSE_MB = 400;

let server: OversizedServer;
let host: Host;

beforeAll(async () => {
  server = await startOversizedServer();
  const remote = httpServer('remote', server.url, { trust: 'trusted', timeoutMs: 60_000, maxMessageBytes: LIMIT });
  host = await openFaultHost(hostConfig([remote]));
});

afterAll(async () => {
  await closeHosts();
  await server?.close();
});

async function refusedCall(tool: string) {
  const writtenBefore = server.bytesWritten();
  const started = performance.now();
  const { value: call, growthMb } = await rssGrowthDuring(() =>
    host.callTool(`remote__${tool}`, { megabytes: RESPONSE_MB }),
  );
  const elapsed = performance.now() - started;
  const writtenMb = (server.bytesWritten() - writtenBefore) / MEBIBYTE;
  console.info(
    `${tool}: refused after ${Math.round(elapsed)} ms; server wrote ${writtenMb.toFixed(1)} MB; peak RSS growth ${growthMb.toFixed(1)} MB`,
  );
  return { call, writtenMb, growthMb };
}

describe('a remote response larger than maxMessageBytes', () => {
  it('fails a call answered with a huge JSON body, stops reading it, and the next call works', {
    timeout: 90_000,
  }, async () => {
    const { call, writtenMb, growthMb } = await refusedCall('big_json');
    expect(call.result.isError).toBe(true);
    const text = resultText(call.result);
    expect(text).toContain('server "remote"');
    expect(text).toContain(`maximum of ${LIMIT} bytes`);
    expect(text).toContain('maxMessageBytes');
    // The host stopped reading: the server could not write the whole response, and little of it was held.
    expect(writtenMb).toBeLessThan(RESPONSE_MB / 4);
    expect(growthMb).toBeLessThan(RESPONSE_MB / 4);
    expect(resultText((await host.callTool('remote__small', {})).result)).toBe('small answer');
  });

  it('fails a call whose SSE answer is one huge event, with an error for that call, and the next call works', {
    timeout: 90_000,
  }, async () => {
    const { call, writtenMb, growthMb } = await refusedCall('big_sse');
    expect(call.result.isError).toBe(true);
    const text = resultText(call.result);
    expect(text).toContain('server "remote"');
    expect(text).toMatch(
      new RegExp(`^The tool call failed: server "remote" sent a message larger than the maximum of ${LIMIT} bytes`),
    );
    // The host wrote the error answer in place of the event: the server did not answer with an error.
    expect(text).not.toContain('answered with an error');
    expect(text).not.toContain('did not answer within');
    expect(writtenMb).toBeLessThan(RESPONSE_MB / 4);
    expect(growthMb).toBeLessThan(RESPONSE_MB / 4);
    expect(resultText((await host.callTool('remote__small', {})).result)).toBe('small answer');
  });

  it('passes responses within the limit whole', { timeout: 30_000 }, async () => {
    const call = await host.callTool('remote__big_sse', { megabytes: 1 });
    expect(call.result.isError).toBeFalsy();
    expect(resultText(call.result)).toMatch(/^x{1000}/);
  });
});
