/**
 * One word of a command the host prints for a person to paste into a shell (an approve command, a `chmod` fix, a
 * server's command line). Paths and arguments can come from configs and servers, so a printed word must paste back
 * as exactly that word and must not hide or act on any of its characters in the terminal.
 */

import { randomBytes } from 'node:crypto';
import { isInvisibleCharacter, isLookAlikeSpace } from '../text/invisible-characters.js';
import { orderedSecrets, REDACTED, replaceSecrets } from '../text/redact-secrets.js';

/** Characters that need no quoting in any POSIX shell. */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;
/** Half of a pair on its own: printed, it becomes U+FFFD and the command names another path. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Characters never printed raw: what text shows as nothing or as something else (controls, format and direction
 * characters, blank letters, variation selectors, line separators), tab and newline, every space but the ASCII one,
 * which it looks like, and half a surrogate pair.
 */
function isUnprintable(character: string): boolean {
  if (character === '\t' || character === '\n') return true;
  return isInvisibleCharacter(character) || isLookAlikeSpace(character) || LONE_SURROGATE.test(character);
}

function hasUnprintable(word: string): boolean {
  for (const character of word) if (isUnprintable(character)) return true;
  return false;
}

/**
 * The word as it is when plain, else in single quotes (inside which nothing is special but the quote itself,
 * written `'\''`). A word holding characters a terminal would act on or hide is written as `$'…'` with escapes
 * instead, so the printed command shows every character and still pastes back as the same word (bash, zsh, ksh;
 * POSIX 2024).
 */
export function quoteShellWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  if (!hasUnprintable(word)) return `'${word.replace(/'/g, `'\\''`)}'`;
  let escaped = '';
  for (const character of word) {
    const code = character.codePointAt(0)!;
    if (character === '\\' || character === "'") escaped += `\\${character}`;
    else if (!isUnprintable(character)) escaped += character;
    else if (code < 0x80) escaped += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code <= 0xffff) escaped += `\\u${code.toString(16).padStart(4, '0')}`;
    else escaped += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `$'${escaped}'`;
}

/** A command line for people, each word quoted, every secret value replaced by `[redacted]`. */
export function quoteCommandLine(words: readonly string[], secrets: readonly string[] = []): string {
  // Secrets are taken out of each word before it is quoted: quoting rewrites a `'` or a control character inside
  // a secret, and the quoted text would no longer contain the secret to replace. A mark of letters only stands in
  // for it meanwhile, which quoting leaves as it is.
  const ordered = orderedSecrets(secrets);
  const mark = `redacted${randomBytes(8).toString('hex')}`;
  return words
    .map((word) => quoteShellWord(replaceSecrets(word, ordered, mark)))
    .join(' ')
    .split(mark)
    .join(REDACTED);
}
