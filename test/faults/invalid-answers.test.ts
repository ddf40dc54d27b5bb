/**
 * A real stdio server answers a call with JSON that claims JSON-RPC 2.0 and names the call's id but is not a valid
 * answer (an error whose code is a string, neither a result nor an error, a result that is a number…): the call fails
 * at once, in the host's words naming what was wrong, instead of waiting for its timeout; the connection goes on. The
 * same message for an id nobody waits for is told in a diagnostic and ignored, and a line that is not JSON at all stays
 * stdout noise. From a remote server too, as a JSON body or an event of the call's own stream, or an event of the
 * standing GET stream or of the legacy HTTP+SSE stream, where one for an id nobody waits for is told in the same words.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../src/host/create-host.js';
import { type OversizedServer, startOversizedServer } from '../fixtures/faults/oversized-http-server.js';
import { hostConfig, httpServer, stdioServer } from '../helpers/configs.js';
import { startLegacySseServer } from '../helpers/legacy-sse-server.js';
import { fixtureServer } from '../helpers/project.js';
import { closeHosts, openFaultHost, resultText, waitUntil } from './fault-helpers.js';

afterEach(closeHosts);

/** Long enough that a call left to wait for it would outlast the test's own timeout. */
const CALL_TIMEOUT_MS = 60_000;

async function openToldHost(diagnostics: string[] = []) {
  return openFaultHost(
    hostConfig(
      [stdioServer('told', [fixtureServer('answers-as-told.mjs')], { trust: 'trusted', timeoutMs: CALL_TIMEOUT_MS })],
      { permissions: { allow: ['told__*'], ask: [], deny: [] } },
    ),
    { onDiagnostic: (message) => diagnostics.push(message) },
  );
}

const REFUSED = (why: string, server = 'told') =>
  `The tool call failed: server "${server}" answered tools/call with a message that is not valid JSON-RPC: ${why}; the host refused it`;

describe('an answer to a call that is not valid JSON-RPC', () => {
  it('fails that call at once, naming what was wrong, and the next call works', { timeout: 30_000 }, async () => {
    const diagnostics: string[] = [];
    const host = await openToldHost(diagnostics);
    const shapes: [line: string, why: string][] = [
      [
        '{"jsonrpc":"2.0","id":"$ID","error":{"code":"oops","message":"bad"}}',
        "the error's code is a string, not a number",
      ],
      ['{"jsonrpc":"2.0","id":"$ID","error":{"code":1.5,"message":"bad"}}', "the error's code is not an integer"],
      ['{"jsonrpc":"2.0","id":"$ID","error":{"code":-1}}', "the error's message is missing, not a string"],
      ['{"jsonrpc":"2.0","id":"$ID","error":"bad"}', 'its error is a string, not an object'],
      ['{"jsonrpc":"2.0","id":"$ID"}', 'it has neither a result nor an error'],
      ['{"jsonrpc":"2.0","id":"$ID","result":5}', 'its result is a number, not an object'],
      [
        '{"jsonrpc":"2.0","id":"$ID","result":{},"error":{"code":1,"message":"m"}}',
        'it has both a result and an error',
      ],
      ['{"jsonrpc":"2.0","id":"$ID","result":{"_meta":[]}}', "its result's _meta is an array, not an object"],
      [
        '{"jsonrpc":"2.0","id":"$ID","result":{"content":[]},"\\u202eextra\\u0007":1}',
        'it has a member JSON-RPC does not define, "\\u202eextra\\u0007"',
      ],
    ];
    for (const [line, why] of shapes) {
      const called = await host.callTool('told__raw', { lines: [line] });
      expect(called.outcome, line).toBe('error');
      expect(resultText(called.result), line).toBe(REFUSED(why));
    }
    const after = await host.callTool('told__plain', { result: { content: [{ type: 'text', text: 'still works' }] } });
    expect(after.outcome).toBe('ok');
    expect(resultText(after.result)).toBe('still works');

    const refusals = diagnostics.filter((line) => line.includes('not valid JSON-RPC'));
    expect(refusals).toHaveLength(shapes.length);
    // The offending line is quoted, its invisible characters escaped.
    expect(refusals.at(-1)).toContain('\\u202eextra');
    for (const line of refusals) {
      expect(line).not.toContain('\u202e');
      expect(line).not.toContain('\u0007');
    }
  });

  it('quotes a long offending line only in part', { timeout: 30_000 }, async () => {
    const diagnostics: string[] = [];
    const host = await openToldHost(diagnostics);
    const long = `{"jsonrpc":"2.0","id":"$ID","error":{"code":"${'x'.repeat(100_000)}","message":"m"}}`;
    const called = await host.callTool('told__raw', { lines: [long] });
    expect(resultText(called.result)).toBe(REFUSED("the error's code is a string, not a number"));
    const [refusal] = diagnostics.filter((line) => line.includes('not valid JSON-RPC'));
    expect(refusal!.length).toBeLessThan(600);
  });

  it('changes nothing when it names an id nobody waits for', { timeout: 30_000 }, async () => {
    const diagnostics: string[] = [];
    const host = await openToldHost(diagnostics);
    const stray = '{"jsonrpc":"2.0","id":987654,"error":{"code":"oops","message":"bad"}}';
    const called = await host.callTool('told__raw', {
      lines: [stray, 'not JSON at all'],
      result: { content: [{ type: 'text', text: 'answered' }] },
    });
    expect(called.outcome).toBe('ok');
    expect(resultText(called.result)).toBe('answered');
    // The stray is told as from a remote server; the rest is the stdout noise it is.
    expect(diagnostics.filter((line) => line.includes('987654'))).toEqual([STRAY_TOLD('told')]);
    expect(diagnostics.filter((line) => line.includes('not JSON at all'))).toHaveLength(1);
  });
});

