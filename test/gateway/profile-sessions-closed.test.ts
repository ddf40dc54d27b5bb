/**
 * Once a profile's sessions are closed, a request still finishing stores no level and has none asked of the servers,
 * a `logging/setLevel` answered late has no level to ask them for, and a session removed late does not have them asked
 * again. The forwarding fixture server, behind a host started in
 * this process, answers every level it was asked for.
 */
import type { Server } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DownstreamSession, ProfileSessions } from '../../src/gateway/profile-sessions.js';
import { createHost, type Host } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { forwardingHostConfig } from '../helpers/forwarding-fixture.js';
import { textOf } from '../helpers/text-of.js';

let host: Host;

beforeAll(async () => {
  host = await createHost({
    config: forwardingHostConfig(),
    trustStore: TrustStore.inMemory(),
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
});

const levelsAsked = async () => textOf((await host.callTool('forwarding__levels_asked', {})).result);

it('asks the servers for no level once closed, and stores none', async () => {
  const asks: Promise<void>[] = [];
  const sessions = new ProfileSessions(1_000, undefined, (level) => {
    const ask = host.setServersLoggingLevel(level);
    asks.push(ask);
    return ask;
  });
  // Only the level a client set is read of a session being removed; its server is never reached here.
  const session: DownstreamSession = { server: {} as Server };
  sessions.add(session);
  await host.setServersLoggingLevel(sessions.setLevel(session, 'debug')!);

  sessions.close();
  sessions.remove(session);
  expect(sessions.storedLevel('late-client', 'debug', 60_000)).toBeUndefined();
  expect(asks).toHaveLength(0);
  expect(await levelsAsked()).toBe('debug');
}, 60_000);

it('answers no level to ask the servers for when a client sets one once closed', async () => {
  const sessions = new ProfileSessions(1_000);
  const session: DownstreamSession = { server: {} as Server };
  sessions.add(session);
  sessions.close();
  // As the gateway's `logging/setLevel` handler does with what it answers.
  const level = sessions.setLevel(session, 'warning');
  if (level !== undefined) await host.setServersLoggingLevel(level);
  expect(level).toBeUndefined();
  expect(await levelsAsked()).toBe('debug');
}, 60_000);
