/**
 * A client's `logging/setLevel` has the gateway's servers asked for a level only when the level asked of a server
 * changes: clients setting the level the servers have, or one less verbose than another client's, ask them nothing.
 * A server started again after it died is asked for the level again, once, by its connection. Official v2 SDK clients
 * in front of the built CLI, the forwarding fixture server (which answers every level it was asked for) behind it.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { callForwarding } from '../helpers/forwarding-fixture.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';
import { startTokenGateway, type TokenGateway } from '../helpers/token-gateway.js';

describe('the log level a gateway asks its servers for when it does not change', () => {
  let gateway: TokenGateway;

  beforeAll(async () => {
    const stateDir = await temporaryDirectory('mcp-host-level-unchanged-');
    const config = await writeFixtureServersConfig({ forwarding: { file: 'forwarding.mjs' } });
    gateway = await startTokenGateway(config, stateDir);
  }, 90_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  const connect = (name: string) => gateway.connectNamed(name);
  const call = callForwarding;
  const levelsAsked = async (client: Client) => (await call(client, 'levels_asked')).split(',');

  it('asks a server only for a level it was not asked for, and a restarted one once again', async () => {
    const first = await connect('first-client');
    const second = await connect('second-client');
    await first.setLoggingLevel('warning');
    await second.setLoggingLevel('warning');
    await first.setLoggingLevel('warning');
    expect(await levelsAsked(first)).toEqual(['warning']);

    await second.setLoggingLevel('debug');
    // The second client still wants debug.
    await first.setLoggingLevel('error');
    await second.setLoggingLevel('debug');
    expect(await levelsAsked(first)).toEqual(['warning', 'debug']);

    // The server dies; the first call after the gateway noticed starts it again, and its new session is asked for
    // the level the one before had.
    const before = Number(await call(first, 'pid'));
    process.kill(before, 'SIGKILL');
    await waitUntil(async () => {
      // A call failing on the dead process answers an error text, not a pid: only a new pid means it is back.
      const after = Number(await call(first, 'pid').catch(() => undefined));
      return Number.isInteger(after) && after > 0 && after !== before;
    }, 'the server to be started again');
    expect(await levelsAsked(first)).toEqual(['debug']);
    await second.setLoggingLevel('debug');
    await first.setLoggingLevel('error');
    expect(await levelsAsked(first)).toEqual(['debug']);

    await second.setLoggingLevel('info');
    expect(await levelsAsked(first)).toEqual(['debug', 'info']);
  }, 90_000);
});
