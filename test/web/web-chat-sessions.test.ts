/**
 * The web UI's chat and the session locks a terminal chat respects: the page lets go of the session it leaves (so
 * `mcp-host chat --resume` can take it while the page stays open), and a session another process holds is refused
 * with the reason, the page keeping what it had open.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfig } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { callUiApi, type RunningUi, startUi } from '../helpers/web-ui-process.js';

let ui: RunningUi;

const api = (path: string, body?: unknown) => callUiApi(ui, path, body);

const lockOf = (id: string) => join(ui.stateDir, 'sessions', `${id}.lock`);

beforeAll(async () => {
  const config = await writeConfig({ model: 'scripted:script.json', mcpServers: {} });
  await writeFile(join(dirname(config), 'script.json'), JSON.stringify({ scenarios: [], fallbackText: 'Noted.' }));
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

describe('web chat sessions and their locks', () => {
  it('lets go of the session it leaves, and refuses one another process holds', async () => {
    const sent = await api('/api/chat', { text: 'remember this' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const first = sent.body.sessionId as string;
    await waitUntil(async () => (await api('/api/chat')).body.running === undefined, 'the turn to end');
    expect(existsSync(lockOf(first))).toBe(true);

    const opened = await api('/api/sessions/new', {});
    expect(opened.status).toBe(200);
    expect(existsSync(lockOf(first))).toBe(false);

    // Another process (this test's) holds the first session now, as a terminal chat would.
    writeFileSync(lockOf(first), `${process.pid}\n`);
    const refused = await api('/api/sessions/resume', { id: first });
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toContain(lockOf(first));
    // The page keeps the conversation it had open.
    expect(((await api('/api/chat')).body.session as { id: string }).id).toBe(opened.body.id);

    writeFileSync(lockOf(first), '');
    const resumed = await api('/api/sessions/resume', { id: first });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.id).toBe(first);
  }, 60_000);
});
