/**
 * A message held behind a progress notification is handed on in the asynchronous context it was read in, as one
 * handed on at once is: over Streamable HTTP that context says which call's stream a server's request came on, and
 * the turn that hands held messages on was scheduled by another read.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { expect, it } from 'vitest';
import { ProgressHandOn } from '../../src/connections/progress-hand-on.js';
import { waitUntil } from '../helpers/wait-until.js';

const stream = new AsyncLocalStorage<string>();

it('hands a held request on in the context of the stream it was read from', async () => {
  const delivered: Array<{ method: string; stream: string | undefined }> = [];
  const handOn = new ProgressHandOn((message) => {
    delivered.push({ method: 'method' in message ? message.method : 'answer', stream: stream.getStore() });
  });
  const progress: JSONRPCMessage = {
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: 1, progress: 1 },
  };
  const request: JSONRPCMessage = {
    jsonrpc: '2.0',
    id: 7,
    method: 'sampling/createMessage',
    params: { messages: [], maxTokens: 1 },
  };
  // The progress notification is handed on at once and holds what follows until the client has handled it.
  stream.run('stream of call 1', () => handOn.handOn(progress));
  stream.run('stream of call 2', () => handOn.handOn(request));
  await waitUntil(() => delivered.length === 2, 'the held request to be handed on');
  expect(delivered).toEqual([
    { method: 'notifications/progress', stream: 'stream of call 1' },
    { method: 'sampling/createMessage', stream: 'stream of call 2' },
  ]);
});
