/**
 * Which error answers are known to be the server's answers to the host's calls: those to a `tools/call` in flight,
 * told by the one wrapper that follows the requests whose answers it renames (keep-prototype-keys.ts). An answer to
 * another request, or to a call given up on or never sent, vouches for nothing.
 */
import { type JSONRPCMessage, ProtocolError, type Transport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { HostWrittenAnswers } from '../../src/connections/host-written-answers.js';
import { keepPrototypeKeysOfAnswers } from '../../src/connections/keep-prototype-keys.js';
import { RenamedAnswers } from '../../src/connections/renamed-answers.js';
import { ServerErrorAnswers } from '../../src/connections/server-error-answers.js';

const CODE = -32_001;
const WORDS = 'the server says no';

/** A transport that takes every send but those of the ids in `failing`, with the wrapper and the record on it. */
function wrapped(failing: ReadonlySet<number> = new Set()) {
  const received: JSONRPCMessage[] = [];
  const transport: Transport = {
    start: async () => undefined,
    close: async () => undefined,
    send: async (message) => {
      if ('id' in message && failing.has(message.id as number)) throw new Error('the pipe broke');
    },
    onmessage: (message) => void received.push(message),
  };
  const errorAnswers = new ServerErrorAnswers(new HostWrittenAnswers());
  keepPrototypeKeysOfAnswers(transport, new RenamedAnswers(), errorAnswers);
  const answerWithError = (id: number) =>
    transport.onmessage?.({ jsonrpc: '2.0', id, error: { code: CODE, message: WORDS } });
  return { transport, errorAnswers, answerWithError, received };
}

const request = (id: number, method: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, method, params: {} });

describe("the server's error answers to the host's calls", () => {
  it("knows an error answer to a call in flight as the server's, once", async () => {
    const { transport, errorAnswers, answerWithError, received } = wrapped();
    await transport.send(request(1, 'tools/call'));
    answerWithError(1);
    expect(received).toHaveLength(1);
    expect(errorAnswers.take(new ProtocolError(CODE, WORDS))).toEqual({ by: 'server' });
    expect(errorAnswers.take(new ProtocolError(CODE, WORDS))).toBeUndefined();
  });

  it('vouches for nothing with an answer to another request, or a second answer to a call', async () => {
    const { transport, errorAnswers, answerWithError } = wrapped();
    await transport.send(request(1, 'tools/list'));
    answerWithError(1);
    await transport.send(request(2, 'tools/call'));
    answerWithError(2);
    answerWithError(2);
    expect(errorAnswers.take(new ProtocolError(CODE, WORDS))).toEqual({ by: 'server' });
    expect(errorAnswers.take(new ProtocolError(CODE, WORDS))).toBeUndefined();
  });

  it('vouches for nothing with an answer to a call cancelled, its stream aborted, or never sent', async () => {
    const { transport, errorAnswers, answerWithError } = wrapped(new Set([3]));
    await transport.send(request(1, 'tools/call'));
    await transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    answerWithError(1);
    const stream = new AbortController();
    await transport.send(request(2, 'tools/call'), { requestSignal: stream.signal });
    stream.abort();
    answerWithError(2);
    await expect(transport.send(request(3, 'tools/call'))).rejects.toThrow('the pipe broke');
    answerWithError(3);
    expect(errorAnswers.take(new ProtocolError(CODE, WORDS))).toBeUndefined();
  });
});
