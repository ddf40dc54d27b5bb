/**
 * A replica relaying a request to the replica owning its session probes the owner from the moment it hands the
 * request over, but the owner listens for those probes only after its own store round trips (reading the session,
 * subscribing). Here the owner's subscription is held back until the relay has sent more unheard probes than it gives
 * up after on an owner already answering: the slow owner must still answer, not be taken for a dead one. Two gateways
 * in this process share a memory store, probing every few milliseconds.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GatewayHosts } from '../../src/gateway/gateway-hosts.js';
import type { GatewayHttp } from '../../src/gateway/gateway-http.js';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { writeConfig } from '../helpers/project.js';
import { startInProcessReplica } from './in-process-replica.js';

const TOKEN = 'a-slow-owner-test-token-of-enough-length';
/** More than the two unheard probes that end a relay to an owner that had shown it has the request. */
const PROBES_BEFORE_OWNER_LISTENS = 4;
const isLivenessChannel = (channel: string): boolean => channel.startsWith('relay:') && channel.endsWith(':alive');

/** A memory store whose next liveness listen (the owner's) waits until its channel went unheard `probes` times. */
class LateListeningStore extends MemoryGatewayStore {
  private holding = 0;
  private unheard = 0;
  private release: (() => void) | undefined;
  /** Unheard probes counted on the held channel when its listener was let through. */
  unheardWhenListened: number | undefined;

  holdNextLivenessListen(probes: number): void {
    this.holding = probes;
  }

  override async publish(channel: string, message: string): Promise<number> {
    const heard = await super.publish(channel, message);
    if (isLivenessChannel(channel) && heard === 0 && this.release !== undefined) {
      this.unheard += 1;
      if (this.unheard >= this.holding) this.release();
    }
    return heard;
  }

  override async listen(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    if (isLivenessChannel(channel) && this.holding > 0 && this.unheardWhenListened === undefined) {
      await new Promise<void>((resolve) => {
        this.release = resolve;
      });
      this.unheardWhenListened = this.unheard;
      this.release = undefined;
    }
    return super.listen(channel, onMessage);
  }
}

const store = new LateListeningStore();
const hosts: GatewayHosts[] = [];
const gateways: GatewayHttp[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  const counter = { command: process.execPath, args: [fixtureServerPath('counter')], trust: 'trusted' };
  const configPath = await writeConfig({
    mcpServers: { tally: { ...counter, stateful: true } },
    gateway: { stateless: true },
  });
  for (let index = 0; index < 2; index++) {
    const replica = await startInProcessReplica({
      configPath,
      store,
      token: TOKEN,
      stateDirPrefix: `mcp-host-slow-owner-${index}-`,
      relayLivenessIntervalMs: 5,
    });
    hosts.push(replica.hosts);
    gateways.push(replica.gateway);
  }
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  for (const gateway of gateways) await gateway.close();
  for (const host of hosts) await host.close();
  await store.close();
});

it('waits for an owner that listens for the liveness probes only after several of them went unheard', async () => {
  const [owner, relaying] = gateways.map((gateway) => new URL(gateway.url).origin);
  // initialize opens the session on the owner; every later request lands on the other replica.
  const routed: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: unknown }) : undefined;
    const origin = body?.method === 'initialize' ? owner : relaying;
    return fetch(`${origin}${url.pathname}${url.search}`, init);
  };
  const client = new Client({ name: 'slow-owner-test-client', version: '1.0.0' });
  clients.push(client);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${owner}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      fetch: routed,
    }),
  );

  store.holdNextLivenessListen(PROBES_BEFORE_OWNER_LISTENS);
  const result = await client.callTool({ name: 'tally__echo', arguments: { text: 'still here' } });

  // The owner did listen late, and answered the relayed call.
  expect(store.unheardWhenListened).toBeGreaterThanOrEqual(PROBES_BEFORE_OWNER_LISTENS);
  expect((result as { content: Array<{ text?: string }> }).content[0]?.text).toBe('still here');
}, 60_000);
