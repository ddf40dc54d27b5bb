/**
 * A server's question is a chat turn's only while that turn runs: a sampling request a stdio server made during the
 * turn's call, but outside that call (the server does not withdraw it when the call is cancelled), still waits after
 * the turn is stopped, and is then listed, and sent to the pages, as no turn's, so its dialog no longer offers Stop the
 * turn; `POST /api/chat/stop` refuses it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/web/api-types.js';
import { fixtureServer, writeScriptedConfig } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { callUiApi, type RunningUi, startUi, waitForNoTurnRunning } from '../helpers/web-ui-process.js';

let ui: RunningUi | undefined;

beforeAll(async () => {
  const config = await writeScriptedConfig(
    'mcp-host-ui-question-after-turn-',
    {
      scenarios: [
        {
          match: '^sample',
          turns: [
            { toolCalls: [{ name: 'asks__ask_model', arguments: { prompt: 'Say hello.', aside: true } }] },
            { text: 'The model heard: {{lastToolResult}}' },
          ],
        },
      ],
    },
    {
      mcpServers: {
        asks: { command: process.execPath, args: [fixtureServer('asks-when-told.mjs')], trust: 'trusted' },
      },
      permissions: { allow: ['asks__*'] },
    },
  );
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

/** Follows the UI's event stream as a page does, keeping each list of waiting questions it is sent. */
async function followApprovalLists(
  running: RunningUi,
): Promise<{ lists: PendingApproval[][]; stop: () => Promise<void> }> {
  const response = await fetch(`${running.base}/api/events`, { headers: { authorization: `Bearer ${running.token}` } });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const lists: PendingApproval[][] = [];
  let text = '';
  const read = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += value;
      const lines = text.split('\n');
      text = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('data:')) continue;
        const event = JSON.parse(line.slice('data:'.length)) as { type: string; pending?: PendingApproval[] };
        if (event.type === 'approvals' && event.pending !== undefined) lists.push(event.pending);
      }
    }
  })();
  return {
    lists,
    stop: async () => {
      await reader.cancel().catch(() => undefined);
      await read.catch(() => undefined);
    },
  };
}

describe("a server's question of a chat turn that was stopped", () => {
  it('is no turn’s once the turn ended, on the list and in what the pages are sent', async () => {
    const running = ui!;
    const sent = await callUiApi<{ turnId: string }>(running, '/api/chat', { text: 'sample it' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    let pending: PendingApproval[] = [];
    await waitUntil(async () => {
      pending = (await callUiApi<PendingApproval[]>(running, '/api/approvals')).body;
      return pending.length === 1;
    }, 'the sampling request to wait');
    const question = pending[0]!;
    expect(question.kind).toBe('sampling');
    expect(question.chatTurn).toBe(sent.body.turnId);

    // Listening before the turn is stopped: a page open all along is told the question is no turn's any more.
    const sentToPages = await followApprovalLists(running);
    try {
      expect((await callUiApi(running, '/api/chat/cancel', {})).body).toEqual({ cancelled: true });
      await waitForNoTurnRunning(running);
      await waitUntil(
        () =>
          sentToPages.lists.some(
            (list) => list.length === 1 && list[0]!.id === question.id && list[0]!.chatTurn === undefined,
          ),
        'the pages to be told the question is no turn’s',
      );
    } finally {
      await sentToPages.stop();
    }

    pending = (await callUiApi<PendingApproval[]>(running, '/api/approvals')).body;
    expect(pending.map((approval) => approval.id)).toEqual([question.id]);
    expect(pending[0]!.chatTurn).toBeUndefined();
    const refused = await callUiApi(running, '/api/chat/stop', { approval: question.id });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    const answered = await callUiApi(running, `/api/approvals/${question.id}`, { answer: 'deny' });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
  }, 60_000);
});
