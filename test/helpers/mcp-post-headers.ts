/**
 * The headers of a Streamable HTTP POST to the gateway, as a 2025-06-18 client sends them: its bearer token, a JSON
 * body, both kinds of answer accepted, and its session once it has one.
 */
export function mcpPostHeaders(token: string, sessionId?: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
    ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
  };
}
