/**
 * A regular-expression engine for patterns a server wrote (`pattern`, `patternProperties` in an input schema).
 * JavaScript's own engine backtracks, so a hostile pattern such as `^(a+)+$` against a long argument would hold the
 * event loop for minutes; RE2's algorithm runs in time linear in the input. What RE2 cannot express (lookaround,
 * backreferences) fails to compile, and the schema is then treated like any other uncompilable schema.
 */

import { createRequire } from 'node:module';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';

/** Loaded on first use, like Ajv itself: commands that call no tool never pay for it. */
const load = createRequire(import.meta.url);

function compileLinear(pattern: string, _flags: string): RegExpLike {
  const { RE2JS } = load('re2js') as typeof import('re2js');
  // `translateRegExp` maps JavaScript spellings (named groups, `\u{...}`) to RE2's; RE2 is always Unicode-aware,
  // which is the `u` flag Ajv asks for.
  const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  // Ajv keeps compiled patterns keyed by `toString()`: it must tell patterns apart, as a RegExp's does.
  const engine: RegExpLike & { toString(): string } = {
    test: (input: string) => compiled.test(input),
    toString: () => `/${pattern}/u`,
  };
  return engine;
}

export const linearRegExp: RegExpEngine = Object.assign(compileLinear, { code: 'RE2JS' });
