/**
 * The warnings the web UI keeps with a chat's calls are bounded across the conversation: a server that dies in the
 * middle of many calls made together, with a long stderr line, has each of them sent once more with that line in its
 * warning; the UI keeps the latest calls' warnings up to 1,000,000 characters in all and, in the place of the older
 * calls' ones, a note that says they were dropped. The warnings kept count toward the bound on what a page is sent
 * of a conversation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCrashingCallsConfig } from '../helpers/crashing-calls-config.js';
import { callUiApi, type RunningUi, startUi, waitForNoTurnRunning } from '../helpers/web-ui-process.js';

/** Calls made together: each one's warning quotes the 60,000-character line (cut to 50,000), 2.25 million in all. */
const CALLS = 45;
const MAX_SHOWN_CHARS = 2_000_000;
const MAX_KEPT_WARNING_CHARS = 1_000_000;
const DROPPED =
  /^Earlier warnings of this call were dropped: the UI keeps the latest 1,000,000 characters of a conversation's warnings/;

let ui: RunningUi | undefined;

beforeAll(async () => {
  ui = await startUi(['--config', await writeCrashingCallsConfig(CALLS)]);
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

describe("a chat's call warnings", () => {
  it('keeps the latest calls’ within a bound across the conversation, and says where earlier ones were dropped', async () => {
    const api = (path: string, body?: unknown) => callUiApi(ui!, path, body);
    const sent = await api('/api/chat', { text: 'read them all' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await waitForNoTurnRunning(ui!, 'the turn to end', 60_000, 250);

    const response = await fetch(`${ui!.base}/api/chat`, { headers: { authorization: `Bearer ${ui!.token}` } });
    const text = await response.text();
    expect(response.status, text.slice(0, 500)).toBe(200);
    const { session } = JSON.parse(text) as { session: { messages: ShownMessage[]; omittedMessages: number } };
    const calls = session.messages.filter((message) => message.role === 'tool-call');
    // Every call is sent, each with its warning, the server's line cut, or the note that it was dropped.
    expect(session.omittedMessages).toBe(0);
    expect(calls).toHaveLength(CALLS);
    const kept: string[] = [];
    let dropped = 0;
    for (const call of calls) {
      expect(call.warnings).toHaveLength(1);
      const warning = call.warnings![0]!;
      if (DROPPED.test(warning)) {
        dropped += 1;
        continue;
      }
      expect(warning).toMatch(/^loud__read_together_exits lost its server; trying once more.*x{1000}/s);
      expect(warning).toMatch(/… \(\d+ more characters\)$/);
      kept.push(warning);
    }
    const keptChars = kept.reduce((sum, warning) => sum + warning.length, 0);
    expect(keptChars).toBeLessThanOrEqual(MAX_KEPT_WARNING_CHARS);
    // Only as many are dropped as the bound needs.
    expect(keptChars + kept[0]!.length).toBeGreaterThan(MAX_KEPT_WARNING_CHARS);
    expect(dropped).toBe(CALLS - kept.length);
    expect(dropped).toBeGreaterThan(0);
    const shownChars = session.messages.reduce(
      (sum, message) =>
        sum +
        message.text.length +
        (message.result?.text.length ?? 0) +
        (message.warnings ?? []).reduce((total, warning) => total + warning.length, 0),
      0,
    );
    expect(shownChars).toBeLessThanOrEqual(MAX_SHOWN_CHARS);
    expect(session.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'All read.' });
  }, 90_000);
});
