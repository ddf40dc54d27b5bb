/**
 * A model's tool input that arrives as a parsed value (Anthropic's `input`, Gemini's `args`, the `arguments` object
 * some local servers send), written as the JSON text the loop parses. `JSON.stringify` recurses, so input nested a
 * few thousand levels deep would overflow the stack and end the whole run. Such input is written instead as text
 * nested just past the limit, which the loop refuses like any too-deep arguments: an error result for that one call,
 * and the run goes on.
 */
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../json/json-depth.js';

const TOO_DEEP_ARGUMENTS_TEXT = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;

export function toolArgumentsText(input: unknown): string {
  return exceedsJsonDepth(input) ? TOO_DEEP_ARGUMENTS_TEXT : JSON.stringify(input);
}
