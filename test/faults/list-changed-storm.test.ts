/**
 * 200 `tools/list_changed` in 100 ms cost at most two re-listings: one in flight and one trailing. The count is
 * read only once the host has no re-listing in flight, so a late one cannot slip past the check.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LIST_CHANGED_SETTLE_MS } from '../../src/connections/server-connection.js';
import { RELIST_MAX_PAUSE_MS } from '../../src/host/live-catalog.js';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { closeHosts, openFaultHost, resultText } from './fault-helpers.js';

afterEach(closeHosts);

describe('a storm of list_changed notifications', () => {
  it('re-lists the tools at most twice', async () => {
    /** When the host took in each list_changed (those of one read from the pipe arrive as one). */
    const arrivals: number[] = [];
    const host = await openFaultHost(hostConfig([stdioServer('storm', [fixtureServerPath('list-changed-storm')])]), {
      onToolsChanged: () => arrivals.push(Date.now()),
    });
    const counts = async () =>
      JSON.parse(resultText((await host.callTool('storm__list_count', {})).result)) as {
        toolsListRequests: number;
        toolsListRequestsSinceStorm: number;
        notificationsSent: number;
      };
    expect((await counts()).toolsListRequests).toBe(1);

    // A stall of the event loop as long as the settle time lets the settle timer fire before notifications already
    // waiting in the pipe are read (timers run before I/O): to the host that is a pause, though their arrival times
    // show none. A loaded machine stalls like that; the interval sees each stall.
    const ticks: number[] = [Date.now()];
    const ticker = setInterval(() => ticks.push(Date.now()), 5);
    const storm = await host.callTool('storm__storm', { count: 200, durationMs: 100 }).finally(() => {
      clearInterval(ticker);
      ticks.push(Date.now());
    });
    expect(resultText(storm.result)).toMatch(/^sent 200 notifications\/tools\/list_changed in \d+ ms$/);
    // A request answered after the storm: the host has taken in every notification sent before the storm's answer.
    await counts();
    // Resolves once no re-listing is in flight; with no notification pending, none starts after it.
    await host.refreshCatalog();
    // Sent after the last re-listing's tools/list, so the server has counted every one the storm caused.
    const after = await counts();

    // The storm is one burst to the host when it arrives without a pause as long as the settle time and within the
    // longest pause between re-listings. On a loaded machine it can reach the host with such pauses in it; each
    // makes a burst of its own, with a re-listing of its own.
    const pauses = arrivals.slice(1).filter((at, index) => at - arrivals[index]! >= LIST_CHANGED_SETTLE_MS).length;
    const span = arrivals.length === 0 ? 0 : arrivals.at(-1)! - arrivals[0]!;
    const stalls = ticks.slice(1).filter((at, index) => at - ticks[index]! >= LIST_CHANGED_SETTLE_MS).length;
    const allowed = 2 + pauses + stalls + Math.floor(span / RELIST_MAX_PAUSE_MS);
    console.info(
      `200 list_changed (${resultText(storm.result)}; ${arrivals.length} arrivals over ${span} ms, ${pauses} pauses, ${stalls} stalls) → ${after.toolsListRequestsSinceStorm} re-listing(s), ${allowed} allowed`,
    );
    expect(after.notificationsSent).toBe(200);
    expect(arrivals.length).toBeGreaterThanOrEqual(1);
    expect(after.toolsListRequestsSinceStorm).toBeGreaterThanOrEqual(1);
    expect(after.toolsListRequestsSinceStorm).toBeLessThanOrEqual(allowed);
    expect(host.servers()[0]).toMatchObject({ state: 'connected', toolCount: 2 });
  });
});
