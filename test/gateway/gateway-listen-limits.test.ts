/**
 * `subscriptions/listen` streams of the 2026-07-28 revision through `mcp-host serve --http` are bounded as sessions
 * are: each is an open stream that holds up to 100 upstream subscriptions for as long as the client keeps it, so
 * without a bound one client could hold the gateway's memory and its servers' subscriptions without end, whatever
 * the session bounds. A client holds at most `gateway.maxSessionsPerClient` of them (429 past it) and the gateway
 * `gateway.maxSessions` (503), and a closed one frees its place. Official v2 SDK clients pinned to that revision,
 * with two tokens, in front of the built CLI and the session-memory fixture.
 */
import { Client, type McpSubscription } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { type GatewayProcess, startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';

const TOKENS = { first: 'the-first-listen-limits-token', second: 'the-second-listen-limits-token' };

let gateway: GatewayProcess | undefined;
const opened: Client[] = [];

beforeAll(async () => {
  const config = await writeFixtureServersConfig(
    { memory: { file: 'session-memory.mjs' } },
    {
      fields: {
        gateway: {
          tokens: [
            { name: 'first', token: TOKENS.first },
            { name: 'second', token: TOKENS.second },
          ],
          maxSessionsPerClient: 2,
          maxSessions: 3,
        },
      },
    },
  );
  gateway = await startGatewayProcess(['--config', config, '--state-dir', await temporaryDirectory()]);
}, 90_000);

afterAll(async () => {
  for (const client of opened) await client.close().catch(() => undefined);
  await gateway?.stop();
});

async function modernClient(token: string): Promise<Client> {
  const client = new Client(
    { name: 'listen-limits-client', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(bearerTransport(gateway!.url, token));
  opened.push(client);
  return client;
}

function listen(client: Client): Promise<McpSubscription> {
  return client.listen({ toolsListChanged: true, resourceSubscriptions: ['note://a'] });
}

/** The status and message a stream was refused with, or `opened` (and it is closed again). */
function refusal(opening: Promise<McpSubscription>): Promise<string> {
  return opening.then(
    async (subscription) => {
      await subscription.close();
      return 'opened';
    },
    (error: unknown) => `${(error as { status?: number }).status} ${String(error)}`,
  );
}

describe('mcp-host serve --http, listen streams', () => {
  it('are held to the client’s share (429) and the gateway’s total (503), and a closed one frees its place', async () => {
    const first = await modernClient(TOKENS.first);
    const second = await modernClient(TOKENS.second);
    const held = [await listen(first), await listen(first)];

    const overShare = await refusal(listen(first));
    expect(overShare).toMatch(/^429 /);
    expect(overShare).toContain('already has 2 open listen streams, the most allowed (gateway.maxSessionsPerClient)');

    held.push(await listen(second));
    const overTotal = await refusal(listen(second));
    expect(overTotal).toMatch(/^503 /);
    expect(overTotal).toContain('already has 3 open listen streams, the most allowed (gateway.maxSessions)');

    // The streams still open work as before, and closing one lets its client open another.
    await held[0]!.close();
    let again: McpSubscription | undefined;
    // The gateway sees the stream end when its connection does, a moment after the client closed it.
    await waitUntil(async () => {
      again = await listen(first).catch(() => undefined);
      return again !== undefined;
    }, 'a place for a new listen stream');
    expect(again!.honoredFilter).toEqual({ toolsListChanged: true, resourceSubscriptions: ['note://a'] });
    await Promise.all([again!, held[1]!, held[2]!].map((subscription) => subscription.close()));
  }, 90_000);
});
