/**
 * Server-sent event framing for the mock wires. Each SDK is picky in its own way (Anthropic's
 * drops frames without an `event:` line; OpenAI's ends on `data: [DONE]`), so wires choose
 * whether to name the event; the framing itself is shared.
 */
import type { ServerResponse } from 'node:http';

export function startSse(res: ServerResponse, extraHeaders: Record<string, string> = {}): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...extraHeaders,
  });
}

/** Writes one frame: `event: <name>` (when given), `data: <json or text>`, blank line. */
export function writeSseFrame(res: ServerResponse, data: unknown, event?: string): void {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  res.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${payload}\n\n`);
}
