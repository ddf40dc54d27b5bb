/**
 * A server that floods progress notifications for one call costs the host a bounded amount of work: of each burst
 * read together only the latest progress reaches the client library and `onProgress`, the call's answer still comes
 * after it, and one diagnostic says progress is being passed over. Handing every notification on (and, before that,
 * holding the rest again after each one) made 20,000 notifications take most of a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import type { ToolProgressUpdate } from '../../src/loop/tool-call-types.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { fixtureServer } from '../helpers/project.js';

const FLOOD = 20_000;

let host: Host;
const progress: ToolProgressUpdate[] = [];
const diagnostics: string[] = [];

beforeAll(async () => {
  host = await createHost({
    config: hostConfig([
      stdioServer('flood', [fixtureServer('progress-flood.mjs')], { trust: 'trusted', timeoutMs: 30_000 }),
    ]),
    auditSink: false,
    trustStore: TrustStore.inMemory(),
    onProgress: (update) => progress.push(update),
    onDiagnostic: (message) => diagnostics.push(message),
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
});

describe('a server flooding progress notifications', () => {
  it('has its call answered, with the latest progress handed on and most of the rest passed over', async () => {
    const called = await host.callTool('flood__flood', { count: FLOOD });
    expect(called.outcome).toBe('ok');
    expect(JSON.stringify(called)).toContain(`sent ${FLOOD} progress notifications`);
    // The notifications come a thousand to a write: a few per pipe read get through, not one each.
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThan(FLOOD / 10);
    expect(progress.at(-1)).toMatchObject({ progress: FLOOD, total: FLOOD, message: `step ${FLOOD}` });
    const steps = progress.map((update) => update.progress);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(diagnostics.filter((line) => line.includes('progress notifications faster'))).toHaveLength(1);
  }, 60_000);
});
