/**
 * Tells of the answers a remote server sends for an id nobody waits for that are not valid JSON-RPC, on a stream no
 * request of its own is behind: noise, as such a line from a stdio server is, but said in a diagnostic. A few are told
 * one by one, then once that further ones go untold, since a server may send any number of them.
 */
import { quoted } from './invalid-answer.js';

/** Stray answers told one by one before further ones are only counted. */
const MAX_REPORTS = 5;

/** A teller for one connection: `id`, the id the answer names; `why`, what makes it not valid. */
export function strayAnswerReporter(
  onDiagnostic: (message: string) => void,
): (id: string | number, why: string) => void {
  let reported = 0;
  return (id, why) => {
    reported += 1;
    if (reported <= MAX_REPORTS) {
      // The id is the server's: a string is quoted cut, its hidden characters escaped.
      const named = typeof id === 'number' ? String(id) : quoted(id);
      onDiagnostic(
        `sent an answer to request ${named}, which nobody waits for, that is not valid JSON-RPC (${why}); ignored`,
      );
    } else if (reported === MAX_REPORTS + 1) {
      onDiagnostic(
        'keeps sending answers nobody waits for that are not valid JSON-RPC; further ones are ignored silently',
      );
    }
  };
}
