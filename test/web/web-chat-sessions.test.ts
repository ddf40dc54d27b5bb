/**
 * The web UI's chat and the session locks a terminal chat respects: the page lets go of the session it leaves (so
 * `mcp-host chat --resume` can take it while the page stays open), and a session another process holds is refused
 * with the reason, the page keeping what it had open; a long saved session, of which the page is sent the latest
 * messages and the count of those left out; and a compacted session whose model repeats its call ids, shown with the
 * numbers and results the terminal chat gives its calls.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfig } from '../helpers/project.js';
import { callUiApi, type RunningUi, startUi, waitForNoTurnRunning } from '../helpers/web-ui-process.js';

let ui: RunningUi;
let configFile: string;

const api = (path: string, body?: unknown) => callUiApi(ui, path, body);

const lockOf = (id: string) => join(ui.stateDir, 'sessions', `${id}.lock`);

/** The line a saved session of the UI's config opens with. */
const sessionLine = (id: string, createdAt: string, title: string) =>
  JSON.stringify({
    type: 'session',
    version: 1,
    id,
    config: configFile,
    model: 'scripted:script.json',
    createdAt,
    title,
  });

/** Saves session `id` with `lines` in the UI's state folder, as a chat would have. */
const saveSession = (id: string, lines: string[]) =>
  writeFile(join(ui.stateDir, 'sessions', `${id}.jsonl`), `${lines.join('\n')}\n`);

beforeAll(async () => {
  const config = await writeConfig({ model: 'scripted:script.json', mcpServers: {} });
  await writeFile(join(dirname(config), 'script.json'), JSON.stringify({ scenarios: [], fallbackText: 'Noted.' }));
  configFile = config;
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
    await waitForNoTurnRunning(ui);
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

describe('a long saved session resumed in the web chat', () => {
  it('sends the page its latest messages within a bound, with the count of the earlier ones', async () => {
    const id = '20260101-100000-00000a11';
    const at = '2026-01-01T10:00:00.000Z';
    const lines = [sessionLine(id, at, 'Long')];
    // 120 messages of 50,000 characters: 6 million characters, past what is sent at once.
    for (let index = 0; index < 120; index += 1) {
      const role = index % 2 === 0 ? 'user' : 'assistant';
      const text = `message ${index} ${'x'.repeat(50_000)}`;
      lines.push(JSON.stringify({ type: 'message', at, message: { role, content: [{ type: 'text', text }] } }));
    }
    await saveSession(id, lines);

    const response = await fetch(`${ui.base}/api/sessions/resume`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ui.token}`, origin: ui.base, 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    });
    const text = await response.text();
    expect(response.status, text.slice(0, 500)).toBe(200);
    expect(text.length).toBeLessThan(2_200_000);
    const view = JSON.parse(text) as { messages: Array<{ text: string }>; omittedMessages: number };
    // Each is cut, saying how much was left out.
    expect(view.messages.at(-1)?.text).toMatch(/^message 119 x+ … \(12 more characters\)$/);
    expect(view.omittedMessages).toBeGreaterThan(0);
    expect(view.omittedMessages + view.messages.length).toBe(120);
    expect(view.messages[0]?.text).toMatch(new RegExp(`^message ${view.omittedMessages} `));
  }, 60_000);
});

describe('a compacted session resumed in the web chat', () => {
  it('numbers its calls after those the compaction replaced, each with its own turn’s result', async () => {
    const id = '20260101-110000-00000b22';
    const at = '2026-01-01T11:00:00.000Z';
    const text = (value: string) => [{ type: 'text', text: value }];
    // A local model's turns: the call is `call_0` at every turn.
    const turn = (ms: number) => [
      { role: 'user', content: text(`sleep ${ms}`) },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', id: 'call_0', name: 'counter__sleep', argumentsText: `{"ms":${ms}}` }],
      },
      {
        role: 'tool',
        results: [{ callId: 'call_0', toolName: 'counter__sleep', isError: false, content: text(`slept ${ms} ms`) }],
      },
      { role: 'assistant', content: text(`Slept ${ms}.`) },
    ];
    const message = (value: unknown) => JSON.stringify({ type: 'message', at, message: value });
    const lines = [
      sessionLine(id, at, 'Sleeps'),
      ...[...turn(11), ...turn(22)].map(message),
      JSON.stringify({
        type: 'compaction',
        at,
        messages: [
          {
            role: 'user',
            content: text('[Summary of the earlier conversation, written when it was compacted]\n\nSleeps.'),
          },
          { role: 'assistant', content: text('Understood. I will continue from this summary.') },
        ],
        keptFrom: 8,
        replacedToolCalls: 2,
      }),
      ...[...turn(33), ...turn(44)].map(message),
    ];
    await saveSession(id, lines);

    const resumed = await api('/api/sessions/resume', { id });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    const calls = (
      resumed.body.messages as Array<{ role: string; text: string; number?: number; result?: { text: string } }>
    )
      .filter((view) => view.role === 'tool-call')
      .map((view) => [view.number, view.text, view.result?.text]);
    expect(calls).toEqual([
      [3, '{"ms":33}', 'slept 33 ms'],
      [4, '{"ms":44}', 'slept 44 ms'],
    ]);
  }, 60_000);
});
