/**
 * The web UI's chat in real Chromium keeps the warnings of the calls it follows live within the bound the server
 * keeps a conversation's in: a server that dies in the middle of many calls made together, with a long stderr line,
 * has each of them sent once more with that line in its warning; the page keeps the latest calls' warnings up to
 * 1,000,000 characters in all and, in the place of the older calls' ones, the note the server puts there.
 */
import { describe, expect, it } from 'vitest';
import { DROPPED_WARNINGS_NOTE, MAX_CONVERSATION_WARNING_CHARS } from '../../src/web/call-warning-limit.js';
import { sendInChat } from '../helpers/chat-page.js';
import { writeCrashingCallsConfig } from '../helpers/crashing-calls-config.js';
import { startUiInChromium, useAroundTests } from '../helpers/web-ui-in-chromium.js';

/** Calls made together: each one's warning quotes the 60,000-character line (cut to 50,000), 2.25 million in all. */
const CALLS = 45;
const WAIT = { timeout: 60_000 };

const started = useAroundTests(async () => startUiInChromium(['--config', await writeCrashingCallsConfig(CALLS)]));

describe("the live chat page's call warnings", () => {
  it('keeps the latest calls’ within the bound and the note in place of the earlier ones', async () => {
    const page = started().page;
    const live = await sendInChat(page, 'read them all', 'All read.', WAIT);

    const warnings = await live
      .locator('.tool-card')
      .evaluateAll((cards) =>
        cards.map((card) => [...card.querySelectorAll('.notes.warnings li')].map((item) => item.textContent ?? '')),
      );
    expect(warnings).toHaveLength(CALLS);
    const kept = warnings.flat().filter((warning) => warning !== DROPPED_WARNINGS_NOTE);
    const chars = kept.reduce((sum, warning) => sum + warning.length, 0);
    expect(chars).toBeGreaterThan(0);
    expect(chars).toBeLessThanOrEqual(MAX_CONVERSATION_WARNING_CHARS);
    const dropped = warnings.filter((card) => card.length === 1 && card[0] === DROPPED_WARNINGS_NOTE);
    expect(dropped.length).toBeGreaterThan(0);
    // Each call shows its warnings or the note.
    expect(warnings.every((card) => card.length > 0)).toBe(true);
  }, 180_000);
});
