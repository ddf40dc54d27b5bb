/**
 * Resource subscriptions and log levels through `mcp-host serve`, over stdio and Streamable HTTP, with the official
 * v2 SDK client in front of the built CLI and real fixture servers behind it: one that remembers only what its own
 * session was asked (subscriptions, log level) and one without subscriptions. Subscriptions reach the owning server,
 * its updates reach the subscribed clients with the same URI, several clients share one upstream subscription,
 * the last one leaving (or closing) unsubscribes it, a restarted server is subscribed again and keeps its log level,
 * and a session's subscriptions are bounded.
 */
import { Client, type LoggingMessageNotification } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SUBSCRIPTIONS_PER_SESSION } from '../../src/gateway/resource-subscriptions.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { fixtureServer, temporaryDirectory, writeConfig } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';
import { textOf } from '../helpers/text-of.js';
import { startTokenGateway } from '../helpers/token-gateway.js';
import { touchSessionMemory } from '../helpers/touch-session-memory.js';

interface Recorded {
  logs: LoggingMessageNotification['params'][];
  /** URIs of `notifications/resources/updated`, in order. */
  updated: string[];
}

interface Gateway extends Recorded {
  client: Client;
  /** Another client of the same gateway, on the whole config or a profile (HTTP only: stdio has one client). */
  connectAnother?: (profile?: string) => Promise<Recorded & { client: Client; end(): Promise<void> }>;
  close(): Promise<void>;
}

function config(): Promise<string> {
  return writeConfig({
    mcpServers: {
      memory: { command: process.execPath, args: [fixtureServer('session-memory.mjs')], trust: 'trusted' },
      // Resources (`notes://{topic}`) without subscriptions.
      plain: { command: process.execPath, args: [fixtureServer('forwarding.mjs')], trust: 'trusted' },
    },
    permissions: { allow: ['memory__*'] },
    profiles: { plain: { servers: ['plain'] } },
  });
}

function recordingClient(recorded: Recorded, name = 'subscriptions-test-client'): Client {
  const client = new Client({ name, version: '1.0.0' });
  client.setNotificationHandler('notifications/message', (notification) => {
    recorded.logs.push(notification.params);
  });
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    recorded.updated.push(notification.params.uri);
  });
  return client;
}

async function startStdio(): Promise<Gateway> {
  const stateDir = await temporaryDirectory('mcp-host-subscriptions-state-');
  const gateway: Gateway = { logs: [], updated: [], client: undefined as never, close: async () => {} };
  gateway.client = recordingClient(gateway);
  await connectStdioGateway(gateway.client, await config(), stateDir);
  gateway.close = () => gateway.client.close();
  return gateway;
}

async function startHttp(): Promise<Gateway> {
  const stateDir = await temporaryDirectory('mcp-host-subscriptions-state-');
  const served = await startTokenGateway(await config(), stateDir);
  try {
    const gateway: Gateway = { logs: [], updated: [], client: undefined as never, close: served.stop };
    gateway.client = recordingClient(gateway);
    await served.connect(gateway.client);
    gateway.connectAnother = async (profile) => {
      const recorded: Recorded = { logs: [], updated: [] };
      const client = recordingClient(recorded, 'another-test-client');
      const transport = await served.connect(client, profile === undefined ? '' : `/${profile}`);
      // Ends the session as a client that is done does (DELETE), then closes the connection.
      const end = async () => {
        await transport.terminateSession();
        await client.close();
      };
      return { ...recorded, client, end };
    };
    return gateway;
  } catch (error) {
    await served.stop();
    throw error;
  }
}

async function serverPid(client: Client): Promise<number> {
  return Number(textOf(await client.callTool({ name: 'memory__pid', arguments: {} })));
}

/** Kills the fixture server behind the gateway and waits until the gateway has started it again. */
async function restartUpstream(client: Client): Promise<void> {
  const before = await serverPid(client);
  process.kill(before, 'SIGKILL');
  // Calls fail while the gateway notices the crash; the first one after it starts the server again.
  await waitUntil(async () => {
    const after = await serverPid(client).catch(() => Number.NaN);
    return Number.isInteger(after) && after !== before;
  }, 'the server to be started again');
}

