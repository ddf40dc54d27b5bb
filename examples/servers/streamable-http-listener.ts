/**
 * Serves an example MCP server over Streamable HTTP on 127.0.0.1, with stateful sessions: each
 * `initialize` request gets a fresh McpServer and transport, remembered under the session id the
 * transport hands out, and later requests carrying that `Mcp-Session-Id` go to the same pair.
 * Plain `node:http` keeps the examples free of a web framework.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  localhostHostValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
} from '@modelcontextprotocol/node';
import { isInitializeRequest, type McpServer } from '@modelcontextprotocol/server';

/** The one path the endpoint answers on, as the Streamable HTTP examples of the spec use. */
export const MCP_PATH = '/mcp';

/** Largest request body read before answering 413; far above any message these servers expect. */
const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

export interface StreamableHttpListener {
  /** The endpoint URL, e.g. `http://127.0.0.1:40123/mcp`. */
  url: string;
  /** Closes every session and stops listening. */
  close(): Promise<void>;
}

/** JSON-RPC error codes used for HTTP-level rejections (no request id is known at that point). */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;

function sendJsonRpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

class RequestBodyTooLargeError extends Error {}

async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_REQUEST_BODY_BYTES) throw new RequestBodyTooLargeError();
    chunks.push(buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Starts listening on 127.0.0.1:`port` (0 picks a free port). `createMcpServer` is called once per
 * session, because an McpServer serves exactly one transport.
 */
export async function listenOnStreamableHttp(
  createMcpServer: () => McpServer,
  port: number,
): Promise<StreamableHttpListener> {
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  // Refuse requests whose Host or Origin is not local: guards against DNS rebinding from a browser.
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();

  async function startSession(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body: unknown;
    try {
      body = await readJsonBody(request);
    } catch (error) {
      if (error instanceof RequestBodyTooLargeError) {
        sendJsonRpcError(response, 413, INVALID_REQUEST, `request body exceeds ${MAX_REQUEST_BODY_BYTES} bytes`);
      } else {
        sendJsonRpcError(response, 400, PARSE_ERROR, 'request body is not valid JSON');
      }
      return;
    }
    if (!isInitializeRequest(body)) {
      sendJsonRpcError(
        response,
        400,
        INVALID_REQUEST,
        'no Mcp-Session-Id header: start a session with an initialize request first',
      );
      return;
    }
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    // Set before connect: the server chains its own close handling after this one.
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await createMcpServer().connect(transport);
    await transport.handleRequest(request, response, body);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!validateHost(request, response) || !validateOrigin(request, response)) return;
    const { pathname } = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (pathname !== MCP_PATH) {
      sendJsonRpcError(response, 404, INVALID_REQUEST, `not found: the MCP endpoint is ${MCP_PATH}`);
      return;
    }
    const sessionHeader = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    if (sessionId === undefined) {
      if (request.method !== 'POST') {
        sendJsonRpcError(response, 400, INVALID_REQUEST, 'no Mcp-Session-Id header: send initialize by POST first');
        return;
      }
      await startSession(request, response);
      return;
    }
    const transport = sessions.get(sessionId);
    if (transport === undefined) {
      // 404 tells a client its session is gone and it should initialize again.
      sendJsonRpcError(response, 404, INVALID_REQUEST, `unknown session ${sessionId}: initialize a new session`);
      return;
    }
    await transport.handleRequest(request, response);
  }

  const httpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error('request failed:', error);
      if (!response.headersSent) sendJsonRpcError(response, 500, INTERNAL_ERROR, 'internal server error');
      else response.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, '127.0.0.1', () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const { port: boundPort } = httpServer.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${boundPort}${MCP_PATH}`,
    async close() {
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      sessions.clear();
      // Open SSE streams would otherwise keep close() waiting forever.
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
