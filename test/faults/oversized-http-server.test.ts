/**
 * The fault fixture's standing GET stream: its tool is offered only by a server that has one, and its events go to the
 * stream the client opened last, since a client may open it again after the first one closed.
 */
import { describe, expect, it } from 'vitest';
import { startOversizedServer } from '../fixtures/faults/oversized-http-server.js';

const post = (url: string, message: object) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });

async function toolNames(standingStream: boolean): Promise<string[]> {
  const server = await startOversizedServer({ standingStream });
  try {
    const listed = (await (await post(server.url, { id: 1, method: 'tools/list' })).json()) as {
      result: { tools: { name: string }[] };
    };
    return listed.result.tools.map((tool) => tool.name);
  } finally {
    await server.close();
  }
}

describe('the oversized fixture server', () => {
  it('lists raw_standing only when it has a standing stream', async () => {
    expect(await toolNames(false)).not.toContain('raw_standing');
    expect(await toolNames(true)).toContain('raw_standing');
  });

  it('writes raw_standing events to the standing stream opened last', async () => {
    const server = await startOversizedServer({ standingStream: true });
    try {
      const first = new AbortController();
      const firstStream = await fetch(server.url, { headers: { accept: 'text/event-stream' }, signal: first.signal });
      expect(firstStream.status).toBe(200);
      first.abort();
      const second = await fetch(server.url, { headers: { accept: 'text/event-stream' } });
      const reader = second.body!.getReader();
      const call = await post(server.url, {
        id: 7,
        method: 'tools/call',
        params: { name: 'raw_standing', arguments: { events: ['{"jsonrpc":"2.0","id":"$ID","result":{}}'] } },
      });
      await call.text();
      let seen = '';
      while (!seen.includes('\n\n')) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
      expect(seen).toBe('event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{}}\n\n');
      await reader.cancel();
    } finally {
      await server.close();
    }
  });
});
