/**
 * Small node:http helpers for the mock LLM server: read a request body with a size bound, answer
 * with JSON.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest request body accepted; a host sending more than this has a bug worth seeing. */
const maxRequestBodyBytes = 64 * 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor() {
    super(`Request body exceeds the mock server's limit of ${maxRequestBodyBytes} bytes`);
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxRequestBodyBytes) throw new BodyTooLargeError();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}
