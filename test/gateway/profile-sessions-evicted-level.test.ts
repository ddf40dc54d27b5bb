/**
 * A stateless client's stored level let go past the profile's bound of stored levels no longer holds the servers to
 * it: they are asked again, once for a burst of such evictions, and not at all when the level they were asked for does
 * not change. The forwarding fixture server, behind a host started in this process, answers every level it was asked
 * for.
 */
import type { LoggingLevel } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProfileSessions } from '../../src/gateway/profile-sessions.js';
import { createHost, type Host } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { forwardingHostConfig } from '../helpers/forwarding-fixture.js';
import { textOf } from '../helpers/text-of.js';

/** The profile's bound of stored levels (profile-sessions.ts `MAX_STORED_LEVELS`). */
const STORED_LEVELS_BOUND = 10_000;
const KEPT_MS = 600_000;

let host: Host;
let sessions: ProfileSessions | undefined;

beforeAll(async () => {
  host = await createHost({
    config: forwardingHostConfig(),
    trustStore: TrustStore.inMemory(),
  });
}, 60_000);

afterAll(async () => {
  sessions?.close();
  await host?.close();
});

const levelsAsked = async () => textOf((await host.callTool('forwarding__levels_asked', {})).result);
/** Lets the microtasks queued so far run. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

it('asks the servers again, once, when the client that held them to debug is let go past the bound', async () => {
  const asked: LoggingLevel[] = [];
  const asks: Promise<void>[] = [];
  sessions = new ProfileSessions(1_000, undefined, (level) => {
    asked.push(level);
    const ask = host.setServersLoggingLevel(level);
    asks.push(ask);
    return ask;
  });
  const first = sessions.storedLevel('debug-client', 'debug', KEPT_MS);
  expect(first).toBe('debug');
  await host.setServersLoggingLevel(first!);

  // The debug client is the longest unseen: the last of these lets it go.
  for (let i = 0; i < STORED_LEVELS_BOUND; i++) {
    expect(sessions.storedLevel(`error-client-${i}`, 'error', KEPT_MS)).toBeUndefined();
  }
  await settled();
  expect(asked).toEqual(['error']);

  // Error clients let go in a burst leave the servers' level as it is: nothing more is asked.
  for (let i = 0; i < 100; i++) sessions.storedLevel(`later-client-${i}`, 'error', KEPT_MS);
  await settled();
  expect(asked).toEqual(['error']);

  await Promise.all(asks);
  expect(await levelsAsked()).toBe('debug,error');
}, 60_000);
