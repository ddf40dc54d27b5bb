/**
 * A tool result's text kept out of memory, printed whole by `tools call`: read back from its stored copy a piece at a
 * time and cut into runs that can each be redacted and cleaned on their own. A run never ends inside an occurrence of
 * a secret (it would escape redaction), between the halves of a surrogate pair, or just after a terminal control
 * sequence begins (within a few kilobytes: a longer one is still removed, its tail then printed as plain text).
 */
import { ResultStoreError } from '../content/result-store.js';
import { orderedSecrets } from '../text/redact-secrets.js';
import { CONTROL_SEQUENCE_INTRODUCER } from '../text/strip-control-codes.js';
import { isHighSurrogate } from '../text/surrogate-pairs.js';

/** The pieces of the whole text a result's text stands in for, or undefined when it is an ordinary text. */
export type WholeTextOf = (text: string) => AsyncIterable<string> | undefined;

/** How far back from a run's end a control sequence's start moves the end before it. */
const CONTROL_CARRY = 4_096;
const INTRODUCER = new RegExp(CONTROL_SEQUENCE_INTRODUCER.source, 'gu');

/** Where a run of `buffer` may end so that what follows needs nothing before it. */
function safeEnd(buffer: string, secrets: readonly string[]): number {
  let end = buffer.length - Math.max(0, (secrets[0]?.length ?? 0) - 1);
  if (end <= 0) return 0;
  INTRODUCER.lastIndex = Math.max(0, end - CONTROL_CARRY);
  let introducer = -1;
  for (let match = INTRODUCER.exec(buffer); match !== null && match.index < end; match = INTRODUCER.exec(buffer)) {
    introducer = match.index;
  }
  if (introducer !== -1) end = introducer;
  for (let moved = true; moved && end > 0; ) {
    moved = false;
    if (isHighSurrogate(buffer.charCodeAt(end - 1))) {
      end -= 1;
      moved = true;
    }
    for (const secret of secrets) {
      const at = buffer.indexOf(secret, Math.max(0, end - secret.length + 1));
      if (at !== -1 && at < end) {
        end = at;
        moved = true;
      }
    }
  }
  return end;
}

/** The text of `pieces` again, cut into runs each of which can be redacted and cleaned alone. */
export async function* wholeTextRuns(pieces: AsyncIterable<string>, secrets: readonly string[]): AsyncIterable<string> {
  const ordered = orderedSecrets(secrets);
  let carried = '';
  for await (const piece of pieces) {
    const buffer = carried + piece;
    const end = safeEnd(buffer, ordered);
    carried = buffer.slice(end);
    if (end > 0) yield buffer.slice(0, end);
  }
  if (carried !== '') yield carried;
}

/**
 * Starts reading a whole text: its pieces, or why its stored copy cannot be read (a text larger than the store keeps,
 * or one it let go) before anything was printed.
 */
export async function openWholeText(
  pieces: AsyncIterable<string>,
): Promise<{ pieces: AsyncIterable<string> } | { unreadable: string }> {
  const iterator = pieces[Symbol.asyncIterator]();
  let first: IteratorResult<string>;
  try {
    first = await iterator.next();
  } catch (error) {
    if (error instanceof ResultStoreError) return { unreadable: error.message };
    throw error;
  }
  async function* rest(): AsyncIterable<string> {
    try {
      for (let next = first; !next.done; next = await iterator.next()) yield next.value;
    } finally {
      await iterator.return?.();
    }
  }
  return { pieces: rest() };
}