describe.each([
  ['stdio', startStdio],
  ['Streamable HTTP', startHttp],
] as const)('mcp-host serve over %s', (_transport, start) => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await start();
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('advertises subscriptions and forwards the owning server’s updates with the same URI', async () => {
    expect(gateway.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    await gateway.client.subscribeResource({ uri: 'note://a' });
    expect(await touchSessionMemory(gateway.client)).toBe(1);
    await waitUntil(() => gateway.updated.includes('note://a'), 'the update of note://a');

    await gateway.client.unsubscribeResource({ uri: 'note://a' });
    // The server was told: it has nothing left to send updates for.
    expect(await touchSessionMemory(gateway.client)).toBe(0);
    // Unsubscribing from what is not subscribed is not an error.
    await gateway.client.unsubscribeResource({ uri: 'note://a' });
  }, 60_000);

  it('refuses a resource whose server offers no subscriptions, or that no server lists, saying why', async () => {
    await expect(gateway.client.subscribeResource({ uri: 'notes://geology' })).rejects.toThrow(
      'server "plain", which lists the resource notes://geology, does not offer resource subscriptions',
    );
    await expect(gateway.client.subscribeResource({ uri: 'elsewhere://x' })).rejects.toThrow(
      'no server of this gateway lists the resource elsewhere://x',
    );
  }, 60_000);

  it('subscribes a restarted server again', async () => {
    await gateway.client.subscribeResource({ uri: 'note://kept' });
    await restartUpstream(gateway.client);
    gateway.updated.length = 0;
    expect(await touchSessionMemory(gateway.client)).toBe(1);
    await waitUntil(() => gateway.updated.includes('note://kept'), 'the update of note://kept');
    await gateway.client.unsubscribeResource({ uri: 'note://kept' });
    expect(await touchSessionMemory(gateway.client)).toBe(0);
  }, 60_000);

  it(`holds at most ${MAX_SUBSCRIPTIONS_PER_SESSION} subscriptions per session, even when sent at once`, async () => {
    const uris = Array.from({ length: MAX_SUBSCRIPTIONS_PER_SESSION + 1 }, (_, index) => `note://many-${index}`);
    const results = await Promise.allSettled(uris.map((uri) => gateway.client.subscribeResource({ uri })));
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain(`already holds ${MAX_SUBSCRIPTIONS_PER_SESSION} resource subscriptions`);
    expect(await touchSessionMemory(gateway.client)).toBe(MAX_SUBSCRIPTIONS_PER_SESSION);
    await Promise.all(uris.map((uri) => gateway.client.unsubscribeResource({ uri })));
    expect(await touchSessionMemory(gateway.client)).toBe(0);
  }, 60_000);

  // Only HTTP lets several clients share one gateway; over stdio the case does not exist (not registered, not skipped).
  if (start === startHttp) {
    it('shares one upstream subscription between clients until the last one leaves or ends its session', async () => {
      const other = await gateway.connectAnother!();
      try {
        gateway.updated.length = 0;
        await gateway.client.subscribeResource({ uri: 'note://shared' });
        await other.client.subscribeResource({ uri: 'note://shared' });
        await gateway.client.unsubscribeResource({ uri: 'note://shared' });
        // Still subscribed upstream for the other client, which alone gets the update.
        expect(await touchSessionMemory(gateway.client)).toBe(1);
        await waitUntil(() => other.updated.includes('note://shared'), 'the other client’s update');
        expect(gateway.updated).toEqual([]);
      } finally {
        await other.end();
      }
      await waitUntil(
        async () => (await touchSessionMemory(gateway.client)) === 0,
        'the ended session’s subscription to go',
      );
    }, 60_000);

    it('does not advertise subscriptions to a profile whose servers offer none', async () => {
      const plain = await gateway.connectAnother!('plain');
      try {
        expect(plain.client.getServerCapabilities()?.resources).toEqual({ listChanged: true });
        await expect(plain.client.subscribeResource({ uri: 'notes://geology' })).rejects.toThrow(/-32601|not found/i);
      } finally {
        await plain.end();
      }
    }, 60_000);
  }

  it('keeps the client’s log level when the server restarts', async () => {
    await gateway.client.setLoggingLevel('error');
    expect(textOf(await gateway.client.callTool({ name: 'memory__log', arguments: {} }))).toBe('level error');
    await restartUpstream(gateway.client);
    // The server itself says which level its new session was given.
    expect(textOf(await gateway.client.callTool({ name: 'memory__log', arguments: {} }))).toBe('level error');
    await waitUntil(() => gateway.logs.some((entry) => entry.data === 'error-line'), 'the error log message');
  }, 60_000);
});
