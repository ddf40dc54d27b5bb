/**
 * The bench server over Streamable HTTP on 127.0.0.1 (a free port), one stateful session per client:
 * `node bench/servers/http-server.mjs` prints `LISTENING <url>` on stdout once it accepts connections.
 * The gateway load benchmark sends the same load to it directly and through `mcp-host serve`.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import { createBenchServer } from './bench-tools.mjs';

const sessions = new Map();

async function readJson(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const http = createServer(async (request, response) => {
  try {
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    const id = request.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return await known.handleRequest(request, response, body);
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      response.writeHead(400).end();
      return;
    }
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createBenchServer().connect(transport);
    await transport.handleRequest(request, response, body);
  } catch (error) {
    process.stderr.write(`bench http server: ${error.message}\n`);
    if (!response.headersSent) response.writeHead(500);
    response.end();
  }
});
// Longer than any pause in the load, so the server never closes a kept-alive socket a client is about to reuse.
http.keepAliveTimeout = 60_000;
http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`LISTENING http://127.0.0.1:${http.address().port}/mcp\n`);
});
process.on('SIGTERM', () => process.exit(0));
