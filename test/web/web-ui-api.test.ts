/**
 * The web UI's API with what a server may send that is too large to show whole: a structuredContent or capabilities
 * past the bound on what the page is sent still answer (cut, and said to be), instead of failing the whole answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, writeConfig } from '../helpers/project.js';
import { type RunningUi, startUi } from './web-ui-process.js';

let ui: RunningUi;

async function api(path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${ui.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { cookie: `mcp_host_ui=${ui.token}`, origin: ui.base, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  const config = await writeConfig({
    mcpServers: {
      big: {
        command: process.execPath,
        args: [fixtureServer('big-result.mjs')],
        env: { BIG_CAPABILITIES_KEYS: '20000' },
        trust: 'trusted',
      },
    },
  });
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

describe('the web UI API with large server data', () => {
  it('answers a call whose structuredContent is past the bound, cut and said to be', async () => {
    const small = await api('/api/tools/call', { name: 'big__big_structured', arguments: { keys: 3 } });
    expect(small.status).toBe(200);
    expect((small.body as { structuredContent: unknown }).structuredContent).toEqual({
      k0: { n: 0 },
      k1: { n: 1 },
      k2: { n: 2 },
    });

    const large = await api('/api/tools/call', { name: 'big__big_structured', arguments: { keys: 20_000 } });
    expect(large.status).toBe(200);
    const view = large.body as { content: unknown; structuredContent: unknown };
    expect(view.content).toEqual([{ type: 'text', text: '20000 keys' }]);
    expect(typeof view.structuredContent).toBe('string');
    expect(view.structuredContent).toMatch(/^\{"k0":\{"n":0\},"k1":/);
    expect(view.structuredContent).toMatch(/\n… \(\d+ more characters not shown\)$/);
  });

  it('lists a server whose capabilities are past the bound, with them cut and said to be', async () => {
    const servers = await api('/api/servers');
    expect(servers.status).toBe(200);
    const [big] = servers.body as Array<{ name: string; capabilities: Record<string, unknown> }>;
    expect(big?.name).toBe('big');
    const shown = big!.capabilities['(not shown whole)'];
    expect(shown).toMatch(/"experimental":\{"x0":\{"n":0\}/);
    expect(shown).toMatch(/\n… \(\d+ more characters not shown\)$/);
  });
});
