/**
 * A log level the host asks of its servers while another is still on its way to a server is asked once that one is
 * answered, whatever level the server's session took before, and given to the server's next connection when a restart
 * ended that one unanswered: the held-level fixture server holds its answer to one level until told, and answers every
 * level it was asked for, in order.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { fixtureServer } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';
import { waitUntil } from '../helpers/wait-until.js';

let host: Host;

beforeAll(async () => {
  host = await createHost({
    config: hostConfig([
      stdioServer('held', [fixtureServer('held-level.mjs')], { trust: 'trusted', env: { HOLD_LEVEL: 'debug' } }),
    ]),
    trustStore: TrustStore.inMemory(),
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
});

const levelsAsked = async () => textOf((await host.callTool('held__levels_asked', {})).result);

it('asks a server for a level set while another was in flight, once that one is answered', async () => {
  await host.setServersLoggingLevel('info');
  const debug = host.setServersLoggingLevel('debug');
  await waitUntil(async () => (await levelsAsked()) === 'info,debug', 'the server to be asked for debug');

  // Back to the level the server took before debug, which it has not answered yet.
  const info = host.setServersLoggingLevel('info');
  await host.callTool('held__release_level', {});
  await Promise.all([debug, info]);
  expect(await levelsAsked()).toBe('info,debug,info');
}, 60_000);

it('asks a restarted server for a level set while another was in flight and its old connection was taken away', async () => {
  await host.setServersLoggingLevel('info');
  const debug = host.setServersLoggingLevel('debug');
  await waitUntil(async () => (await levelsAsked()).endsWith('info,debug'), 'the server to be asked for debug');
  // Waits for the debug request, which the restart ends unanswered, and is asked once the old connection is gone.
  const notice = host.setServersLoggingLevel('notice');
  await host.restartServer('held');
  await Promise.all([debug, notice]);
  expect(await levelsAsked()).toBe('notice');
}, 60_000);
