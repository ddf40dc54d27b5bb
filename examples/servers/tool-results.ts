/**
 * Tool results shared by the example servers. A tool that cannot do what was asked answers with an
 * error result (`isError: true`) rather than a protocol error, so the model sees the message and can
 * correct itself; these helpers keep that shape in one place.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';

/** A successful result carrying one text block. */
export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** A failed result: the message should say what failed and what to do instead. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
