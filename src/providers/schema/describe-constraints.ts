/**
 * Writes what a provider cannot express into the schema's description.
 *
 * A keyword the target rejects (a `format` it does not know, `patternProperties`, `if/then/else`…)
 * still says something true about valid input. Dropping it would let the model guess; the server
 * would then reject the call. Moving it into the description keeps the rule in front of the model.
 */

import { isPlainObject, type JsonObject } from './json-value.js';

/**
 * Longest text one described keyword may take. A huge `if/then/else` would otherwise cost more tokens
 * than the rest of the tool; the server still enforces the full rule.
 */
export const MAX_DESCRIBED_VALUE_LENGTH = 600;

/** What one schema node gained while being normalised: plain sentences and keywords moved out. */
export class DescriptionAdditions {
  private readonly sentences: string[] = [];
  private readonly constraints: [keyword: string, text: string][] = [];

  addSentence(sentence: string): void {
    this.sentences.push(sentence);
  }

  addConstraint(keyword: string, value: unknown): void {
    this.constraints.push([keyword, `${keyword}: ${formatDescribedValue(value)}`]);
  }

  get isEmpty(): boolean {
    return this.sentences.length === 0 && this.constraints.length === 0;
  }

  /** Returns the node's description with the additions appended (one per line, constraints last). */
  applyTo(description: unknown): string | undefined {
    const lines: string[] = [];
    if (typeof description === 'string' && description.trim() !== '') lines.push(description.trim());
    lines.push(...this.sentences);
    if (this.constraints.length > 0) {
      // Sorted, so the text does not depend on the order the server wrote its keywords in.
      const sorted = [...this.constraints].sort(([left], [right]) => compareKeywords(left, right));
      lines.push(`Constraints: ${sorted.map(([, text]) => text).join('; ')}`);
    }
    return lines.length > 0 ? lines.join('\n') : undefined;
  }
}

/** `if`, `then` and `else` read in that order; everything else alphabetically. */
const CONDITIONAL_ORDER = ['if', 'then', 'else'];

function compareKeywords(left: string, right: string): number {
  const leftRank = CONDITIONAL_ORDER.indexOf(left);
  const rightRank = CONDITIONAL_ORDER.indexOf(right);
  if (leftRank !== -1 || rightRank !== -1) {
    return (
      (leftRank === -1 ? CONDITIONAL_ORDER.length : leftRank) -
      (rightRank === -1 ? CONDITIONAL_ORDER.length : rightRank)
    );
  }
  return left < right ? -1 : left > right ? 1 : 0;
}

export function formatDescribedValue(value: unknown): string {
  const text = typeof value === 'string' ? value : sortedJsonPrefix(value, MAX_DESCRIBED_VALUE_LENGTH);
  if (text === undefined) return String(value);
  return text.length > MAX_DESCRIBED_VALUE_LENGTH ? `${text.slice(0, MAX_DESCRIBED_VALUE_LENGTH)}…` : text;
}

/**
 * The JSON text of `value` with object keys sorted at every level (array order kept), so the text is the same for
 * any key order; writing stops once it is longer than `limit`, so a huge value described many times (once per
 * merged `allOf` part) costs only what is shown. Undefined for a value JSON cannot write.
 */
function sortedJsonPrefix(value: unknown, limit: number): string | undefined {
  if (notJson(value)) return undefined;
  const parts: string[] = [];
  let length = 0;
  const write = (text: string) => {
    parts.push(text);
    length += text.length;
  };
  const visit = (item: unknown): void => {
    if (Array.isArray(item)) {
      write('[');
      for (let index = 0; index < item.length && length <= limit; index++) {
        if (index > 0) write(',');
        visit(notJson(item[index]) ? null : item[index]);
      }
      write(']');
    } else if (isPlainObject(item)) {
      write('{');
      let first = true;
      for (const key of Object.keys(item).sort()) {
        if (length > limit) break;
        const member = item[key];
        if (notJson(member)) continue;
        if (!first) write(',');
        first = false;
        write(`${JSON.stringify(key)}:`);
        visit(member);
      }
      write('}');
    } else {
      write(JSON.stringify(item) ?? 'null');
    }
  };
  visit(value);
  return parts.join('');
}

/** What `JSON.stringify` leaves out of an object, writes as `null` in an array, and cannot write on its own. */
function notJson(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * A root `anyOf`/`oneOf` whose branches only list required properties ("give `id` or `name`") is a
 * rule about the object, not a union of shapes: providers reject it at the root, so it is described.
 */
export function describeRequiredGroups(branches: JsonObject[], exclusive: boolean): string {
  const groups = branches.map((branch) =>
    Array.isArray(branch.required) && branch.required.length > 0 ? branch.required.join(' + ') : '(none)',
  );
  return exclusive
    ? `Give exactly one of these groups of properties: ${groups.join('; ')}.`
    : `Give at least one of these groups of properties: ${groups.join('; ')}.`;
}
