/**
 * A progress notification the server sends just before the call's result, in the same write, still reaches
 * `onProgress`: the host hands the result to the client only after the notification has been handled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { fixtureServer } from '../helpers/project.js';

let host: Host;
const progress: string[] = [];

beforeAll(async () => {
  host = await createHost({
    config: hostConfig([stdioServer('steps', [fixtureServer('progress-with-result.mjs')], { trust: 'trusted' })]),
    auditSink: false,
    trustStore: TrustStore.inMemory(),
    onProgress: (update) => progress.push(String(update.message)),
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
});

describe('progress sent in the same write as the result', () => {
  it('is delivered before the call ends', async () => {
    const called = await host.callTool('steps__report', {});
    expect(called.outcome).toBe('ok');
    expect(progress).toEqual(['half way']);
  }, 60_000);
});
