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
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, type FetchLike, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAsksWhenToldOverHttp } from '../helpers/asks-when-told-over-http.js';
import { type GatewayProcess, startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { fixtureServer, temporaryDirectory, writeConfig } from '../helpers/project.js';

const TOKEN = 'a-no-standing-stream-test-token';

function textOf(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((part) => part.text ?? '').join('');
}

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
    let gateway: GatewayProcess | undefined;
    let stopUpstream: (() => Promise<void>) | undefined;
    let eventLog = '';
    const refusedGets: string[] = [];
    /** The prompts of the sampling requests and the messages of the elicitations the client was asked. */
    const asked: string[] = [];
    /** The data of the log messages it received. */
    const logs: unknown[] = [];
    const client = new Client(
      { name: 'no-standing-stream', version: '1.0.0' },
      { capabilities: { sampling: {}, elicitation: { form: {} } } },
    );
    client.setRequestHandler('sampling/createMessage', async (request) => {
      const first = request.params.messages[0]?.content;
      const prompt = first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '?';
      asked.push(prompt);
      return { model: 'the-client-model', role: 'assistant', content: { type: 'text', text: `you asked "${prompt}"` } };
    });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      // The gateway's own approval question has a decision to make; a server's form has an answer to give.
      const content: Record<string, string> = request.params.message.startsWith('mcp-host: allow a call')
        ? { decision: 'allow-once' }
        : { answer: 'from the client' };
      return { action: 'accept', content };
    });
    client.setNotificationHandler('notifications/message', (notification) => {
      logs.push(notification.params.data);
    });

    beforeAll(async () => {
      const stateDir = await temporaryDirectory('mcp-host-no-standing-stream-');
      eventLog = join(stateDir, 'events.log');
      let server: Record<string, unknown>;
      if (upstream === 'stdio') {
        server = {
          command: process.execPath,
          args: [fixtureServer('asks-when-told.mjs')],
          env: { EVENT_LOG: eventLog },
        };
      } else {
        const started = await startAsksWhenToldOverHttp(eventLog);
        stopUpstream = started.stop;
        server = { url: started.url };
      }
      const config = await writeConfig({
        mcpServers: { asks: { ...server, trust: 'trusted' } },
        // `open` is asked about, so that the gateway's own approval question is put to the client too.
        permissions: { allow: ['asks__*'], ask: ['asks__open'] },
        gateway: { approvalTimeoutMs: 20_000 },
      });
      gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir], {
        MCP_HOST_GATEWAY_TOKEN: TOKEN,
      });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(gateway.url), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
          fetch: fetchWithoutStandingStream(refusedGets),
        }),
      );
    }, 90_000);

    afterAll(async () => {
      await client.close().catch(() => undefined);
      await gateway?.stop();
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

    const waiting = (gate: string) =>
      waitUntil(
        async () => (await readFile(eventLog, 'utf8').catch(() => '')).includes(`waiting ${gate}\n`),
        `the server to wait for ${gate}`,
      );

    /** Runs `work` while calls to `wait` on each of `gates` are in flight; opens them after, also when `work` fails. */
    async function whileHeld(gates: string[], work: () => Promise<void>): Promise<void> {
      const held = gates.map((gate) => client.callTool({ name: 'asks__wait', arguments: { gate } }));
      try {
        for (const gate of gates) await waiting(gate);
        await work();
      } finally {
        for (const gate of gates) await client.callTool({ name: 'asks__open', arguments: { gate } });
      }
      for (const call of held) expect(textOf(await call)).toBe('opened');
    }

    it('is asked a sampling request not known to be any one of its several calls in flight', async () => {
      asked.length = 0;
      await whileHeld(['held-while-sampling'], async () => {
        // Sent outside the call that asks (over stdio nothing tells anyway), while the held call is in flight too.
        const sampled = client.callTool({
          name: 'asks__ask_model',
          arguments: { prompt: 'which call is this?', aside: true, after: 'sample' },
        });
        await waiting('sample');
        await client.callTool({ name: 'asks__open', arguments: { gate: 'sample' } });
        expect(textOf(await sampled)).toBe('model the-client-model said: you asked "which call is this?"');
      });
      expect(asked).toContain('which call is this?');
    }, 60_000);

    it('hears once a log message not known to be any one of its several calls in flight', async () => {
      logs.length = 0;
      // Two calls held: should the message reach the gateway after the call that logs it is answered, two remain.
      await whileHeld(['first-held', 'second-held'], async () => {
        await client.callTool({ name: 'asks__log_aside', arguments: { message: 'while two calls wait' } });
        await waitUntil(() => logs.includes('while two calls wait'), 'the log message to reach the client');
      });
      expect(logs).toEqual(['while two calls wait']);
    }, 60_000);
  },
);
