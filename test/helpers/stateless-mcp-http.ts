/** Answers one HTTP request for a stateless Streamable HTTP MCP server run inside the test process. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { McpServer } from '@modelcontextprotocol/server';

async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** Each POST gets a fresh server from `createServer`; a stateless server has no GET stream nor DELETE to end. */
export function answerStatelessMcp(
  request: IncomingMessage,
  response: ServerResponse,
  createServer: () => Pick<McpServer, 'connect'>,
): void {
  if (request.method !== 'POST') {
    response.writeHead(405).end();
    return;
  }
  void (async () => {
    const body = await readJsonBody(request);
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => void transport.close());
    await createServer().connect(transport);
    await transport.handleRequest(request, response, body);
  })().catch(() => {
    if (!response.headersSent) response.writeHead(500);
    response.end();
  });
}
