/**
 * The gateway asks its servers for the most verbose log level its clients set, and asks again when a client whose
 * level that was goes (its session ended): the servers stop sending what nobody left wants. A client going whose level
 * was not the most verbose, or another client still wants, has the servers asked nothing. In sessions and in a
 * stateless gateway, official v2 SDK clients in front of the built CLI, the forwarding fixture server (which answers
 * every level it was asked for) behind it; a stateless replica started in this process, its sessions lasting three
 * seconds unused, for a client whose session expires.
 */
import { Client, type StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';
import { startTokenGateway, type TokenGateway } from '../helpers/token-gateway.js';
import { type InProcessReplica, startInProcessReplica } from './in-process-replica.js';

const TOKEN = 'a-log-level-after-leave-test-token';

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

describe.each([
  ['sessions', false],
  ['a stateless gateway', true],
] as const)('the log level a gateway asks its servers for when a client goes, in %s', (_mode, stateless) => {
  let gateway: TokenGateway;

  beforeAll(async () => {
    const stateDir = await temporaryDirectory('mcp-host-level-after-leave-');
    const config = await writeFixtureServersConfig(
      { forwarding: { file: 'forwarding.mjs' } },
      { fields: { gateway: { stateless, requestsPerMinute: 10_000 } } },
    );
    gateway = await startTokenGateway(config, stateDir);
  }, 90_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  async function connectAt(level: string): Promise<Connected> {
    const client = new Client({ name: `client-at-${level}`, version: '1.0.0' });
    const transport = await gateway.connect(client);
    await client.setLoggingLevel(level as 'debug');
    return { client, transport };
  }

  /** Ends a client's session, as a client that is done does (DELETE). */
  async function leave(connected: Connected): Promise<void> {
    await connected.transport.terminateSession();
    await connected.client.close();
  }

  const levelsAsked = async (by: Connected) =>
    textOf(await by.client.callTool({ name: 'forwarding__levels_asked', arguments: {} })).split(',');

  it('asks for the most verbose level of the clients left, once, and nothing when that did not change', async () => {
    const strict = await connectAt('error');
    const verbose = await connectAt('debug');
    const alsoVerbose = await connectAt('debug');
    const severe = await connectAt('critical');
    // The servers are asked for the most verbose level any client set, when that changes.
    expect(await levelsAsked(strict)).toEqual(['error', 'debug']);

    // Neither changes what the clients left want most verbosely.
    await leave(severe);
    await leave(alsoVerbose);
    await leave(verbose);
    await waitUntil(async () => (await levelsAsked(strict)).at(-1) === 'error', 'the servers asked for errors again');
    expect(await levelsAsked(strict)).toEqual(['error', 'debug', 'error']);
  }, 90_000);
});

describe('the log level a stateless gateway asks its servers for when a client’s session expires', () => {
  let replica: InProcessReplica | undefined;
  const clients: Client[] = [];

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await replica?.gateway.close();
    await replica?.hosts.close();
  });

  it('asks for the level of the clients left once the verbose one’s session lapses unused', async () => {
    const configPath = await writeFixtureServersConfig(
      { forwarding: { file: 'forwarding.mjs' } },
      { fields: { gateway: { stateless: true, requestsPerMinute: 10_000 } } },
    );
    replica = await startInProcessReplica({
      configPath,
      store: new MemoryGatewayStore(),
      token: TOKEN,
      stateDirPrefix: 'mcp-host-level-lapse-',
      sessionTtlMs: 3_000,
    });
    const connectAt = async (level: 'debug' | 'error') => {
      const client = new Client({ name: `client-at-${level}`, version: '1.0.0' });
      clients.push(client);
      await client.connect(bearerTransport(replica!.gateway.url, TOKEN));
      await client.setLoggingLevel(level);
      return client;
    };
    const strict = await connectAt('error');
    await connectAt('debug');
    const levelsAsked = async () =>
      textOf(await strict.callTool({ name: 'forwarding__levels_asked', arguments: {} })).split(',');

    // The strict client's requests keep its session; the verbose one sends none, and its session lapses.
    await waitUntil(async () => (await levelsAsked()).at(-1) === 'error', 'the servers asked for errors again');
    expect(await levelsAsked()).toEqual(['error', 'debug', 'error']);
  }, 90_000);
});
