/**
 * The log level the host asks of all its servers reaches a server it starts later: one switched on again (whether
 * the level was set before it was switched off or while it was off), and the new process of a restart when the level
 * was set after the old connection was taken away and before the new one was in place. The forwarding fixture server
 * answers every level it was asked for; the restart's moment between its two connections is caught by the audit
 * record of the old one's exit, which the restart writes (and waits for) before it starts the new one.
 */
import type { LoggingLevel } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { createHost, type Host } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { forwardingHostConfig } from '../helpers/forwarding-fixture.js';
import { textOf } from '../helpers/text-of.js';

let host: Host;
/** A level to set while a restart has no connection for the server, once its old one's exit is audited. */
let levelBetweenConnections: LoggingLevel | undefined;
let connectionWhenSet: unknown = 'not set';

beforeAll(async () => {
  host = await createHost({
    config: forwardingHostConfig(),
    auditSink: {
      write: async (record: AuditRecord) => {
        if (record.type !== 'server-exit' || record.reason !== 'restarted' || levelBetweenConnections === undefined) {
          return;
        }
        connectionWhenSet = host.connection('forwarding');
        await host.setServersLoggingLevel(levelBetweenConnections);
      },
      close: () => undefined,
    },
    trustStore: TrustStore.inMemory(),
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
});

const levelsAsked = async () => textOf((await host.callTool('forwarding__levels_asked', {})).result);

describe('the log level the host asks of its servers', () => {
  it('is asked of a server switched on again, the level last set before or while it was off', async () => {
    await host.setServersLoggingLevel('warning');
    expect(await levelsAsked()).toBe('warning');

    await host.disableServer('forwarding');
    await host.enableServer('forwarding');
    expect(await levelsAsked()).toBe('warning');

    await host.disableServer('forwarding');
    await host.setServersLoggingLevel('debug');
    await host.enableServer('forwarding');
    expect(await levelsAsked()).toBe('debug');
  }, 60_000);

  it('is asked of a restarted server when it was set between its old connection and its new one', async () => {
    await host.setServersLoggingLevel('error');
    levelBetweenConnections = 'notice';
    try {
      await host.restartServer('forwarding');
    } finally {
      levelBetweenConnections = undefined;
    }
    expect(connectionWhenSet).toBeUndefined();
    expect(await levelsAsked()).toBe('notice');
  }, 60_000);

  it("does not take the place of a level set on the server's connection since, which a restart carries over", async () => {
    await host.setServersLoggingLevel('critical');
    await host.connection('forwarding')!.setLoggingLevel('info');
    await host.restartServer('forwarding');
    expect(await levelsAsked()).toBe('info');
  }, 60_000);
});
