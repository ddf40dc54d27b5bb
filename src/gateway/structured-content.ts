/**
 * A tool's `structuredContent` as the gateway passes it on. It is the server's, untrusted, and not held by the output
 * budget that holds the content parts, so it is held to that same budget (the most of one result the caller is
 * given). Past it the answer is an error that says so: dropped silently, a client library would refuse the
 * answer of a tool that declares an outputSchema anyway, without saying why.
 */
import { DEFAULT_RESULT_TOKEN_BUDGET } from '../content/default-result-budget.js';
import { formatByteSize, formatCount } from '../content/describe-content.js';
import { estimateTokens } from '../content/linear-token-estimate.js';
import { escapePrototypeKeys } from '../json/escape-prototype-keys.js';
import { isPlainObject } from '../json/is-plain-object.js';
import { stringifyJsonWithinDepth } from '../json/json-depth.js';
import type { ExecutedToolCall } from '../loop/tool-call-types.js';

type StructuredContent =
  | { kind: 'none' }
  /** Its `__proto__` keys renamed, for the library's check of the result; `GatewayServer` names them back. */
  | { kind: 'kept'; structuredContent: Record<string, unknown> }
  | { kind: 'too-large'; text: string };

export function structuredContentOf(executed: ExecutedToolCall, toolName: string): StructuredContent {
  const structured = (executed.rawResult as { structuredContent?: unknown } | undefined)?.structuredContent;
  if (!isPlainObject(structured)) return { kind: 'none' };
  const json = stringifyJsonWithinDepth(structured, 'the structuredContent') ?? '';
  const tokens = estimateTokens(json);
  const budget = executed.maxResultTokens ?? DEFAULT_RESULT_TOKEN_BUDGET;
  if (tokens <= budget) return { kind: 'kept', structuredContent: escapePrototypeKeys(structured) };
  return {
    kind: 'too-large',
    text: `The structured result of ${toolName} is too large to pass on: about ${formatCount(tokens)} tokens (${formatByteSize(Buffer.byteLength(json))} of JSON), over the output budget of ${formatCount(budget)} tokens for one result (maxResultTokens in the host's config).`,
  };
}
