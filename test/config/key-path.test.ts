import { describe, expect, it } from 'vitest';
import { describeValue, formatKeyPath, quoteKey } from '../../src/config/key-path.js';
import { stripControlCodes } from '../../src/text/strip-control-codes.js';

/** What a terminal shows of a message part: the escapes a message is written with. */
const shown = (text: string) => stripControlCodes(text);

describe('what a config message quotes of a key or a value', () => {
  it('cuts a found string by how long it shows, an invisible character as long as its escape', () => {
    expect(describeValue('x'.repeat(41))).toBe(`the string "${'x'.repeat(40)}…"`);
    const invisible = describeValue('\u200b'.repeat(40));
    expect(shown(invisible).length).toBeLessThan(60);
    expect(invisible).toMatch(/^the string "(\u200b)+…"$/);
  });

  it('never cuts a key between the halves of a surrogate pair', () => {
    const key = `${'k'.repeat(99)}😀${'k'.repeat(10)}`;
    expect(quoteKey(key)).toBe(JSON.stringify(`${'k'.repeat(99)}…`));
    expect(formatKeyPath(['mcpServers', key])).toBe(`mcpServers[${JSON.stringify(`${'k'.repeat(99)}…`)}]`);
  });
});
