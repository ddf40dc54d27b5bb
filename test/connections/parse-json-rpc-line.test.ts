/**
 * A stdio server's line → a JSON-RPC message. Plain results and plain notifications are recognised without the
 * SDK's schema union (the answer to every call takes this path); everything the shortcut recognises must be exactly
 * what the SDK accepts, and everything else must still be judged by the SDK.
 */
import { deserializeMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { parseJsonRpcLine } from '../../src/connections/parse-json-rpc-line.js';

/** What the SDK alone makes of a line: the message, or undefined when it refuses it. */
function sdkVerdict(line: string): unknown {
  try {
    return deserializeMessage(line);
  } catch {
    return undefined;
  }
}

const LINES = [
  // Plain results: the shortcut.
  { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } },
  { jsonrpc: '2.0', id: 'a-7', result: {} },
  { jsonrpc: '2.0', id: 0, result: { tools: [], nextCursor: 'x' } },
  // Look like results but are not plain: the SDK decides.
  { jsonrpc: '2.0', id: 1.5, result: {} },
  { jsonrpc: '2.0', id: 2 ** 60, result: {} },
  { jsonrpc: '2.0', id: null, result: {} },
  { jsonrpc: '2.0', id: true, result: {} },
  { jsonrpc: '2.0', result: {} },
  { jsonrpc: '1.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 1, result: [] },
  { jsonrpc: '2.0', id: 1, result: 'text' },
  { jsonrpc: '2.0', id: 1, result: null },
  { jsonrpc: '2.0', id: 1, result: {}, extra: true },
  { jsonrpc: '2.0', id: 1, result: { _meta: { note: 'kept' } } },
  { jsonrpc: '2.0', id: 1, result: { _meta: 'not an object' } },
  { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'both' } },
  // Errors, requests and notifications.
  { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'no such method' } },
  { jsonrpc: '2.0', id: 3, method: 'ping' },
  { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
  { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { _meta: {}, progress: 1 } },
].map((message) => JSON.stringify(message));

describe('parseJsonRpcLine', () => {
  it('accepts and refuses exactly what the SDK does, with the same message', () => {
    for (const line of [...LINES, 'not json', '42', '[]', 'null', '{"jsonrpc":"2.0","id":1,"result":{}']) {
      expect(parseJsonRpcLine(line), line).toEqual(sdkVerdict(line));
    }
  });
});
