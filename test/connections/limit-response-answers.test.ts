/**
 * The wrapped `fetch` of remote servers puts the host's error answer in place of an answer to a request of the POST
 * that is not valid JSON-RPC, in a JSON body (one message or a batch) or an event, whatever the pieces it arrives in,
 * and notes it as the host's; anything else goes on byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { HostWrittenAnswers } from '../../src/connections/host-written-answers.js';
import { limitResponseSize } from '../../src/connections/limit-response-size.js';
import { serverAnsweringInPieces } from '../helpers/response-in-pieces.js';

const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'x' } });
const BATCH = JSON.stringify([call(7), call(8)]);

async function passedOn(text: string, contentType: string, pieceBytes: number, hostWritten: HostWrittenAnswers) {
  const server = serverAnsweringInPieces(text, contentType, pieceBytes);
  const response = await limitResponseSize(
    server,
    1024 * 1024,
    hostWritten,
  )('http://127.0.0.1/mcp', {
    method: 'POST',
    body: BATCH,
  });
  return response.text();
}

const refused = (id: number, why: string) => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: -32600,
    message: `the server's answer to tools/call is not valid JSON-RPC: ${why}, so the host refused it`,
  },
});
const BAD = '{"jsonrpc":"2.0","id":7,"error":{"code":"oops","message":"bad"}}';
const GOOD = '{"jsonrpc":"2.0","id":8,"result":{"content":[]}}';
const WHY = "the error's code is a string, not a number";

describe('an answer to a request of the POST that is not valid JSON-RPC', () => {
  it.each([1, 7, 100_000])('is replaced in a batch body, in pieces of %i bytes', async (pieceBytes) => {
    const hostWritten = new HostWrittenAnswers();
    const body = JSON.parse(await passedOn(`[${BAD},${GOOD}]`, 'application/json', pieceBytes, hostWritten));
    expect(body).toEqual([refused(7, WHY), JSON.parse(GOOD)]);
    expect(hostWritten.take(body[0])).toBe(
      `answered tools/call with a message that is not valid JSON-RPC: ${WHY}; the host refused it`,
    );
    expect(hostWritten.take(body[1])).toBeUndefined();
  });

  it.each([1, 7, 100_000])('is replaced as an event, in pieces of %i bytes', async (pieceBytes) => {
    const hostWritten = new HostWrittenAnswers();
    const stray = '{"jsonrpc":"2.0","id":99,"error":{"code":"oops","message":"bad"}}';
    const event = (data: string) => `event: message\ndata: ${data}\n\n`;
    const text = `: comment\n\n${event(stray)}${event(BAD)}${event(GOOD)}${event(BAD.replace('"code":"oops"', '"code":1'))}`;
    expect(await passedOn(text, 'text/event-stream', pieceBytes, hostWritten)).toBe(
      // The stray id and the answer after the request was answered go on as they are.
      `: comment\n\n${event(stray)}${event(JSON.stringify(refused(7, WHY)))}${event(GOOD)}${event(BAD.replace('"code":"oops"', '"code":1'))}`,
    );
  });

  it.each([1, 3, 100_000])(
    'is found past large nested values and brackets in strings, in pieces of %i bytes',
    async (pieceBytes) => {
      const content = `"content":[{"type":"text","text":"${'[{\\"'.repeat(50)} ]}"}],"structuredContent":{"a":[[{}]]},"_meta":{"k":[1]}`;
      const extra = `{"jsonrpc":"2.0","id":7,"result":{${content}},"extra\\n":{"x":[]}}`;
      const fine = `{"jsonrpc":"2.0","id":8,"result":{${content}}}`;
      const hostWritten = new HostWrittenAnswers();
      const body = JSON.parse(await passedOn(`[${extra},\n${fine}]`, 'application/json', pieceBytes, hostWritten));
      expect(body).toEqual([refused(7, 'it has a member JSON-RPC does not define, "extra\\n"'), JSON.parse(fine)]);
      // An event's data over two lines, split inside the result.
      const event = `event: message\ndata: ${extra.slice(0, 60)}\ndata: ${extra.slice(60)}\n\n`;
      const asEvent = await passedOn(event, 'text/event-stream', pieceBytes, hostWritten);
      expect(asEvent).toBe(
        `event: message\ndata: ${JSON.stringify(refused(7, 'it has a member JSON-RPC does not define, "extra\\n"'))}\n\n`,
      );
      const fineEvent = `event: message\ndata: ${fine.slice(0, 60)}\ndata: ${fine.slice(60)}\n\n`;
      expect(await passedOn(fineEvent, 'text/event-stream', pieceBytes, hostWritten)).toBe(fineEvent);
    },
  );

  it('leaves a valid body byte for byte', async () => {
    const text = ` [${GOOD.replace('"id":8', '"id":7')} , ${GOOD}]`;
    expect(await passedOn(text, 'application/json', 5, new HostWrittenAnswers())).toBe(text);
  });
});
