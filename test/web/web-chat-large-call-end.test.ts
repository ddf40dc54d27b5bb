/**
 * A chat call whose end is too large to send a page whole (its server's result, as sent, past what one event carries)
 * is still sent with what the page pairs it with its card by and shows of it: the call's id, the model answer that
 * made it, its outcome and duration. Sent as a cut text alone, the page could not tell which call had ended, and the
 * card stayed running until the turn ended, then said the call had not finished.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, temporaryDirectory } from '../helpers/project.js';
import { callUiApi, type RunningUi, startUi } from '../helpers/web-ui-process.js';

let ui: RunningUi | undefined;

beforeAll(async () => {
  const directory = await temporaryDirectory('mcp-host-ui-large-end-');
  const config = join(directory, 'mcp-host.json');
  await writeFile(
    config,
    JSON.stringify({
      model: 'scripted:script.json',
      permissions: { allow: ['big__*'] },
      mcpServers: { big: { command: process.execPath, args: [fixtureServer('big-result.mjs')], trust: 'trusted' } },
    }),
  );
  await writeFile(
    join(directory, 'script.json'),
    JSON.stringify({
      scenarios: [
        {
          match: 'read',
          turns: [{ toolCalls: [{ name: 'big__big_text', arguments: { megabytes: 1 } }] }, { text: 'Read it.' }],
        },
      ],
    }),
  );
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

type ChatEvent = { type: string; [key: string]: unknown };

/** Follows the UI's event stream as a page does until the turn `turnId()` names is done; its chat events, in order. */
async function followTurn(running: RunningUi, turnId: () => string | undefined) {
  const response = await fetch(`${running.base}/api/events`, { headers: { authorization: `Bearer ${running.token}` } });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: Array<{ turnId: string; event: ChatEvent }> = [];
  const done = (async () => {
    let text = '';
    try {
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) return events;
        text += value;
        const lines = text.split('\n');
        text = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.startsWith('data:')) continue;
          const live = JSON.parse(line.slice('data:'.length)) as { type: string; chat?: (typeof events)[number] };
          if (live.type !== 'chat' || live.chat === undefined) continue;
          events.push(live.chat);
          if (live.chat.event.type === 'turn-done' && live.chat.turnId === turnId()) return events;
        }
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  })();
  return done;
}

describe('a chat call whose end is too large for one event', () => {
  it('is sent with its id, its answer, its outcome and its duration', async () => {
    let turnId: string | undefined;
    const followed = followTurn(ui!, () => turnId);
    const sent = await callUiApi<{ turnId: string }>(ui!, '/api/chat', { text: 'read it' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    turnId = sent.body.turnId;
    const events = (await followed).filter((each) => each.turnId === turnId).map((each) => each.event);

    const start = events.find((event) => event.type === 'tool-call-start');
    const end = events.find((event) => event.type === 'tool-call-end');
    expect(start).toBeDefined();
    expect(end).toBeDefined();
    expect(String(end!.cut).slice(-40), 'the end was sent cut').toMatch(/more characters\)$/);
    const { callId, turn, name, outcome, durationMs } = end!;
    expect({ callId, turn, name, outcome, durationMs: typeof durationMs }).toEqual({
      callId: start!.callId,
      turn: start!.turn,
      name: 'big__big_text',
      outcome: 'ok',
      durationMs: 'number',
    });
  }, 60_000);
});
