/**
 * The one shell quoting behind every command the host prints (approve commands, `chmod` fixes, a server's command
 * line): plain words stay as they are, anything else pastes back into bash as exactly the same word, and no
 * character a terminal would act on or hide is printed raw.
 */
import { describe, expect, it } from 'vitest';
import { quoteShellWord } from '../../src/json/quote-shell-word.js';
import { hasControlCodes } from '../../src/text/strip-control-codes.js';
import { wordsAsBashReadsThem } from '../helpers/shell-words.js';

const ODD_WORDS = [
  '',
  'two words',
  "o'brien",
  "''",
  '$HOME',
  '`id` $(id) *.json ~ #',
  'back\\slash',
  'line\nbreak',
  'tab\there',
  'zoë проекты 設定',
  'emoji 🚀',
  '\u001b[31mred',
  'right\u202eleft',
  'zero\u200bwidth',
  "mixed 'quote' and \u0007bell\\",
  '-dash',
  'blank\u3164letter',
  'heart\u2764\ufe0f',
  'no\u00a0break and ideographic\u3000space',
];

describe('quoteShellWord', () => {
  it('leaves a word of only plain characters as it is', () => {
    for (const word of ['calc', 'plain-word_1.json', '/srv/app/mcp-host.json', 'a@b%c+d=e:f,g']) {
      expect(quoteShellWord(word)).toBe(word);
    }
  });

  it("single-quotes any other printable word, writing ' as '\\''", () => {
    expect(quoteShellWord('')).toBe("''");
    expect(quoteShellWord('two words')).toBe("'two words'");
    expect(quoteShellWord("o'brien")).toBe("'o'\\''brien'");
    expect(quoteShellWord('$HOME')).toBe("'$HOME'");
    expect(quoteShellWord('zoë')).toBe("'zoë'");
  });

  it('escapes control, direction and invisible characters instead of printing them raw', () => {
    expect(quoteShellWord('line\nbreak')).toBe("$'line\\x0abreak'");
    expect(quoteShellWord('right\u202eleft')).toBe("$'right\\u202eleft'");
    expect(quoteShellWord("it's \u001b")).toBe("$'it\\'s \\x1b'");
    // Blank letters, variation selectors and spaces other than the ASCII one look like something they are not.
    expect(quoteShellWord('state\u3164dir')).toBe("$'state\\u3164dir'");
    expect(quoteShellWord('a\ufe0f')).toBe("$'a\\ufe0f'");
    expect(quoteShellWord('a\u00a0b c')).toBe("$'a\\u00a0b c'");
    expect(quoteShellWord('half\ud800pair')).toBe("$'half\\ud800pair'");
    expect(quoteShellWord('braille\u2800blank')).toBe("$'braille\\u2800blank'");
    for (const word of ODD_WORDS) {
      const quoted = quoteShellWord(word);
      expect(hasControlCodes(quoted), JSON.stringify(word)).toBe(false);
      expect(quoted).not.toMatch(/[\n\u202e\u200b]/);
    }
  });

  it('is read back by bash as the same word, however odd', () => {
    const read = wordsAsBashReadsThem(ODD_WORDS.map(quoteShellWord));
    expect(read).toEqual(ODD_WORDS.map((word) => [word]));
  });
});
