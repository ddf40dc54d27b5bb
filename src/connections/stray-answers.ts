/**
 * Tells of the answers a server sends for an id nobody waits for that the host refuses, over stdio or HTTP: noise,
 * but said in a diagnostic. One that is not valid JSON-RPC is ignored (the client library passes over it); one nested
 * too deep is dropped, as nothing may walk it. Of each kind a few are told one by one, then once that further ones go
 * untold, since a server may send any number of them.
 */
import { MAX_JSON_DEPTH } from '../json/json-depth.js';
import { namedId } from './invalid-answer.js';

/** Stray answers of one kind told one by one before further ones go untold. */
const MAX_REPORTS = 5;

type Id = string | number;

/** What a connection is told of its server's stray answers: `id`, the id the answer names. */
export interface StrayAnswerReporter {
  /** An answer that is not valid JSON-RPC; `why`, what makes it so. */
  invalid(id: Id, why: string): void;
  /** An answer nested deeper than the host walks. */
  tooDeep(id: Id): void;
}

export function strayAnswerReporter(onDiagnostic: (message: string) => void): StrayAnswerReporter {
  const invalid = fewThenSilence(
    onDiagnostic,
    'keeps sending answers nobody waits for that are not valid JSON-RPC; further ones are ignored silently',
  );
  const tooDeep = fewThenSilence(
    onDiagnostic,
    'keeps sending answers nobody waits for nested too deep; further ones are refused silently',
  );
  return {
    invalid: (id, why) =>
      invalid(
        () =>
          `sent an answer to request ${namedId(id)}, which nobody waits for, that is not valid JSON-RPC (${why}); ignored`,
      ),
    tooDeep: (id) =>
      tooDeep(
        () =>
          `sent an answer to request ${namedId(id)}, which nobody waits for, nested deeper than ${MAX_JSON_DEPTH} levels; refused`,
      ),
  };
}

/** Tells the first `MAX_REPORTS` texts given, then `further` once, then nothing. */
function fewThenSilence(onDiagnostic: (message: string) => void, further: string): (text: () => string) => void {
  let reported = 0;
  return (text) => {
    reported += 1;
    if (reported <= MAX_REPORTS) onDiagnostic(text());
    else if (reported === MAX_REPORTS + 1) onDiagnostic(further);
  };
}
