/**
 * Resource templates and subscriptions through the host, against server-everything: a template's variable is
 * completed by the server (`completion/complete`), a subscribed resource's changes arrive through
 * `onResourceUpdated`, and after unsubscribing they no longer do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { packageBin } from '../client-features/helpers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';

let host: Host;
const updates: Array<{ server: string; uri: string }> = [];
let onUpdate: (() => void) | undefined;

beforeAll(async () => {
  host = await createHost({
    config: hostConfig([
      stdioServer('everything', [packageBin('@modelcontextprotocol/server-everything')], { trust: 'trusted' }),
    ]),
    auditSink: false,
    trustStore: TrustStore.inMemory(),
    onResourceUpdated: (update) => {
      updates.push(update);
      onUpdate?.();
    },
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
});

describe('resource templates and subscriptions', () => {
  it("lists templates and completes a template's variable with the server's suggestions", async () => {
    const [listing] = await host.resources.list();
    const template = listing!.templates.find((entry) => entry.name === 'Dynamic Text Resource');
    expect(template?.uriTemplate).toBe('demo://resource/dynamic/text/{resourceId}');
    expect(
      await host.resources.complete('everything', template!.uriTemplate, { name: 'resourceId', value: '7' }),
    ).toEqual(['7']);
    expect(
      await host.resources.complete('everything', template!.uriTemplate, { name: 'resourceId', value: 'x' }),
    ).toEqual([]);
  });

  it('delivers the changes of a subscribed resource, and none after unsubscribing', async () => {
    const uri = 'demo://resource/dynamic/text/7';
    await host.resources.subscribe('everything', uri);
    const first = new Promise<void>((resolve) => {
      onUpdate = resolve;
    });
    // The server sends an update for each subscription at once, then every 5 s.
    expect((await host.callTool('everything__toggle-subscriber-updates', {})).outcome).toBe('ok');
    await first;
    expect(updates[0]).toEqual({ server: 'everything', uri });
    await host.resources.unsubscribe('everything', uri);
    const seen = updates.length;
    // Toggled off and on again: the server sends for each subscription at once; there is none now.
    await host.callTool('everything__toggle-subscriber-updates', {});
    await host.callTool('everything__toggle-subscriber-updates', {});
    await host.callTool('everything__toggle-subscriber-updates', {});
    expect(updates.length).toBe(seen);
  });
});
