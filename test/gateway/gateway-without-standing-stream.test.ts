/**
 * A client of the HTTP gateway that never opens the standing GET stream, as the Streamable HTTP transport allows
 * (many clients read only their POSTs' responses): what belongs to one of its calls reaches it on that call's own
 * response stream, before the result. The official v2 SDK client, its GETs answered 405 before they leave it, in front
 * of the built CLI, and a real fixture server behind it over stdio and over Streamable HTTP that samples, elicits and
 * logs during a call. The gateway waits for a forwarded request as long as `gateway.approvalTimeoutMs`: one put on a
 * stream the client never opened would fail the call only after that time, saying it timed out. What the server sends
 * while the client has several calls to it in flight, and that is not known to be any one of them's, reaches the
 * client on one of its calls' streams too.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAsksWhenToldOverHttp } from '../helpers/asks-when-told-over-http.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { textOf } from '../helpers/text-of.js';
import { AsksWhenToldBehindGateway } from './asks-when-told-behind-gateway.js';

/** A fetch that sends everything but GETs, which it answers 405 itself, as a server without the stream would. */
function fetchWithoutStandingStream(refusedGets: string[]): FetchLike {
  return async (url, init) => {
    if ((init?.method ?? 'GET').toUpperCase() === 'GET') {
      refusedGets.push(String(url));
      return new Response(null, { status: 405 });
    }
    return fetch(url, init);
  };
}

describe.each(['stdio', 'Streamable HTTP'] as const)(
  'an HTTP gateway client without a standing stream, and a server over %s',
  (upstream) => {
    let stopUpstream: (() => Promise<void>) | undefined;
    const refusedGets: string[] = [];
    const asks = new AsksWhenToldBehindGateway('no-standing-stream', { sampling: {}, elicitation: { form: {} } });
    const { client, asked, logs } = asks;
    // `asked` keeps the messages of the elicitations the client was asked too.
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      // The gateway's own approval question has a decision to make; a server's form has an answer to give.
      const content: Record<string, string> = request.params.message.startsWith('mcp-host: allow a call')
        ? { decision: 'allow-once' }
        : { answer: 'from the client' };
      return { action: 'accept', content };
    });

    beforeAll(async () => {
      await asks.makeStateDir('mcp-host-no-standing-stream-');
      let server: Record<string, unknown>;
      if (upstream === 'stdio') {
        server = asks.stdioServer();
      } else {
        const started = await startAsksWhenToldOverHttp(asks.eventLog);
        stopUpstream = started.stop;
        server = { url: started.url };
      }
      await asks.start({
        server,
        // `open` is asked about, so that the gateway's own approval question is put to the client too.
        permissions: { allow: ['asks__*'], ask: ['asks__open'] },
        transport: { fetch: fetchWithoutStandingStream(refusedGets) },
      });
    }, 90_000);

    afterAll(async () => {
      await asks.stop();
      await stopUpstream?.();
    });

    it('is asked for sampling during its call, and the call gets the answer', async () => {
      const result = await client.callTool({ name: 'asks__ask_model', arguments: { prompt: 'what is two plus two' } });
      expect(textOf(result)).toBe('model the-client-model said: you asked "what is two plus two"');
      expect(asked).toEqual(['what is two plus two']);
      // The client did try to open the standing stream, and never had one.
      expect(refusedGets.length).toBeGreaterThan(0);
    }, 60_000);

    it('is asked a server’s elicitation during its call', async () => {
      asked.length = 0;
      const result = await client.callTool({ name: 'asks__ask_user', arguments: { question: 'your name?' } });
      expect(JSON.parse(textOf(result))).toEqual({ action: 'accept', content: { answer: 'from the client' } });
      expect(asked).toEqual(['Server "asks" asks: your name?']);
    }, 60_000);

    it('is asked the gateway’s own approval question for its call', async () => {
      asked.length = 0;
      const result = await client.callTool({ name: 'asks__open', arguments: { gate: 'unused' } });
      expect(textOf(result)).toBe('open');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('mcp-host: allow a call to open on server "asks"');
    }, 60_000);

    it('hears a log message of its call before the call’s result', async () => {
      await client.callTool({ name: 'asks__log', arguments: { message: 'during the call' } });
      expect(logs).toEqual(['during the call']);
    }, 60_000);

    it('is asked a sampling request not known to be any one of its several calls in flight', async () => {
      asked.length = 0;
      await asks.whileHeld(['held-while-sampling'], async () => {
        // Sent outside the call that asks (over stdio nothing tells anyway), while the held call is in flight too.
        const sampled = await asks.askModelAside('which call is this?');
        expect(textOf(await sampled.answer)).toBe('model the-client-model said: you asked "which call is this?"');
      });
      expect(asked).toContain('which call is this?');
    }, 60_000);

    it('hears once a log message not known to be any one of its several calls in flight', async () => {
      logs.length = 0;
      // Two calls held: should the message reach the gateway after the call that logs it is answered, two remain.
      await asks.whileHeld(['first-held', 'second-held'], async () => {
        await client.callTool({ name: 'asks__log_aside', arguments: { message: 'while two calls wait' } });
        await waitUntil(() => logs.includes('while two calls wait'), 'the log message to reach the client');
      });
      expect(logs).toEqual(['while two calls wait']);
    }, 60_000);
  },
);
