/**
 * The wrapped `fetch` of remote servers measures how deep each JSON body and each event's `data` nests, whatever
 * the pieces the body arrives in; only `data` lines count (a comment or an `id` may hold any bracket).
 */
import { describe, expect, it } from 'vitest';
import { limitResponseSize } from '../../src/connections/limit-response-size.js';
import { serverAnsweringInPieces } from '../helpers/response-in-pieces.js';

const REQUEST = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x' } });

/**
 * The body `text` as the wrapped fetch passes it on, the server's bytes arriving in pieces of `pieceBytes`; the
 * response is to a POST of one `tools/call` with id 7, or to the standing GET stream.
 */
async function passedOn(text: string, contentType: string, pieceBytes: number, method = 'POST'): Promise<string> {
  const server = serverAnsweringInPieces(text, contentType, pieceBytes);
  const init = method === 'POST' ? { method, body: REQUEST } : { method };
  const response = await limitResponseSize(server, 1024 * 1024)('http://127.0.0.1/mcp', init);
  return response.text();
}

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const answer = (value: string) => `{"jsonrpc":"2.0","id":7,"result":{"content":[],"structuredContent":{"v":${value}}}}`;
const REFUSED = {
  jsonrpc: '2.0',
  id: 7,
  error: {
    code: -32600,
    message: "the server's answer to tools/call is nested deeper than 128 levels, so the host refused it",
  },
};

describe('a remote response nested too deep', () => {
  it.each([1, 3, 64, 100_000])('is refused as a JSON body, in pieces of %i bytes', async (pieceBytes) => {
    expect(JSON.parse(await passedOn(answer(deep(200)), 'application/json', pieceBytes))).toEqual(REFUSED);
    const fine = answer(deep(120));
    expect(await passedOn(fine, 'application/json; charset=utf-8', pieceBytes)).toBe(fine);
  });

  it.each([1, 5, 64, 100_000])('is refused as an event, in pieces of %i bytes', async (pieceBytes) => {
    // Split over two data lines, which the event's data joins.
    const text = answer(deep(200));
    const event = `event: message\ndata: ${text.slice(0, 150)}\ndata: ${text.slice(150)}\n\n`;
    const refused = await passedOn(event, 'text/event-stream', pieceBytes);
    expect(refused).toBe(`event: message\ndata: ${JSON.stringify(REFUSED)}\n\n`);
  });

  it('on the standing GET stream, refuses only the too-deep answer, drops a too-deep notification, and goes on', async () => {
    const notification = (value: string) =>
      `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":${value}}}`;
    const event = (message: string) => `event: message\ndata: ${message}\n\n`;
    const stream = [
      event(answer(deep(200)).replace('"id":7', '"id":9')),
      event(notification('"fine"')),
      event(notification(deep(300))),
      event(answer('"fine"').replace('"id":7', '"id":10')),
    ].join('');
    const refused9 = {
      jsonrpc: '2.0',
      id: 9,
      error: {
        code: -32600,
        message: "the server's answer to request 9 is nested deeper than 128 levels, so the host refused it",
      },
    };
    for (const pieceBytes of [1, 13, 100_000]) {
      expect(await passedOn(stream, 'text/event-stream', pieceBytes, 'GET')).toBe(
        [
          event(JSON.stringify(refused9)),
          event(notification('"fine"')),
          event(answer('"fine"').replace('"id":7', '"id":10')),
        ].join(''),
      );
    }
  });

  it("drops a too-deep notification ahead of a POST's answer, which still arrives", async () => {
    const progress = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,"x":${deep(200)}}}`;
    const stream = `event: message\ndata: ${progress}\n\nevent: message\ndata: ${answer('"done"')}\n\n`;
    expect(await passedOn(stream, 'text/event-stream', 7)).toBe(`event: message\ndata: ${answer('"done"')}\n\n`);
  });

  it('counts only data lines, and each event on its own', async () => {
    const events = [
      `: ${deep(300)}\n`,
      `id: "${'['.repeat(300)}\nevent: message\ndata: ${answer(deep(100))}\n\n`,
      `event: message\ndata: ${answer(deep(100))}\n\n`,
    ].join('');
    for (const pieceBytes of [1, 7, 100_000]) {
      expect(await passedOn(events, 'text/event-stream', pieceBytes)).toBe(events);
    }
  });

  it('passes a body of another type on as it is, brackets and all', async () => {
    const page = `<html><script>${deep(500)}</script></html>`;
    expect(await passedOn(page, 'text/html', 16)).toBe(page);
  });
});
