// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is the config syntax, not a template mistake.
/**
 * Bounds on a stateful HTTP gateway's sessions, with the official v2 SDK client in front of the built CLI and the
 * session-memory fixture behind it: `gateway.maxSessionsPerClient` (429) and `gateway.maxSessions` (503) refuse the
 * next initialize and a `DELETE` frees a place; a session left without `DELETE` expires after
 * `gateway.sessionIdleTimeoutMs`, its upstream subscription is released and its id is answered 404.
 */
import { Client, type StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { type GatewayProcess, startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';
import { touchSessionMemory } from '../helpers/touch-session-memory.js';

const ALICE = 'a-session-limits-token-for-alice';
const BOB = 'a-session-limits-token-for-bob';
const IDLE_TIMEOUT_MS = 1_500;

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Ends the session as a client that is done does (DELETE), then closes the connection. */
  end(): Promise<void>;
}

let gateway: GatewayProcess;
let main: Connected;
const open: Connected[] = [];

async function connect(token: string): Promise<Connected> {
  const client = new Client({ name: 'session-limits-test-client', version: '1.0.0' });
  const transport = bearerTransport(gateway.url, token);
  await client.connect(transport);
  const connected: Connected = {
    client,
    transport,
    end: async () => {
      open.splice(open.indexOf(connected), 1);
      await transport.terminateSession();
      await client.close();
    },
  };
  open.push(connected);
  return connected;
}

/** The HTTP status and message of an initialize the gateway refused. */
async function refusal(token: string): Promise<string> {
  const client = new Client({ name: 'session-limits-test-client', version: '1.0.0' });
  const transport = bearerTransport(gateway.url, token);
  try {
    await client.connect(transport);
  } catch (error) {
    return `HTTP ${(error as { status?: number }).status}: ${String(error)}`;
  } finally {
    await client.close().catch(() => undefined);
  }
  throw new Error('the session was opened, not refused');
}

beforeAll(async () => {
  const config = await writeFixtureServersConfig(
    { memory: { file: 'session-memory.mjs' } },
    {
      fields: {
        gateway: {
          tokens: [
            { name: 'alice', token: '${env:ALICE_TOKEN}' },
            { name: 'bob', token: '${env:BOB_TOKEN}' },
          ],
          maxSessions: 3,
          maxSessionsPerClient: 2,
          sessionIdleTimeoutMs: IDLE_TIMEOUT_MS,
        },
      },
    },
  );
  const stateDir = await temporaryDirectory('mcp-host-session-limits-state-');
  gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir], {
    ALICE_TOKEN: ALICE,
    BOB_TOKEN: BOB,
  });
  // Keeps its standing event stream open throughout, so it never counts as idle.
  main = await connect(ALICE);
}, 60_000);

afterAll(async () => {
  for (const connected of [...open].reverse()) await connected.client.close().catch(() => undefined);
  await gateway?.stop();
});

describe('mcp-host serve --http session bounds', () => {
  it('refuses the session over a client’s share (429) and over the total (503), and DELETE frees a place', async () => {
    const alice2 = await connect(ALICE);
    const overShare = await refusal(ALICE);
    expect(overShare).toContain('HTTP 429');
    expect(overShare).toContain('already has 2 open sessions, the most allowed (gateway.maxSessionsPerClient)');

    const bob1 = await connect(BOB);
    const overTotal = await refusal(BOB);
    expect(overTotal).toContain('HTTP 503');
    expect(overTotal).toContain('already has 3 open sessions, the most allowed (gateway.maxSessions)');

    // Alice ends one of hers: she may open another, which fills the gateway again.
    await alice2.end();
    const alice3 = await connect(ALICE);
    expect(await refusal(BOB)).toContain('(gateway.maxSessions)');
    expect(await touchSessionMemory(alice3.client)).toBe(0);

    await bob1.end();
    const bob2 = await connect(BOB);
    expect(await touchSessionMemory(bob2.client)).toBe(0);
    await bob2.end();
    await alice3.end();
  }, 60_000);

  it('closes a session left without DELETE once idle: its subscription is released and its id answers 404', async () => {
    const idle = await connect(BOB);
    await idle.client.subscribeResource({ uri: 'note://idle' });
    expect(await touchSessionMemory(main.client)).toBe(1);
    const sessionId = idle.transport.sessionId!;
    // The client goes away without ending its session: its standing stream closes, nothing else arrives.
    open.splice(open.indexOf(idle), 1);
    await idle.client.close();

    await waitUntil(
      async () => (await touchSessionMemory(main.client)) === 0,
      'the idle session’s subscription to be released',
    );
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${BOB}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(`unknown session ${sessionId}`);
    // The main session kept its stream open all along and is still served.
    expect(await touchSessionMemory(main.client)).toBe(0);
  }, 60_000);
});
