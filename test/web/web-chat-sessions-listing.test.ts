/**
 * The web UI lists a folder of many saved sessions without holding up its other requests: while the list of 20,000
 * session files is read, requests to other routes are answered, and what the list says is what the session store's
 * listing (the one `mcp-host sessions list` prints) says: the newest 500 of this config, the rest counted, and the
 * files passed over named.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/sessions/session-store.js';
import type { SessionsView } from '../../src/web/api-types.js';
import { writeConfig } from '../helpers/project.js';
import { callUiApi, type RunningUi, startUi } from '../helpers/web-ui-process.js';

/** Enough files that reading them takes the UI hundreds of milliseconds; a request elsewhere takes about one. */
const FILES = 20_000;

let ui: RunningUi | undefined;
let configFile: string;

beforeAll(async () => {
  const config = await writeConfig({ model: 'scripted:script.json', mcpServers: {} });
  await writeFile(join(dirname(config), 'script.json'), JSON.stringify({ scenarios: [], fallbackText: 'Noted.' }));
  configFile = config;
  ui = await startUi(['--config', config]);
  const folder = join(ui.stateDir, 'sessions');
  mkdirSync(folder, { recursive: true });
  const line = (value: unknown) => `${JSON.stringify(value)}\n`;
  for (let index = 0; index < FILES; index += 1) {
    const id = `20300101-000000-${index.toString(16).padStart(8, '0')}`;
    const at = new Date(Date.UTC(2030, 0, 1) + (index % 7_000) * 1_000).toISOString();
    // Every fifth of another config; a few damaged, a few of a newer version.
    const header = {
      type: 'session',
      version: index % 1_000 === 3 ? 2 : 1,
      id,
      config: index % 5 === 0 ? join(dirname(configFile), 'other.json') : configFile,
      model: 'scripted:script.json',
      createdAt: at,
      title: `Session ${index}`,
    };
    const text =
      index % 1_000 === 7
        ? '{"type":"sess'
        : line(header) +
          line({
            type: 'message',
            at,
            message: { role: 'user', content: [{ type: 'text', text: `Session ${index}` }] },
          });
    writeFileSync(join(folder, `${id}.jsonl`), text);
  }
}, 120_000);

afterAll(async () => {
  await ui?.stop();
});

describe('the list of saved conversations of a large folder', () => {
  it('says what the session store lists, and lets other requests be answered while it is read', async () => {
    const answered: string[] = [];
    const call = async <Answer>(label: string, path: string) => {
      const response = await callUiApi<Answer>(ui!, path);
      answered.push(label);
      expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(200);
      return response.body;
    };
    const listed = call<SessionsView>('list', '/api/sessions');
    // Requests to another route, one after the other, made while the list is being read.
    for (const round of [1, 2, 3]) await call(`state ${round}`, '/api/state');
    const shared = call<SessionsView>('list again', '/api/sessions');
    await call('state 4', '/api/state');
    const [view, again] = await Promise.all([listed, shared]);
    expect(answered.slice(0, 4)).toEqual(['state 1', 'state 2', 'state 3', 'state 4']);
    expect(again).toEqual(view);

    const skipped: string[] = [];
    const expected = openSessionStore(ui!.stateDir)
      .list((warning) => skipped.push(warning))
      .filter((session) => session.config === configFile);
    expect(view.sessions).toEqual(
      expected
        .slice(0, 500)
        .map(({ id, title, model, updatedAt }) => ({ id, title, model, updatedAt, current: false })),
    );
    expect(view.omitted).toBe(expected.length - 500);
    expect(view.skipped).toEqual(skipped.slice(0, 20));
    expect(skipped.length).toBe(40);
  }, 120_000);
});
