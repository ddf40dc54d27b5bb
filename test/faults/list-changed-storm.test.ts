/** 200 `tools/list_changed` in 100 ms cost at most two re-listings: one in flight and one trailing. */
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { closeHosts, openFaultHost, resultText, waitUntil } from './fault-helpers.js';

afterEach(closeHosts);

describe('a storm of list_changed notifications', () => {
  it('re-lists the tools at most twice', async () => {
    const host = await openFaultHost(hostConfig([stdioServer('storm', [fixtureServerPath('list-changed-storm')])]));
    const counts = async () =>
      JSON.parse(resultText((await host.callTool('storm__list_count', {})).result)) as {
        toolsListRequests: number;
        toolsListRequestsSinceStorm: number;
        notificationsSent: number;
      };
    expect((await counts()).toolsListRequests).toBe(1);

    const storm = await host.callTool('storm__storm', { count: 200, durationMs: 100 });
    expect(resultText(storm.result)).toMatch(/^sent 200 notifications\/tools\/list_changed in \d+ ms$/);
    // Let a re-listing the storm caused arrive; each call to the server waits for a pending re-listing, so the
    // next count sees every one there will be.
    await waitUntil(async () => (await counts()).toolsListRequestsSinceStorm >= 1, 'a re-listing after the storm');
    const after = await counts();
    console.info(`200 list_changed (${resultText(storm.result)}) → ${after.toolsListRequestsSinceStorm} re-listing(s)`);
    expect(after.notificationsSent).toBe(200);
    expect(after.toolsListRequestsSinceStorm).toBeGreaterThanOrEqual(1);
    expect(after.toolsListRequestsSinceStorm).toBeLessThanOrEqual(2);
    expect(host.servers()[0]).toMatchObject({ state: 'connected', toolCount: 2 });
  });
});