/** Answers to a remote call that are not valid JSON-RPC, and what makes each so. */
const SHAPES: [answer: string, why: string][] = [
  [
    '{"jsonrpc":"2.0","id":"$ID","error":{"code":"oops","message":"bad"}}',
    "the error's code is a string, not a number",
  ],
  ['{"jsonrpc":"2.0","id":"$ID"}', 'it has neither a result nor an error'],
  ['{"jsonrpc":"2.0","id":"$ID","result":5}', 'its result is a number, not an object'],
  // A "method" anywhere but at the top does not make it a notification, which would go unread.
  [
    '{"jsonrpc":"2.0","id":"$ID","result":{"method":"x"},"error":{"code":1,"message":"method"}}',
    'it has both a result and an error',
  ],
];
const STRAY = '{"jsonrpc":"2.0","id":987654,"error":{"code":"oops","message":"bad"}}';
const ANSWERED = '{"jsonrpc":"2.0","id":"$ID","result":{"content":[{"type":"text","text":"answered"}]}}';
const STRAY_TOLD = (server: string) =>
  `server "${server}" sent an answer to request 987654, which nobody waits for, that is not valid JSON-RPC (the error's code is a string, not a number); ignored`;

/** An answer that is not valid JSON-RPC to the call before the one that sends it. */
const INVALID_FOR_PREVIOUS = '{"jsonrpc":"2.0","id":"$PREVIOUS_ID","error":{"code":"oops","message":"bad"}}';

/**
 * Runs `test` with a host on the oversized HTTP server (`standingStream`: offering a standing GET stream), trusted,
 * with calls timing out after `timeoutMs`, and the diagnostics it gave; both are stopped however the test ends.
 */
async function withRemoteHost(
  options: { standingStream?: boolean; timeoutMs?: number },
  test: (host: Host, server: OversizedServer, diagnostics: string[]) => Promise<void>,
): Promise<void> {
  const server = await startOversizedServer({ standingStream: options.standingStream ?? false });
  try {
    const diagnostics: string[] = [];
    const host = await openFaultHost(
      hostConfig([
        httpServer('remote', server.url, { trust: 'trusted', timeoutMs: options.timeoutMs ?? CALL_TIMEOUT_MS }),
      ]),
      { onDiagnostic: (message) => diagnostics.push(message) },
    );
    await test(host, server, diagnostics);
  } finally {
    await closeHosts();
    await server.close();
  }
}

