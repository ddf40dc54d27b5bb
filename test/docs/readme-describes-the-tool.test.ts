/**
 * The README says what the tool does, not what it did: a reader meets the tool as it is. Sentences that compare with
 * an earlier version ("printed … before", "as before", "used to", "before … went", "took … before this") belong in
 * the commit history. The measured figures of the faults table ("was 23.7 s") compare two runs, not two versions of
 * the text, and are not looked for here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/project.js';

const CHANGELOG_WORDING: readonly RegExp[] = [
  /\bas before\b/i,
  /\bused to\b/i,
  /\b(printed|said|showed|exited) [^.|]*\bbefore[,.)]/i,
  /, where it (waited|printed|said|showed|exited)\b/i,
  // "3.31× before texts over 8 MiB went to the result store": a figure measured before a change.
  /\bbefore [^.|,;]{0,60}\bwent\b/i,
  // "took 78 s before this, 4.7 s after": the cost before a change.
  /\btook [^.|;]{0,60}\bbefore this\b/i,
];

describe('the README', () => {
  it('describes the tool as it is, with no sentence about how it was before', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const found = CHANGELOG_WORDING.flatMap((pattern) => {
      const match = pattern.exec(readme);
      return match === null ? [] : [readme.slice(Math.max(0, match.index - 60), match.index + match[0].length + 20)];
    });
    expect(found).toEqual([]);
  });
});
