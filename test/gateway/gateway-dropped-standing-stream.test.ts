/**
 * A client of the HTTP gateway whose standing GET stream was open and dropped: what the server sends while the client
 * has several calls to it in flight, and that is not known to be any one of them's, goes on the standing stream, kept
 * in the session's event store, and reaches the client when it resumes that stream with `Last-Event-ID`, never on one
 * of its calls' streams (a client that is itself a gateway would put it to that call's user). The official v2 SDK
 * client, its reconnections run when the test says and its GET streams dropped by the test, in front of the built CLI
 * and a real fixture server over stdio that samples and logs outside any call.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, type FetchLike, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayProcess, startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { fixtureServer, temporaryDirectory, writeConfig } from '../helpers/project.js';

const TOKEN = 'a-dropped-standing-stream-test-token';

function textOf(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((part) => part.text ?? '').join('');
}

/** A GET the client sent: the event it resumed after, if any, and what its response stream carried. */
interface StandingStream {
  lastEventId: string | null;
  status: number;
  text: string;
  drop(): void;
}

/** Returns `response` as it is, its body read also into `received`. */
function readingAlong(response: Response, received: (text: string) => void): Response {
  if (response.body === null) return response;
  const [mine, theirs] = response.body.tee();
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of mine) received(decoder.decode(chunk, { stream: true }));
    } catch {
      // Dropped by the test.
    }
  })();
  return new Response(theirs, { status: response.status, statusText: response.statusText, headers: response.headers });
}

describe('an HTTP gateway client whose standing stream dropped', () => {
  let gateway: GatewayProcess | undefined;
  let eventLog = '';
  const standingStreams: StandingStream[] = [];
  /** What the responses to the client's POSTs (its calls' streams) carried. */
  let callStreams = '';
  let reconnect: (() => void) | undefined;
  /** The prompts of the sampling requests the client was asked. */
  const asked: string[] = [];
  /** The data of the log messages it received. */
  const logs: unknown[] = [];

  const recordingFetch: FetchLike = async (url, init) => {
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET') {
      return readingAlong(await fetch(url, init), (text) => {
        callStreams += text;
      });
    }
    const dropper = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, dropper.signal]) : dropper.signal;
    const response = await fetch(url, { ...init, signal });
    const stream: StandingStream = {
      lastEventId: new Headers(init?.headers).get('last-event-id'),
      status: response.status,
      text: '',
      drop: () => dropper.abort(),
    };
    standingStreams.push(stream);
    return readingAlong(response, (text) => {
      stream.text += text;
    });
  };

  const client = new Client({ name: 'dropped-standing-stream', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler('sampling/createMessage', async (request) => {
    const first = request.params.messages[0]?.content;
    const prompt = first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '?';
    asked.push(prompt);
    return { model: 'the-client-model', role: 'assistant', content: { type: 'text', text: `you asked "${prompt}"` } };
  });
  client.setNotificationHandler('notifications/message', (notification) => {
    logs.push(notification.params.data);
  });

  const newestStream = () => standingStreams[standingStreams.length - 1];

  /** Drops the open standing stream; the client's reconnection waits until `resume`. */
  async function drop(): Promise<void> {
    const open = newestStream();
    expect(open?.status).toBe(200);
    reconnect = undefined;
    open!.drop();
    await waitUntil(() => reconnect !== undefined, 'the client to plan its reconnection');
  }

  /** Lets the client reconnect, and waits for the gateway to answer it. */
  async function resume(): Promise<StandingStream> {
    const before = standingStreams.length;
    reconnect!();
    await waitUntil(() => standingStreams.length > before, 'the client to resume its standing stream');
    const resumed = newestStream()!;
    expect(resumed.status).toBe(200);
    expect(resumed.lastEventId).not.toBeNull();
    return resumed;
  }

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

  beforeAll(async () => {
    const stateDir = await temporaryDirectory('mcp-host-dropped-standing-stream-');
    eventLog = join(stateDir, 'events.log');
    const config = await writeConfig({
      mcpServers: {
        asks: {
          command: process.execPath,
          args: [fixtureServer('asks-when-told.mjs')],
          env: { EVENT_LOG: eventLog },
          trust: 'trusted',
        },
      },
      permissions: { allow: ['asks__*'] },
      gateway: { approvalTimeoutMs: 20_000 },
    });
    gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir], {
      MCP_HOST_GATEWAY_TOKEN: TOKEN,
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        fetch: recordingFetch,
        reconnectionScheduler: (run) => {
          reconnect = run;
        },
      }),
    );
    await waitUntil(() => newestStream() !== undefined, 'the client to open its standing stream');
  }, 90_000);

  afterAll(async () => {
    await client.close().catch(() => undefined);
    await gateway?.stop();
  });

  it('hears on its open standing stream a log message not known to be any one of its calls', async () => {
    // This also gives the client an event to resume after.
    await whileHeld(['first-held', 'second-held'], async () => {
      await client.callTool({ name: 'asks__log_aside', arguments: { message: 'while the stream is open' } });
      await waitUntil(() => logs.includes('while the stream is open'), 'the log message to reach the client');
    });
    expect(newestStream()?.text).toContain('while the stream is open');
    expect(callStreams).not.toContain('while the stream is open');
  }, 60_000);

  it('hears such a log message sent while its stream was dropped once it resumes, not on a call’s stream', async () => {
    await drop();
    await whileHeld(['held-while-dropped', 'also-held-while-dropped'], async () => {
      await client.callTool({ name: 'asks__log_aside', arguments: { message: 'while the stream is dropped' } });
    });
    // Every call answered, with nothing open but their streams: the message did not come on any of them.
    expect(logs).not.toContain('while the stream is dropped');
    expect(callStreams).not.toContain('while the stream is dropped');

    const resumed = await resume();
    await waitUntil(() => logs.includes('while the stream is dropped'), 'the kept log message to be replayed');
    expect(resumed.text).toContain('while the stream is dropped');
    expect(logs.filter((data) => data === 'while the stream is dropped')).toHaveLength(1);
  }, 60_000);

  it('is asked a sampling request not known to be any one of its calls on its resumed standing stream', async () => {
    await drop();
    await whileHeld(['held-while-sampling'], async () => {
      // Sent outside the call that asks, while the held call is in flight too.
      const sampled = client.callTool({
        name: 'asks__ask_model',
        arguments: { prompt: 'which call is this?', aside: true, after: 'sample' },
      });
      await waiting('sample');
      await client.callTool({ name: 'asks__open', arguments: { gate: 'sample' } });
      const resumed = await resume();
      expect(textOf(await sampled)).toBe('model the-client-model said: you asked "which call is this?"');
      expect(resumed.text).toContain('sampling/createMessage');
    });
    expect(asked).toEqual(['which call is this?']);
    expect(callStreams).not.toContain('sampling/createMessage');
  }, 60_000);
});
