/**
 * The warnings the web UI keeps with a chat's calls count toward the bound on what a page is sent of a conversation:
 * a server that dies in the middle of many calls made together, with a long stderr line, has each of them sent once
 * more with that line in its warning, and the conversation read back is still sent within its 2,000,000 characters,
 * its earlier messages counted rather than sent.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, temporaryDirectory } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { callUiApi, type RunningUi, startUi } from '../helpers/web-ui-process.js';

/** Calls made together: each one's warning quotes the 60,000-character line (cut to 50,000), 2.25 million in all. */
const CALLS = 45;
const MAX_SHOWN_CHARS = 2_000_000;

let ui: RunningUi | undefined;

beforeAll(async () => {
  const directory = await temporaryDirectory('mcp-host-ui-warnings-');
  const config = join(directory, 'mcp-host.json');
  await writeFile(
    config,
    JSON.stringify({
      model: 'scripted:script.json',
      maxParallelCalls: CALLS,
      permissions: { allow: ['loud__*'] },
      mcpServers: {
        loud: {
          command: process.execPath,
          args: [fixtureServer('crash-mid-call.mjs')],
          env: {
            EXITED_ONCE_FILE: join(directory, 'exited-once'),
            CALLS_IN_FLIGHT_TO_EXIT: String(CALLS),
            STDERR_LINE_CHARS: '60000',
          },
          trust: 'trusted',
        },
      },
    }),
  );
  await writeFile(
    join(directory, 'script.json'),
    JSON.stringify({
      scenarios: [
        {
          match: 'read',
          turns: [
            { toolCalls: Array.from({ length: CALLS }, () => ({ name: 'loud__read_together_exits', arguments: {} })) },
            { text: 'All read.' },
          ],
        },
      ],
    }),
  );
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

interface ShownMessage {
  role: string;
  text: string;
  result?: { text: string };
  warnings?: string[];
}

describe("a chat's call warnings and the bound on what the page is sent", () => {
  it('counts them toward it, so a conversation of long warnings is sent within it', async () => {
    const api = (path: string, body?: unknown) => callUiApi(ui!, path, body);
    const sent = await api('/api/chat', { text: 'read them all' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await waitUntil(async () => (await api('/api/chat')).body.running === undefined, 'the turn to end', 60_000, 250);

    const response = await fetch(`${ui!.base}/api/chat`, { headers: { authorization: `Bearer ${ui!.token}` } });
    const text = await response.text();
    expect(response.status, text.slice(0, 500)).toBe(200);
    const { session } = JSON.parse(text) as { session: { messages: ShownMessage[]; omittedMessages: number } };
    const calls = session.messages.filter((message) => message.role === 'tool-call');
    // The calls that are sent have their warnings, each with the server's line cut.
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.warnings).toHaveLength(1);
      expect(call.warnings![0]).toMatch(/^loud__read_together_exits lost its server; trying once more.*x{1000}/s);
      expect(call.warnings![0]).toMatch(/… \(\d+ more characters\)$/);
    }
    const shownChars = session.messages.reduce(
      (sum, message) =>
        sum +
        message.text.length +
        (message.result?.text.length ?? 0) +
        (message.warnings ?? []).reduce((total, warning) => total + warning.length, 0),
      0,
    );
    expect(shownChars).toBeLessThanOrEqual(MAX_SHOWN_CHARS);
    expect(session.omittedMessages).toBeGreaterThan(0);
    // The latest messages are the ones sent: the answer, and the calls before it.
    expect(session.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'All read.' });
    expect(session.omittedMessages + session.messages.length).toBe(CALLS + 2);
  }, 90_000);
});
