/**
 * A tool result nested 10,000 levels deep (in `structuredContent`, `_meta` or inside a content block), and model
 * arguments nested as deep: each becomes an error result for that one call, the call is audited, and the run
 * goes on to its end instead of dying of a stack overflow. From a remote server too, as a JSON body or an event.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCallRecord } from '../../src/audit/audit-record.js';
import { createMemoryAuditSink } from '../../src/audit/audit-sink.js';
import { startOversizedServer } from '../fixtures/faults/oversized-http-server.js';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, httpServer, stdioServer } from '../helpers/configs.js';
import { closeHosts, faultFixture, openFaultHost, resultText } from './fault-helpers.js';
import { createTurnProvider, lastToolResults, toolCall } from './turn-provider.js';

afterEach(closeHosts);

const DEPTH = 10_000;
/** The host refused the server's answer: in the host's words, not as an error the server answered with. */
const REFUSED = (server: string) =>
  `The tool call failed: server "${server}" sent an answer nested deeper than 128 levels; the host refused it`;
const nestedArguments = `{"text":"deep","value":${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)}}`;

describe('values nested 10,000 levels deep', () => {
  it('make an error result for that call, audited, and the run goes on', { timeout: 60_000 }, async () => {
    const provider = createTurnProvider([
      () => [
        toolCall('structured', 'hostile__deep', { depth: DEPTH, where: 'structured' }),
        toolCall('meta', 'hostile__deep', { depth: DEPTH, where: 'meta' }),
        toolCall('content', 'hostile__deep', { depth: DEPTH, where: 'content' }),
        toolCall('arguments', 'hostile__echo', nestedArguments),
        toolCall('fine', 'hostile__echo', { text: 'still works' }),
      ],
      (request) => [{ type: 'text', text: `saw ${lastToolResults(request).length} results` }],
    ]);
    const audit = createMemoryAuditSink();
    const host = await openFaultHost(
      hostConfig([stdioServer('hostile', [faultFixture('hostile-server.mjs'), 'deep'])], {
        permissions: { allow: ['hostile__*'], ask: [], deny: [] },
      }),
      { provider, auditSink: audit },
    );

    const started = performance.now();
    const result = await host.run('go deep');
    console.info(`three 10,000-deep results and 10,000-deep arguments: ${Math.round(performance.now() - started)} ms`);
    expect(result.stopReason).toBe('end');
    expect(result.text).toBe('saw 5 results');

    const results = lastToolResults(provider.requests[1]!);
    expect(results.map((entry) => entry.callId)).toEqual(['structured', 'meta', 'content', 'arguments', 'fine']);
    expect(results.map((entry) => entry.isError)).toEqual([true, true, true, true, false]);
    for (const entry of results.slice(0, 3)) expect(resultText(entry)).toBe(REFUSED('hostile'));
    expect(resultText(results[3]!)).toMatch(/arguments .*nested deeper than 128 levels/);
    expect(resultText(results[4]!)).toBe('still works');

    const calls = new Map(
      audit.records
        .filter((record): record is ToolCallRecord => record.type === 'tool-call')
        .map((record) => [record.callId, record]),
    );
    expect(Object.fromEntries([...calls].map(([id, record]) => [id, record.outcome]))).toEqual({
      structured: 'error',
      meta: 'error',
      content: 'error',
      arguments: 'error',
      fine: 'ok',
    });
    expect(calls.get('structured')!.error).toMatch(/nested deeper than 128 levels/);
    expect(calls.get('arguments')!.error).toMatch(/nested deeper than 128 levels/);
  });

  it('a tool list nested 10,000 deep fails that listing only; other servers work', { timeout: 60_000 }, async () => {
    const host = await openFaultHost(
      hostConfig([
        stdioServer('hostile', [faultFixture('hostile-server.mjs'), 'deep-schema']),
        stdioServer('counter', [fixtureServerPath('counter')]),
      ]),
    );
    expect(host.failures()).toEqual([
      {
        server: 'hostile',
        message: expect.stringMatching(
          /failed to list its tools: .*answer to tools\/list is nested deeper than 128 levels/,
        ),
      },
    ]);
    const echo = await host.callTool('counter__echo', { text: 'other servers work' });
    expect(resultText(echo.result)).toBe('other servers work');
  });

  it('the same result called directly by the user is an error, not a crash', { timeout: 60_000 }, async () => {
    const host = await openFaultHost(
      hostConfig([stdioServer('hostile', [faultFixture('hostile-server.mjs'), 'deep'])]),
    );
    const called = await host.callTool('hostile__deep', { depth: DEPTH, where: 'structured' });
    expect(called.outcome).toBe('error');
    expect(resultText(called.result)).toBe(REFUSED('hostile'));
    const fine = await host.callTool('hostile__echo', { text: 'after' });
    expect(resultText(fine.result)).toBe('after');
  });

  it('a remote answer nested as deep, as a JSON body or an event, is an error for that call, named as from stdio', {
    timeout: 60_000,
  }, async () => {
    const server = await startOversizedServer();
    try {
      const host = await openFaultHost(hostConfig([httpServer('remote', server.url, { trust: 'trusted' })]));
      for (const tool of ['deep_json', 'deep_sse']) {
        const called = await host.callTool(`remote__${tool}`, {});
        expect(called.outcome, tool).toBe('error');
        expect(resultText(called.result), tool).toBe(REFUSED('remote'));
      }
      const fine = await host.callTool('remote__small', {});
      expect(resultText(fine.result)).toBe('small answer');
    } finally {
      await closeHosts();
      await server.close();
    }
  });
});
