/**
 * The one record of a connection's requests in flight (pending-requests.ts): each request's method while its answer
 * is awaited, and each call's name until its answer reaches the client, which tells whose call a server's request
 * came with. What lets a request go: its answer handed on, a cancellation, the abort of its stream, a failed send, the
 * connection's close.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { asCallOf } from '../../src/connections/call-being-made.js';
import { PendingRequests } from '../../src/connections/pending-requests.js';

const TURN = { name: 'a chat turn' };
const OTHER_TURN = { name: 'another chat turn' };

const request = (id: number, method: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, method, params: {} });
const cancelled = (requestId: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId },
});

/** `pending` with the call `id` sent in `name`. */
function sentAs(pending: PendingRequests, name: object, id: number, method = 'tools/call'): void {
  asCallOf(name, () => pending.sent(request(id, method)));
}

describe('the requests in flight on a connection', () => {
  it('knows the method of each request until its answer is read', () => {
    const pending = new PendingRequests();
    expect(pending.sent(request(1, 'tools/list'))).toBe(1);
    expect(pending.sent({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(pending.get(1)).toBe('tools/list');
    expect(pending.delete(1)).toBe(true);
    expect(pending.get(1)).toBeUndefined();
    // A second answer to it is awaited by nobody.
    expect(pending.delete(1)).toBe(false);
  });

  it('keeps no more of a method a server could not have chosen than its first 100 characters', () => {
    const pending = new PendingRequests();
    pending.sent(request(1, 'x'.repeat(10_000)));
    expect(pending.get(1)).toBe('x'.repeat(100));
  });

  it('tells the one name every call in flight was made in, and none for a request that is no call', () => {
    const pending = new PendingRequests();
    pending.sent(request(1, 'tools/list'));
    expect(pending.onlyCallName()).toBeUndefined();
    sentAs(pending, TURN, 2);
    sentAs(pending, TURN, 3, 'resources/read');
    expect(pending.onlyCallName()).toBe(TURN);
    expect(pending.callOf(2)).toBe(TURN);
    expect(pending.callOf(1)).toBeUndefined();
  });

  it('tells no name while calls of two names, or one made in none, are in flight', () => {
    const pending = new PendingRequests();
    sentAs(pending, TURN, 1);
    sentAs(pending, OTHER_TURN, 2);
    expect(pending.onlyCallName()).toBeUndefined();
    pending.handedOn(2);
    expect(pending.onlyCallName()).toBe(TURN);
    pending.sent(request(3, 'prompts/get'));
    expect(pending.callOf(3)).toBeUndefined();
    expect(pending.onlyCallName()).toBeUndefined();
  });

  it('keeps a call in flight after its answer is read until that answer is handed to the client', () => {
    const pending = new PendingRequests();
    sentAs(pending, TURN, 1);
    expect(pending.delete(1)).toBe(true);
    expect(pending.get(1)).toBeUndefined();
    expect(pending.onlyCallName()).toBe(TURN);
    pending.handedOn(1);
    expect(pending.onlyCallName()).toBeUndefined();
  });

  it('lets a call go once it is cancelled, its stream aborted or its sending failed', () => {
    const pending = new PendingRequests();
    sentAs(pending, TURN, 1);
    pending.sent(cancelled(1));
    expect(pending.get(1)).toBeUndefined();
    expect(pending.onlyCallName()).toBeUndefined();

    const stream = new AbortController();
    asCallOf(TURN, () => pending.sent(request(2, 'tools/call'), { requestSignal: stream.signal }));
    expect(pending.onlyCallName()).toBe(TURN);
    stream.abort();
    expect(pending.get(2)).toBeUndefined();
    expect(pending.onlyCallName()).toBeUndefined();

    sentAs(pending, TURN, 3);
    pending.unsent(3);
    expect(pending.get(3)).toBeUndefined();
    expect(pending.onlyCallName()).toBeUndefined();
  });

  it('has no call in flight once the connection is closing, and still screens answers until it has closed', () => {
    const pending = new PendingRequests();
    sentAs(pending, TURN, 1);
    pending.endCalls();
    expect(pending.onlyCallName()).toBeUndefined();
    expect(pending.get(1)).toBe('tools/call');
    pending.clear();
    expect(pending.get(1)).toBeUndefined();
  });
});
