/**
 * `mcp-host serve --http`, stateless or with sessions, with a batch POST (a JSON array of requests, answered on one
 * event stream) whose answers together are far larger than what the gateway lets wait for a client. A client that
 * reads gets every answer and notification. One that stops reading gets its notifications dropped past the bound, as
 * on a single POST, and, past the bound too, each remaining answer replaced by a JSON-RPC error for its id that names
 * the limit: every request is answered once, said once on stderr each, and what waits does not follow the batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { type GatewayProcess, startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { mcpPostHeaders } from '../helpers/mcp-post-headers.js';
import { temporaryDirectory } from '../helpers/project.js';
import { postAndStopReading } from '../helpers/stalled-reader.js';

const TOKEN = 'a-batch-backpressure-test-token-of-enough-length';
/**
 * Answers of 2 MB each, 100 MB together: past the 4 MB bound, the 4 MB written beyond it and what the sockets can hold
 * (at most 32 MB received and 4 MB sent here; about 5 MB in practice, as a paused reader does not grow its buffer), so
 * that less than half of it reaching the client shows the bound at work.
 */
const BIG_ANSWERS = 50;
const MEGABYTES = 2;
const PROGRESS_TIMES = 100;
const PROGRESS_CHARS = 200_000;

type Message = { id?: unknown; method?: string; result?: unknown; error?: { code: number; message: string } };

let gateway: GatewayProcess;
let sessionId: string | undefined;
let stateDir: string;

const headers = (): Record<string, string> => mcpPostHeaders(TOKEN, sessionId);

async function post(body: unknown): Promise<Response & { read: string }> {
  const response = await fetch(gateway.url, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
  return Object.assign(response, { read: await response.text() });
}

/** The JSON-RPC messages of an event stream's body. */
function messagesOf(body: string): Message[] {
  return body
    .split('\n\n')
    .map((event) =>
      event
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as Message);
}

/** The body of an HTTP/1.1 response read raw, its chunked framing taken off. */
function unchunked(raw: string): string {
  const parts: string[] = [];
  for (let at = 0; at < raw.length; ) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = Number.parseInt(raw.slice(at, lineEnd), 16);
    if (lineEnd < 0 || !(size > 0)) break;
    parts.push(raw.slice(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.from(parts.join(''), 'latin1').toString('utf8');
}

const call = (id: number, name: string, args: Record<string, unknown>, progressToken?: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(progressToken === undefined ? {} : { _meta: { progressToken } }) },
});

/** Tool calls in the gateway's audit log. */
async function callsAudited(): Promise<number> {
  return (await auditRecords(stateDir)).filter((record) => record.type === 'tool-call').length;
}

async function startGateway(stateless: boolean): Promise<void> {
  sessionId = undefined;
  stateDir = await temporaryDirectory('mcp-host-http-batch-');
  const config = await writeFixtureServersConfig(
    {
      forwarding: { file: 'forwarding.mjs' },
      // A budget of about 8 MB a result, so that its 2 MB answers are passed on whole.
      big: { file: 'big-result.mjs', maxResultTokens: 2_000_000 },
    },
    { fields: { gateway: { stateless, requestsPerMinute: 10_000 } } },
  );
  gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir], { MCP_HOST_GATEWAY_TOKEN: TOKEN });
  const initialized = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'batch', version: '1' } },
  });
  sessionId = initialized.headers.get('mcp-session-id') ?? '';
  expect(sessionId).not.toBe('');
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

const notices = (what: RegExp) => gateway.stderr().match(new RegExp(what, 'g'))?.length ?? 0;
const REFUSED = /answering the rest of a batch with errors/;
const DROPPED = /dropping notifications/;

describe.each([
  ['stateless', true],
  ['with sessions', false],
] as const)('mcp-host serve --http, %s, answering a batch POST', (_mode, stateless) => {
  beforeAll(() => startGateway(stateless), 90_000);
  afterAll(async () => {
    await gateway?.stop();
  });

  it('sends a client that reads every answer and notification of the batch', async () => {
    const answered = await post([
      call(10, 'forwarding__progress', {}, 'p'),
      call(11, 'big__big_text', { megabytes: 0.01 }),
      call(12, 'big__big_text', { megabytes: 0.01 }),
    ]);
    expect(answered.headers.get('content-type')).toContain('text/event-stream');
    const messages = messagesOf(answered.read);
    const answers = messages.filter((message) => message.id !== undefined);
    expect(answers.map((answer) => answer.id).sort()).toEqual([10, 11, 12]);
    expect(answers.every((answer) => answer.error === undefined)).toBe(true);
    expect(messages.filter((message) => message.method === 'notifications/progress')).toHaveLength(3);
    expect(notices(REFUSED) + notices(DROPPED)).toBe(0);
  }, 60_000);

  it('to a client that stops reading, drops notifications and then answers with errors past the bound, every request once', async () => {
    const auditedBefore = await callsAudited();
    const batch = [
      call(1, 'forwarding__progress_flood', { times: PROGRESS_TIMES, chars: PROGRESS_CHARS }, 'flood'),
      ...Array.from({ length: BIG_ANSWERS }, (_, index) =>
        call(100 + index, 'big__big_text', { megabytes: MEGABYTES }),
      ),
    ];
    const body = JSON.stringify(batch);
    const stream = await postAndStopReading(gateway.url, headers(), body);
    try {
      expect(stream.head).toMatch(/^HTTP\/1\.1 200/);
      await waitUntil(() => notices(REFUSED) > 0, 'the notice that answers are replaced by errors', 90_000);
      // Every call of the batch has been audited, which the gateway does just before writing its answer.
      await waitUntil(
        async () => (await callsAudited()) === auditedBefore + batch.length,
        'every call of the batch to be answered',
        120_000,
      );
      // The stream ends once every request of the batch has its answer.
      const read = await stream.readAgain(/\r\n0\r\n\r\n$/, 'everything');
      expect(read.stopSeen, `the stream ended (${read.bytes} bytes read)`).toBe(true);

      const messages = messagesOf(unchunked(stream.head.slice(stream.head.indexOf('\r\n\r\n') + 4) + read.text));
      const answers = messages.filter((message) => message.id !== undefined);
      expect(answers.map((answer) => answer.id).sort()).toEqual(batch.map((request) => request.id).sort());
      const refused = answers.filter((answer) => answer.error !== undefined);
      const sent = answers.filter((answer) => answer.result !== undefined);
      expect(refused.length).toBeGreaterThan(0);
      expect(sent.length).toBeGreaterThan(0);
      for (const answer of refused) {
        expect(answer.error?.code).toBe(-32000);
        expect(answer.error?.message).toMatch(/was not sent: more than 4 MB of this batch's stream were waiting/);
      }
      // About 12 MB reach the client, what the sockets held included, where all of the batch did before.
      expect(read.bytes).toBeLessThan((BIG_ANSWERS * MEGABYTES * 1024 * 1024) / 2);
      expect(messages.filter((message) => message.method === 'notifications/progress').length).toBeLessThan(
        PROGRESS_TIMES,
      );
      expect(notices(REFUSED)).toBe(1);
      expect(notices(DROPPED)).toBe(1);
      expect(gateway.stderr()).not.toContain('cut off');
    } finally {
      stream.close();
    }
  }, 180_000);
});
