/**
 * A regular-expression engine for patterns a server wrote (`pattern`, `patternProperties` in an input schema, a
 * resource template turned into a pattern). JavaScript's own engine backtracks, so a hostile pattern such as
 * `^(a+)+$` against a long argument would hold the event loop for minutes; RE2's algorithm runs in time linear in
 * the input. What RE2 cannot express (lookaround, backreferences) fails to compile: a schema with such a pattern is
 * treated like any other uncompilable schema.
 */

import { createRequire } from 'node:module';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';

/** Loaded on first use, like Ajv itself: commands that match no pattern never pay for it. */
const load = createRequire(import.meta.url);

/** `source` compiled by RE2 (always Unicode-aware); JavaScript spellings such as named groups are translated. */
export function linearPattern(source: string): RegExpLike & { toString(): string } {
  const { RE2JS } = load('re2js') as typeof import('re2js');
  const compiled = RE2JS.compile(RE2JS.translateRegExp(source));
  return {
    test: (input: string) => compiled.test(input),
    // Ajv keeps compiled patterns keyed by `toString()`: it must tell patterns apart, as a RegExp's does.
    toString: () => `/${source}/u`,
  };
}

/** For Ajv's `code.regExp` option; the `u` flag it passes is how RE2 always reads a pattern. */
export const linearRegExp: RegExpEngine = Object.assign((source: string, _flags: string) => linearPattern(source), {
  code: 'RE2JS',
});

/**
 * As {@link linearRegExp}, but a pattern the linear-time engine cannot run (lookaround, backreferences) matches
 * everything and `onUnrunnable` hears of it, so the rest of a schema is still checked with it.
 */
export function linearRegExpSkippingUnrunnable(onUnrunnable: (source: string, reason: string) => void): RegExpEngine {
  const engine = (source: string, _flags: string): RegExpLike & { toString(): string } => {
    try {
      return linearPattern(source);
    } catch (error) {
      onUnrunnable(source, error instanceof Error ? error.message : String(error));
      return { test: () => true, toString: () => `/${source}/u` };
    }
  };
  return Object.assign(engine, { code: 'RE2JS' });
}
