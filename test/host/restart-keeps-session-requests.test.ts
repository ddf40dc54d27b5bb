/**
 * A restarted server is a new session that knows nothing of the last one: the host subscribes again to every
 * resource still subscribed and sets the log level it last set, so updates and log filtering carry on as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { fixtureServer } from '../helpers/project.js';

let host: Host;
const seen: string[] = [];
const waiters: Array<() => void> = [];

function record(line: string): void {
  seen.push(line);
  for (const wake of waiters.splice(0)) wake();
}

async function waitToSee(line: string): Promise<void> {
  while (!seen.includes(line)) await new Promise<void>((resolve) => waiters.push(resolve));
}

beforeAll(async () => {
  host = await createHost({
    config: hostConfig([stdioServer('memory', [fixtureServer('session-memory.mjs')], { trust: 'trusted' })]),
    auditSink: false,
    trustStore: TrustStore.inMemory(),
    onResourceUpdated: (update) => record(`updated ${update.uri}`),
    onServerLog: (entry) => record(`log ${String(entry.data)}`),
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
});

describe('a restarted server', () => {
  it('is subscribed again to the resources still subscribed', async () => {
    await host.resources.subscribe('memory', 'note://a');
    await host.restartServer('memory');
    const touched = await host.callTool('memory__touch', {});
    expect(touched.outcome).toBe('ok');
    await waitToSee('updated note://a');

    await host.resources.unsubscribe('memory', 'note://a');
    seen.length = 0;
    await host.restartServer('memory');
    await host.callTool('memory__touch', {});
    // The server answers with how many updates it sent.
    expect(JSON.stringify((await host.callTool('memory__touch', {})).result)).toContain('"0"');
    expect(seen).not.toContain('updated note://a');
  }, 60_000);

  it('logs from the level last set', async () => {
    await host.connection('memory')!.setLoggingLevel('error');
    await host.restartServer('memory');
    seen.length = 0;
    await host.callTool('memory__log', {});
    // The debug line is sent before the error line, so it would have been seen by now.
    await waitToSee('log error-line');
    expect(seen).not.toContain('log debug-line');
  }, 60_000);
});
