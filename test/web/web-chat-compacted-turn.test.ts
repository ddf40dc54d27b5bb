/**
 * The web UI's chat on a turn that compacts the conversation as it starts: a page that comes while the turn runs (a
 * reload, another tab) is shown the conversation up to the turn and what the turn did so far, each where it is, though
 * the compaction replaced the older messages with a summary after the turn began.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatStateView, PendingApproval } from '../../src/web/api-types.js';
import { exampleServer, writeScriptedConfig } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { callUiApi, type RunningUi, startUi, waitForNoTurnRunning } from '../helpers/web-ui-process.js';

let ui: RunningUi | undefined;

const WINDOW = 20_000;
/** About `tokens` estimated tokens of words (some four characters a token). */
const words = (tokens: number) => 'and some more words to fill the window '.repeat(Math.round(tokens / 10));
/**
 * The last note is past the share of the window kept as it is, so the two before it are summarised; with it, the
 * question goes past the three quarters of the window at which a turn compacts first.
 */
const NOTES = ['note 1: short', 'note 2: short', `note 3: ${words(WINDOW * 0.35)}`];
const QUESTION = `add 5 and 7, ${words(WINDOW * 0.45)}`;

beforeAll(async () => {
  const config = await writeScriptedConfig(
    'mcp-host-ui-compacted-turn-',
    {
      fallbackText: 'Noted.',
      scenarios: [
        { match: '^Summarise the conversation', turns: [{ text: 'The user sent long notes.' }] },
        {
          match: '^add',
          turns: [
            { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: 5, b: 7 } }] },
            { text: 'The sum is {{lastToolResult}}' },
          ],
        },
      ],
    },
    {
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' } },
      // The call waits for an answer, so the turn is still running when the state is asked for.
      permissions: { ask: ['calculator__add_numbers'] },
      // The question below fills most of it, so its turn compacts the conversation before it starts.
      contextTokens: WINDOW,
    },
  );
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

const api = <Answer = Record<string, unknown>>(path: string, body?: unknown) => callUiApi<Answer>(ui!, path, body);

async function sendAndWait(text: string): Promise<void> {
  const sent = await api('/api/chat', { text });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await waitForNoTurnRunning(ui!);
}

describe('a chat turn that compacts the conversation as it starts', () => {
  it('is shown from where it began, after the summary and the turn kept', async () => {
    for (const note of NOTES) await sendAndWait(note);
    const before = (await api<ChatStateView>('/api/chat')).body.session!.messages;
    expect(before.some((message) => message.text.startsWith('[Summary'))).toBe(false);

    const sent = await api('/api/chat', { text: QUESTION });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    let pending: PendingApproval[] = [];
    await waitUntil(async () => {
      pending = (await api<PendingApproval[]>('/api/approvals')).body;
      return pending.length === 1;
    }, 'the call to wait for approval');

    const state = (await api<ChatStateView>('/api/chat')).body;
    const shown = state.session!.messages;
    // Compacted: the summary stands for the older notes, and the last note's turn is kept whole before this turn.
    expect(shown[0]?.text.startsWith('[Summary')).toBe(true);
    expect(shown.at(-2)?.text.startsWith('note 3:')).toBe(true);
    expect(shown.at(-1)).toEqual({ role: 'assistant', text: 'Noted.' });
    expect(state.running?.prompt.startsWith('add 5 and 7')).toBe(true);
    expect(state.running?.messages.map(({ role, toolName }) => ({ role, toolName }))).toEqual([
      { role: 'tool-call', toolName: 'calculator__add_numbers' },
    ]);

    const answered = await api(`/api/approvals/${pending[0]!.id}`, { answer: 'allow-once' });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    await waitForNoTurnRunning(ui!);
    expect((await api<ChatStateView>('/api/chat')).body.session!.messages.at(-1)?.text).toContain('The sum is');
  }, 90_000);
});
