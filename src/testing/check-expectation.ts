/**
 * Checks a scripted turn's `expect` against the request, so a script can assert what the host sent
 * (tools offered, tool results and their error flag) and fail loudly, naming what it expected and
 * what it found.
 */
import type { ConversationView, ScriptExpectation } from './script-types.js';

/** Longest excerpt of a tool result quoted in a failure message. */
const maxQuotedCharacters = 300;

/** Returns a message describing the first unmet expectation, or undefined when all hold. */
export function checkExpectation(expectation: ScriptExpectation, view: ConversationView): string | undefined {
  const missingTools = (expectation.toolsInclude ?? []).filter((name) => !view.toolNames.includes(name));
  if (missingTools.length > 0) {
    const offered = view.toolNames.length > 0 ? view.toolNames.join(', ') : '(none)';
    return `expected the request to offer tool(s) ${missingTools.join(', ')}; tools offered: ${offered}`;
  }
  const needsResults =
    expectation.lastToolResultIncludes !== undefined || expectation.lastToolResultIsError !== undefined;
  if (needsResults && view.lastToolResults.length === 0) {
    return 'expected tool results in the last message of the request; found none';
  }
  const joined = view.lastToolResults.map((result) => result.text).join('\n');
  if (expectation.lastToolResultIncludes !== undefined && !joined.includes(expectation.lastToolResultIncludes)) {
    return `expected the last tool result to include ${JSON.stringify(expectation.lastToolResultIncludes)}; found ${quote(joined)}`;
  }
  if (expectation.lastToolResultIsError !== undefined) {
    const flags = view.lastToolResults.map((result) => result.isError);
    const matches = expectation.lastToolResultIsError ? flags.some(Boolean) : !flags.some(Boolean);
    if (!matches) {
      return `expected the last tool result ${expectation.lastToolResultIsError ? 'to be' : 'not to be'} flagged as an error; error flags found: ${flags.join(', ')}`;
    }
  }
  return undefined;
}

function quote(text: string): string {
  if (text.length <= maxQuotedCharacters) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, maxQuotedCharacters))} (… ${text.length - maxQuotedCharacters} more characters)`;
}
