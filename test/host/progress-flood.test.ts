/**
 * A server that floods progress notifications for one call costs the host a bounded amount of work: of each burst
 * read together only the latest progress reaches the client library and `onProgress`, the call's answer still comes
 * after it, and one diagnostic says progress is being passed over. Handing every notification on (and, before that,
 * holding the rest again after each one) made 20,000 notifications take most of a minute over stdio; over Streamable
 * HTTP each one handed on cost the client library's checks, three times the CPU of the flood thinned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostConfig } from '../../src/config/types.js';
import { createHost, type Host } from '../../src/host/create-host.js';
import type { ToolProgressUpdate } from '../../src/loop/tool-call-types.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { type ProgressFloodServer, startProgressFloodServer } from '../fixtures/faults/progress-flood-http-server.js';
import { hostConfig, httpServer, stdioServer } from '../helpers/configs.js';
import { fixtureServer } from '../helpers/project.js';

const FLOOD = 20_000;

function floodedHost(server: () => HostConfig['servers'][number]) {
  const state = {
    host: undefined as Host | undefined,
    progress: [] as ToolProgressUpdate[],
    diagnostics: [] as string[],
  };
  beforeAll(async () => {
    state.host = await createHost({
      config: hostConfig([server()]),
      auditSink: false,
      trustStore: TrustStore.inMemory(),
      onProgress: (update) => state.progress.push(update),
      onDiagnostic: (message) => state.diagnostics.push(message),
    });
  }, 60_000);
  afterAll(async () => {
    await state.host?.close();
  });
  return state;
}

function expectThinned(state: ReturnType<typeof floodedHost>): void {
  // The notifications come a thousand to a write: a few per read get through, not one each.
  expect(state.progress.length).toBeGreaterThan(0);
  expect(state.progress.length).toBeLessThan(FLOOD / 10);
  expect(state.progress.at(-1)).toMatchObject({ progress: FLOOD, total: FLOOD, message: `step ${FLOOD}` });
  const steps = state.progress.map((update) => update.progress);
  expect(steps).toEqual([...steps].sort((a, b) => a - b));
  expect(state.diagnostics.filter((line) => line.includes('progress notifications faster'))).toHaveLength(1);
}

describe('a stdio server flooding progress notifications', () => {
  const state = floodedHost(() =>
    stdioServer('flood', [fixtureServer('progress-flood.mjs')], { trust: 'trusted', timeoutMs: 30_000 }),
  );

  it('has its call answered, with the latest progress handed on and most of the rest passed over', async () => {
    const called = await state.host!.callTool('flood__flood', { count: FLOOD });
    expect(called.outcome).toBe('ok');
    expect(JSON.stringify(called)).toContain(`sent ${FLOOD} progress notifications`);
    expectThinned(state);
  }, 60_000);
});

describe('a Streamable HTTP server flooding progress notifications', () => {
  let server: ProgressFloodServer;
  beforeAll(async () => {
    server = await startProgressFloodServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const state = floodedHost(() => httpServer('flood', server.url, { trust: 'trusted', timeoutMs: 30_000 }));

  it('has its call answered, with the latest progress handed on and most of the rest passed over', async () => {
    const started = Date.now();
    const called = await state.host!.callTool('flood__flood', { count: FLOOD });
    console.log(
      `${FLOOD} progress notifications over HTTP: ${state.progress.length} handed on, answered in ${Date.now() - started} ms`,
    );
    expect(called.outcome).toBe('ok');
    expect(JSON.stringify(called)).toContain(`sent ${FLOOD} progress notifications`);
    expectThinned(state);
  }, 60_000);
});
