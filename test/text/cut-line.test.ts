/** A line cut to a length: control codes gone, white space folded, and never half of a surrogate pair before the ellipsis. */
import { expect, it } from 'vitest';
import { cutLine } from '../../src/text/cut-line.js';

it('cuts before a surrogate pair the length would split, not inside it', () => {
  // Nine characters fit before the ellipsis; the ninth and tenth are the two halves of one emoji.
  const cut = cutLine(`${'a'.repeat(8)}😀tail`, 10);
  expect(cut).toBe(`${'a'.repeat(8)}…`);
});

it('folds white space, drops control codes and leaves a short line whole', () => {
  expect(cutLine('one\n\t two\u001b[2J', 40)).toBe('one two');
  expect(cutLine('x'.repeat(12), 10)).toBe(`${'x'.repeat(9)}…`);
});
