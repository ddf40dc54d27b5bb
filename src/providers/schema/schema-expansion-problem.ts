/**
 * Whether a listed tool's schema can be translated for providers at all, asked once when the tool is listed, so a
 * schema whose `$ref`/`allOf` resolution passes the bounds of `expansion-budget.ts` withholds that one tool there
 * (named, with the reason) instead of failing every turn that offers it.
 */

import { SchemaExpansionError } from './expansion-budget.js';
import { normaliseToolSchema } from './normalise-tool-schema.js';
import type { SchemaTarget } from './schema-rules.js';

/**
 * The targets that do the most resolution work: one inlines every reference, one keeps references but merges
 * `allOf` (as the others do, or less). Passing both means every target passes.
 */
const MOST_EXPANDING_TARGETS: readonly SchemaTarget[] = ['openai-compatible', 'openai-chat'];

/** `its input schema …` saying which bound it passed, or undefined when every provider can be offered it. */
export function schemaExpansionProblem(schema: unknown): string | undefined {
  if (!holdsResolvedKeyword(schema)) return undefined;
  for (const target of MOST_EXPANDING_TARGETS) {
    try {
      normaliseToolSchema(schema, target);
    } catch (error) {
      if (error instanceof SchemaExpansionError) return `its input schema ${error.exceeded}`;
      throw error;
    }
  }
  return undefined;
}

/** Keywords whose resolution or merging is bounded; without them the work is in proportion to the schema's size. */
const RESOLVED_KEYWORDS = ['$ref', 'allOf', 'patternProperties'];

function holdsResolvedKeyword(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (!Array.isArray(current) && RESOLVED_KEYWORDS.some((keyword) => Object.hasOwn(current, keyword))) return true;
    for (const child of Object.values(current)) if (child !== null && typeof child === 'object') stack.push(child);
  }
  return false;
}
