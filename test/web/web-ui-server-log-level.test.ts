/**
 * The web UI's log level control of one server: the level is kept for that server, so switched off and on from the
 * UI, or restarted by it, the server is asked it again. The forwarding fixture server answers every level it was
 * asked for, per process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, writeConfig } from '../helpers/project.js';
import { callUiApi, type RunningUi, startUi } from '../helpers/web-ui-process.js';

let ui: RunningUi;

const api = (path: string, body?: unknown) => callUiApi<Record<string, unknown>>(ui, path, body);

const levelsAsked = async (): Promise<string> => {
  const answer = await api('/api/tools/call', { name: 'forwarding__levels_asked', arguments: {} });
  expect(answer.status).toBe(200);
  return ((answer.body as { content: Array<{ text: string }> }).content[0]?.text ?? '').trim();
};

beforeAll(async () => {
  const config = await writeConfig({
    mcpServers: {
      forwarding: { command: process.execPath, args: [fixtureServer('forwarding.mjs')], trust: 'trusted' },
    },
  });
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

describe("the web UI's log level of one server", () => {
  it('is asked of the server again once it is switched off and on, or restarted', async () => {
    expect((await api('/api/servers/forwarding/log-level', { level: 'warning' })).status).toBe(200);
    expect(await levelsAsked()).toBe('warning');

    expect((await api('/api/servers/forwarding/disable', {})).status).toBe(200);
    expect((await api('/api/servers/forwarding/enable', {})).status).toBe(200);
    expect(await levelsAsked()).toBe('warning');

    expect((await api('/api/servers/forwarding/log-level', { level: 'error' })).status).toBe(200);
    expect((await api('/api/servers/forwarding/restart', {})).status).toBe(200);
    expect(await levelsAsked()).toBe('error');
    expect((await api('/api/servers/forwarding/disable', {})).status).toBe(200);
    expect((await api('/api/servers/forwarding/enable', {})).status).toBe(200);
    expect(await levelsAsked()).toBe('error');
  }, 60_000);
});
