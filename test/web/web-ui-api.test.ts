/**
 * The web UI's API with what a server may send that is too large to show whole: a structuredContent or capabilities
 * past the bound on what the page is sent still answer (cut, and said to be), instead of failing the whole answer.
 * And requests that name nothing get an answer that says what was wrong.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rugPullServerPath } from '../consent/consent-helpers.js';
import { fixtureServer, writeConfig } from '../helpers/project.js';
import { callUiApi, type RunningUi, startUi, waitForUiEvent } from '../helpers/web-ui-process.js';

let ui: RunningUi;

const api = (path: string, body?: unknown) => callUiApi<unknown>(ui, path, body);

beforeAll(async () => {
  const config = await writeConfig({
    mcpServers: {
      big: {
        command: process.execPath,
        args: [fixtureServer('big-result.mjs')],
        env: { BIG_CAPABILITIES_KEYS: '20000' },
        trust: 'trusted',
      },
      rug: { command: process.execPath, args: [rugPullServerPath] },
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

  it('answers a call of very many content blocks with the first ones and a count of the rest', async () => {
    const answer = await api('/api/tools/call', { name: 'big__many_blocks', arguments: { count: 20_000 } });
    expect(answer.status).toBe(200);
    const content = (answer.body as { content: Array<Record<string, unknown>> }).content;
    expect(content).toHaveLength(501);
    expect(content[0]).toEqual({ type: 'text', text: 'block 0' });
    expect(content[499]).toEqual({ type: 'text', text: 'block 499' });
    expect(content[500]).toEqual({ type: 'other', json: '… 19500 more content blocks not shown' });
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

  it('answers an API path that names nothing with a 404 that names it, and a broken address with a 400', async () => {
    const unknown = await api('/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'No API route GET /api/nothing-here.' });
    const posted = await api('/api/tools/nothing', {});
    expect(posted.status).toBe(404);
    expect(posted.body).toEqual({ error: 'No API route POST /api/tools/nothing.' });
    const broken = await fetch(`${ui.base}/%E0%A4%A`, { headers: { authorization: `Bearer ${ui.token}` } });
    expect(broken.status).toBe(400);
    expect(await broken.text()).toBe('The address has a broken %-escape.');
    // The app's own routes still get the page.
    const route = await fetch(`${ui.base}/tools`, { headers: { authorization: `Bearer ${ui.token}` } });
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<!doctype html>');
  });

  it('refuses a body past the limit as it arrives, without waiting for the rest, on routes that take none too', async () => {
    const limit = { error: 'The request body is larger than the limit of 1048576 bytes (1 MiB).' };
    // Two megabytes sent in pieces, and the body never ended: the answer must come anyway.
    const sendUnended = async (path: string) => {
      const sent = request(`${ui.base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ui.token}`, origin: ui.base, 'content-type': 'application/json' },
      });
      try {
        const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
          sent.on('response', (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => {
              body += chunk.toString();
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          });
          sent.on('error', reject);
        });
        sent.write('{"text":"');
        for (let piece = 0; piece < 32; piece += 1) sent.write('x'.repeat(64 * 1024));
        return await answer;
      } finally {
        sent.destroy();
      }
    };
    for (const path of ['/api/chat', '/api/chat/cancel', '/api/tools/cancel/some-call', '/api/servers/big/ping']) {
      const { status, body } = await sendUnended(path);
      expect({ path, status, body: JSON.parse(body) }).toEqual({ path, status: 413, body: limit });
    }
    // A declared length past the limit is refused before any of it is read.
    for (const path of ['/api/chat', '/api/chat/cancel']) {
      const declared = await fetch(`${ui.base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ui.token}`, origin: ui.base, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'y'.repeat(1_100_000) }),
      });
      expect({ path, status: declared.status, body: await declared.json() }).toEqual({
        path,
        status: 413,
        body: limit,
      });
    }
    // A body within the limit still reaches its route.
    expect((await api('/api/chat/cancel', { note: 'z'.repeat(1_000) })).body).toEqual({ cancelled: false });
  });

  it('approves from the Trust page only the tool it names, not a waiting question about another whose name ends the same', async () => {
    const asked = waitForEvent(/"kind":"tool-definition"/);
    // mutate changes fetch_data: the host asks about the changed definition.
    await api('/api/tools/call', { name: 'rug__mutate', arguments: {} });
    await asked;
    const before = (await api('/api/approvals')).body as Array<{ id: string; originalTool?: string }>;
    expect(before.map((approval) => approval.originalTool)).toEqual(['fetch_data']);

    const wrong = await api('/api/trust/approve', { server: 'rug', tool: 'data' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'rug does not list a tool named "data".' });
    const after = (await api('/api/approvals')).body as Array<{ id: string }>;
    expect(after.map((approval) => approval.id)).toEqual([before[0]!.id]);

    const right = await api('/api/trust/approve', { server: 'rug', tool: 'fetch_data' });
    expect(right.body).toEqual({ ok: true, message: 'Approved fetch_data.' });
    expect((await api('/api/approvals')).body).toEqual([]);
  });
});

const waitForEvent = (pattern: RegExp) => waitForUiEvent(ui, pattern);
