/**
 * A client of the HTTP gateway whose standing GET stream was open and dropped: what the server sends while the client
 * has several calls to it in flight, and that is not known to be any one of them's, goes on the standing stream, kept
 * in the session's event store, and reaches the client when it resumes that stream with `Last-Event-ID`, never on one
 * of its calls' streams (a client that is itself a gateway would put it to that call's user). The official v2 SDK
 * client, its reconnections run when the test says and its GET streams dropped by the test, in front of the built CLI
 * and a real fixture server over stdio that samples and logs outside any call.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/gateway-process.js';
import { textOf } from '../helpers/text-of.js';
import { AsksWhenToldBehindGateway } from './asks-when-told-behind-gateway.js';

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
  const standingStreams: StandingStream[] = [];
  /** What the responses to the client's POSTs (its calls' streams) carried. */
  let callStreams = '';
  let reconnect: (() => void) | undefined;
  const asks = new AsksWhenToldBehindGateway('dropped-standing-stream', { sampling: {} });
  const { client, asked, logs } = asks;

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

  beforeAll(async () => {
    await asks.makeStateDir('mcp-host-dropped-standing-stream-');
    await asks.start({
      server: asks.stdioServer(),
      permissions: { allow: ['asks__*'] },
      transport: {
        fetch: recordingFetch,
        reconnectionScheduler: (run) => {
          reconnect = run;
        },
      },
    });
    await waitUntil(() => newestStream() !== undefined, 'the client to open its standing stream');
  }, 90_000);

  afterAll(() => asks.stop());

  it('hears on its open standing stream a log message not known to be any one of its calls', async () => {
    // This also gives the client an event to resume after.
    await asks.whileHeld(['first-held', 'second-held'], async () => {
      await client.callTool({ name: 'asks__log_aside', arguments: { message: 'while the stream is open' } });
      await waitUntil(() => logs.includes('while the stream is open'), 'the log message to reach the client');
    });
    expect(newestStream()?.text).toContain('while the stream is open');
    expect(callStreams).not.toContain('while the stream is open');
  }, 60_000);

  it('hears such a log message sent while its stream was dropped once it resumes, not on a call’s stream', async () => {
    await drop();
    await asks.whileHeld(['held-while-dropped', 'also-held-while-dropped'], async () => {
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
    await asks.whileHeld(['held-while-sampling'], async () => {
      // Sent outside the call that asks, while the held call is in flight too.
      const sampled = await asks.askModelAside('which call is this?');
      const resumed = await resume();
      expect(textOf(await sampled.answer)).toBe('model the-client-model said: you asked "which call is this?"');
      expect(resumed.text).toContain('sampling/createMessage');
    });
    expect(asked).toEqual(['which call is this?']);
    expect(callStreams).not.toContain('sampling/createMessage');
  }, 60_000);
});
