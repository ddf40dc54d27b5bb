/**
 * Placeholder substitution for scripted turns: `{{match.N}}` (capture group N of the scenario's
 * `match` against the first user message) and `{{lastToolResult}}` (the text of the most recent
 * tool results). This is what lets one script answer many prompts and report real tool output.
 */

export interface PlaceholderValues {
  /** Capture groups of the scenario match; index 0 is the whole match. */
  match: readonly (string | undefined)[];
  lastToolResult: string;
}

const placeholderPattern = /\{\{\s*(match\.(\d+)|lastToolResult)\s*\}\}/g;
const singlePlaceholderPattern = /^\{\{\s*match\.(\d+)\s*\}\}$/;
const numberPattern = /^-?\d+(\.\d+)?$/;

/** Replaces every placeholder in a text. An unknown capture group becomes an empty string. */
export function fillText(text: string, values: PlaceholderValues): string {
  return text.replace(placeholderPattern, (_whole, _name: string, group: string | undefined) =>
    group === undefined ? values.lastToolResult : (values.match[Number(group)] ?? ''),
  );
}

/**
 * Fills placeholders in tool-call arguments, recursively. A string that is exactly one
 * `{{match.N}}` placeholder and whose value looks like a number becomes a number, so
 * `"a": "{{match.1}}"` sends `"a": 2` for the prompt "add 2 and 3".
 */
export function fillArguments(value: unknown, values: PlaceholderValues): unknown {
  if (typeof value === 'string') {
    const single = singlePlaceholderPattern.exec(value);
    if (single) {
      const captured = values.match[Number(single[1])] ?? '';
      return numberPattern.test(captured) ? Number(captured) : captured;
    }
    return fillText(value, values);
  }
  if (Array.isArray(value)) return value.map((item) => fillArguments(item, values));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillArguments(item, values)]));
  }
  return value;
}