describe('an answer from a remote server that is not valid JSON-RPC', () => {
  it('fails that call at once as a JSON body or an event, and the next call works', { timeout: 30_000 }, async () => {
    await withRemoteHost({}, async (host) => {
      for (const [answer, why] of SHAPES) {
        const asBody = await host.callTool('remote__raw_json', { body: answer });
        expect(resultText(asBody.result), answer).toBe(REFUSED(why, 'remote'));
        const asEvent = await host.callTool('remote__raw_sse', { events: [answer] });
        expect(resultText(asEvent.result), answer).toBe(REFUSED(why, 'remote'));
      }
      // One for an id nobody waits for goes on as it is, and the answer after it is taken.
      const stray = await host.callTool('remote__raw_sse', { events: [STRAY, ANSWERED] });
      expect(stray.outcome).toBe('ok');
      expect(resultText(stray.result)).toBe('answered');
      const fine = await host.callTool('remote__small', {});
      expect(resultText(fine.result)).toBe('small answer');
    });
  });

  it('fails that call at once as an event of the standing GET stream; one for an id nobody waits for is told', {
    timeout: 30_000,
  }, async () => {
    await withRemoteHost({ standingStream: true }, async (host, _server, diagnostics) => {
      for (const [answer, why] of SHAPES) {
        const called = await host.callTool('remote__raw_standing', { events: [answer] });
        expect(resultText(called.result), answer).toBe(REFUSED(why, 'remote'));
      }
      const stray = await host.callTool('remote__raw_standing', { events: [STRAY, ANSWERED] });
      expect(resultText(stray.result)).toBe('answered');
      expect(diagnostics.filter((line) => line.includes('nobody waits for'))).toEqual([STRAY_TOLD('remote')]);
    });
  });

  it("fails at once a call another call's stream or body answers with a message that is not valid JSON-RPC", {
    timeout: 30_000,
  }, async () => {
    await withRemoteHost({}, async (host, server) => {
      // The first call's stream ends with no answer: it waits, and the next call's stream or body answers it.
      for (const answeredBy of ['stream', 'body'] as const) {
        const calls = server.toolCalls();
        const waiting = host.callTool('remote__raw_sse', { events: [] });
        await waitUntil(() => server.toolCalls() > calls, 'the first call to reach the server');
        const next =
          answeredBy === 'stream'
            ? await host.callTool('remote__raw_sse', { events: [INVALID_FOR_PREVIOUS, ANSWERED] })
            : await host.callTool('remote__raw_json', { body: `[${INVALID_FOR_PREVIOUS},${ANSWERED}]` });
        expect(resultText(next.result), answeredBy).toBe('answered');
        expect(resultText((await waiting).result), answeredBy).toBe(
          REFUSED("the error's code is a string, not a number", 'remote'),
        );
      }
    });
  });

  it('takes an answer for a call that timed out, given up on, for one nobody waits for', {
    timeout: 30_000,
  }, async () => {
    // Long enough for the call that is answered, on a busy machine too.
    await withRemoteHost({ standingStream: true, timeoutMs: 3_000 }, async (host, _server, diagnostics) => {
      const unanswered = await host.callTool('remote__raw_standing', { events: [] });
      expect(unanswered.outcome).toBe('timeout');
      const next = await host.callTool('remote__raw_standing', { events: [INVALID_FOR_PREVIOUS, ANSWERED] });
      expect(resultText(next.result)).toBe('answered');
      expect(diagnostics.filter((line) => line.includes('nobody waits for'))).toEqual([
        expect.stringMatching(
          /^server "remote" sent an answer to request \d+, which nobody waits for, that is not valid/,
        ),
      ]);
    });
  });

  it('fails that call at once over the legacy HTTP+SSE transport; one for an id nobody waits for is told', {
    timeout: 30_000,
  }, async () => {
    const server = await startLegacySseServer(['--raw-answers']);
    try {
      const diagnostics: string[] = [];
      const host = await openFaultHost(
        hostConfig([
          httpServer('legacy', server.url, { transport: 'sse', trust: 'trusted', timeoutMs: CALL_TIMEOUT_MS }),
        ]),
        { onDiagnostic: (message) => diagnostics.push(message) },
      );
      for (const [answer, why] of SHAPES) {
        const called = await host.callTool('legacy__raw_answer', { events: [answer] });
        expect(resultText(called.result), answer).toBe(REFUSED(why, 'legacy'));
      }
      const stray = await host.callTool('legacy__raw_answer', { events: [STRAY, ANSWERED] });
      expect(resultText(stray.result)).toBe('answered');
      expect(diagnostics.filter((line) => line.includes('nobody waits for'))).toEqual([STRAY_TOLD('legacy')]);
      const fine = await host.callTool('legacy__add_numbers', { a: 5, b: 7 });
      expect(resultText(fine.result)).toBe('12');
    } finally {
      await closeHosts();
      await server.stop();
    }
  });
});
