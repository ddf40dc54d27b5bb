/**
 * How the web UI shows a value to be sent back that hides characters, without changing the value, and a name the user
 * picks or compares by, so that no two names show alike.
 */
import { describe, expect, it } from 'vitest';
import { isInvisibleCharacter } from '../../src/text/invisible-characters.js';
import {
  hasHiddenCharacters,
  jsonShowingHiddenCharacters,
  showHiddenCharacters,
  showName,
} from '../../web/src/hidden-characters.js';

/** A direction override, a zero-width space, a tag character (past U+FFFF), a C1 control and a line separator. */
const HIDING = 'a\u202eb\u200bc\u{e0041}d\u0085e\u2028f';

describe('values that hide characters', () => {
  it('writes JSON with each one as a JSON escape, which reads back as the very same value, keys included', () => {
    const value = { [`key${HIDING}`]: [HIDING, { nested: HIDING }], plain: 'π ok' };
    for (const space of [undefined, 2]) {
      const json = jsonShowingHiddenCharacters(value, space);
      expect([...json].filter(isInvisibleCharacter)).toEqual([]);
      expect(json).toContain('a\\u202eb\\u200bc\\udb40\\udc41d\\u0085e\\u2028f');
      expect(json).toContain('"π ok"');
      expect(JSON.parse(json)).toEqual(value);
    }
  });

  it('writes every space but the ASCII one, and the blank braille pattern, as a JSON escape too', () => {
    const value = { text: 'a\u00a0b\u3000c d\u2800e' };
    const json = jsonShowingHiddenCharacters(value);
    expect(json).toBe('{"text":"a\\u00a0b\\u3000c d\\u2800e"}');
    expect(JSON.parse(json)).toEqual(value);
  });

  it('shows them as escapes, and a line break too where the field is one line', () => {
    expect(showHiddenCharacters(HIDING, true)).toBe('a\\u202eb\\u200bc\\u{e0041}d\\x85e\\u2028f');
    expect(showHiddenCharacters('one\ntwo', true)).toBe('one\\ntwo');
    expect(showHiddenCharacters('one\ntwo', false)).toBe('one\ntwo');
    expect(hasHiddenCharacters('one\ntwo', true)).toBe(true);
    expect(hasHiddenCharacters('one\ntwo\tthree', false)).toBe(false);
    expect(hasHiddenCharacters('plain, with π and ✓', true)).toBe(false);
  });

  it('shows a name with every one, a tab and a line break as an escape, and a backslash doubled', () => {
    expect(showName(HIDING)).toBe('a\\u202eb\\u200bc\\u{e0041}d\\x85e\\u2028f');
    expect(showName('one\ntwo\tthree')).toBe('one\\ntwo\\tthree');
    expect(showName('delete_file')).toBe('delete_file');
    // A name that spells out another's escape does not show as that other name.
    expect(showName('delete\\u200b_file')).not.toBe(showName('delete\u200b_file'));
    expect(showName('C:\\dir')).toBe('C:\\\\dir');
    // Spaces a browser would collapse or drop show as escapes; one between two words stays a space.
    expect(showName('a  b')).toBe('a\\x20\\x20b');
    expect(showName(' a b ')).toBe('\\x20a b\\x20');
    expect(showName('a\\x20b')).not.toBe(showName('a b'));
    // Other spaces look like the ASCII one: each shows as its escape.
    expect(showName('a\u00a0b')).toBe('a\\xa0b');
    expect(showName('a\u3000b\u2009c')).toBe('a\\u3000b\\u2009c');
    expect(showName('a\u00a0b')).not.toBe(showName('a b'));
  });
});
