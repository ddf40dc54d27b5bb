/**
 * The replica owning a relayed request listens on two channels of the relay: for the sender's liveness probes, then
 * for the sender's cancel. When the second subscription fails the owner cannot answer, and it must stop listening for
 * the probes too: heard, they tell the sender the owner is still answering, and the client's call would wait as long
 * as the client does. Here the store refuses the owner's cancel subscription once a probe was heard; the sender must
 * then find nobody answering and end the call with an error. Two gateways in this process share a memory store,
 * probing every few milliseconds.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { TallyReplicas } from './tally-replicas.js';

const TOKEN = 'an-owner-listen-fails-test-token-of-enough-length';
const isLivenessChannel = (channel: string): boolean => channel.startsWith('relay:') && channel.endsWith(':alive');
const isCancelChannel = (channel: string): boolean => channel.startsWith('relay:') && channel.endsWith(':cancel');

/**
 * A memory store that refuses the next subscription to a relay's cancel channel, once a probe on its liveness channel
 * was heard (so that the sender knows the owner has the request), and counts the liveness subscriptions not stopped.
 */
class CancelListenFailingStore extends MemoryGatewayStore {
  private failNext = false;
  private probeHeard: (() => void) | undefined;
  /** Liveness subscriptions made and not stopped. */
  livenessListeners = 0;

  failNextCancelListen(): void {
    this.failNext = true;
  }

  override async publish(channel: string, message: string): Promise<number> {
    const heard = await super.publish(channel, message);
    if (isLivenessChannel(channel) && heard > 0) this.probeHeard?.();
    return heard;
  }

  override async listen(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    if (isCancelChannel(channel) && this.failNext) {
      this.failNext = false;
      await new Promise<void>((resolve) => {
        this.probeHeard = resolve;
      });
      this.probeHeard = undefined;
      throw new Error('the store refused the subscription');
    }
    const stop = await super.listen(channel, onMessage);
    if (!isLivenessChannel(channel)) return stop;
    this.livenessListeners += 1;
    let stopped = false;
    return async () => {
      if (!stopped) this.livenessListeners -= 1;
      stopped = true;
      await stop();
    };
  }
}

const store = new CancelListenFailingStore();
const replicas = new TallyReplicas(store, TOKEN);
const diagnostics: string[] = [];

beforeAll(
  () =>
    replicas.start(2, {
      stateDirPrefix: 'mcp-host-owner-listen-fails-',
      relayLivenessIntervalMs: 5,
      onDiagnostic: (message) => diagnostics.push(message),
    }),
  60_000,
);

afterAll(() => replicas.close());

it('stops listening for the probes when listening for the cancel fails, and the call ends with an error', async () => {
  const client = await replicas.connectRelayedToOwner('owner-listen-fails-test-client');
  store.failNextCancelListen();
  const outcome = client.callTool({ name: 'tally__echo', arguments: { text: 'unanswered' } }).then(
    () => 'answered',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

  await waitUntil(
    () => diagnostics.some((message) => message.includes('a request relayed to this replica failed')),
    'the owner to give the relayed request up',
  );
  expect(store.livenessListeners).toBe(0);
  // Nobody hears the probes any more: the sender ends the call instead of waiting for the client to give up.
  expect(await outcome).toContain('owning this session stopped answering');
}, 60_000);
