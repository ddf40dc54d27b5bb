/**
 * The mock LLM HTTP server: speaks each provider's real wire format (through its MockWire),
 * answers from a script, and records every request so tests can assert on what a host sent.
 * Official SDKs are pointed at it by base URL, so the real client code path is what gets tested.
 *
 * Control routes for users driving it from other languages:
 *   GET    /_mock/requests   the recorded requests as JSON
 *   DELETE /_mock/requests   forget them
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerFromScript } from '../answer-from-script.js';
import type { Script } from '../script-types.js';
import { BodyTooLargeError, readBody, sendJson } from './http-io.js';
import { redactHeaders, redactPath } from './redact-headers.js';
import type { MockWire } from './wire.js';
import { defaultWires } from './wires/index.js';

export interface RecordedRequest {
  /** The wire that handled the request; null when no wire matched (answered 404). */
  wire: MockWire['name'] | null;
  method: string;
  /** Request target, query string included (credential parameters redacted). */
  path: string;
  /** Request headers, with credential values replaced by `<redacted>`. */
  headers: Record<string, string | string[]>;
  /** The parsed JSON body; the raw text when it was not JSON; undefined when empty. */
  body: unknown;
}

export interface MockLlmServerOptions {
  script: Script;
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default `defaultWires()`: every provider wire this package knows. */
  wires?: MockWire[];
}

export interface MockLlmServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  /** Live list of recorded requests, oldest first (cleared in place by `DELETE /_mock/requests`). */
  requests: RecordedRequest[];
  /** Stops listening and ends open connections, streams included. */
  close(): Promise<void>;
}

const controlPath = '/_mock/requests';

export async function startMockLlmServer(options: MockLlmServerOptions): Promise<MockLlmServer> {
  const wires = options.wires ?? defaultWires();
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    handle(req, res, { script: options.script, wires, requests }).catch((error: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, mockError('api_error', `Mock LLM server failed: ${(error as Error).message}`));
      } else {
        res.destroy(error as Error);
      }
    });
  });
  // A client reuses its kept-alive connection for the next turn; when a slow tool call outlasts Node's 5 s default,
  // the server closes the socket just as the request goes out and the client sees ECONNRESET. `close()` ends
  // every connection anyway, so a long keep-alive costs nothing.
  server.keepAliveTimeout = 120_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

interface HandlerContext {
  script: Script;
  wires: MockWire[];
  requests: RecordedRequest[];
}

async function handle(req: IncomingMessage, res: ServerResponse, context: HandlerContext): Promise<void> {
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const pathname = new URL(target, 'http://mock.invalid').pathname;

  if (pathname === controlPath) {
    handleControl(method, res, context.requests);
    return;
  }

  const wire = context.wires.find((candidate) => candidate.matches(method, pathname));
  let text: string;
  try {
    text = await readBody(req);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    sendJson(res, 413, mockError('request_too_large', error.message));
    return;
  }
  const parsed = parseJson(text);
  context.requests.push({
    wire: wire?.name ?? null,
    method,
    path: redactPath(target),
    headers: redactHeaders(req.headers),
    body: parsed.ok ? parsed.value : text === '' ? undefined : text,
  });

  if (!wire) {
    const known = context.wires.flatMap((candidate) => candidate.paths ?? [candidate.name]);
    const message = `The mock LLM server has no route for ${method} ${pathname}. Routes it knows: ${known.join(', ')}. Check the base URL given to the SDK.`;
    sendJson(res, 404, mockError('not_found_error', message));
    return;
  }
  const authProblem = wire.checkAuth?.(req);
  if (authProblem !== undefined) {
    wire.writeError(res, 401, authProblem);
    return;
  }
  if (!parsed.ok) {
    wire.writeError(res, 400, `Request body is not valid JSON: ${parsed.problem}`);
    return;
  }
  let view: ReturnType<MockWire['readRequest']>;
  try {
    view = wire.readRequest(parsed.value, target);
  } catch (error) {
    wire.writeError(res, 400, (error as Error).message);
    return;
  }
  const answer = answerFromScript(context.script, view);
  if (answer.kind === 'error') wire.writeError(res, answer.status, answer.message);
  else wire.writeAnswer(res, answer, view);
}

function handleControl(method: string, res: ServerResponse, requests: RecordedRequest[]): void {
  if (method === 'GET') {
    sendJson(res, 200, requests);
  } else if (method === 'DELETE') {
    const cleared = requests.length;
    requests.length = 0;
    sendJson(res, 200, { cleared });
  } else {
    sendJson(res, 405, mockError('invalid_request_error', `${controlPath} accepts GET and DELETE, not ${method}`), {
      allow: 'GET, DELETE',
    });
  }
}

/** An error body readable by every SDK: Anthropic reads `error.type`, the others `error.message`. */
function mockError(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (text === '') return { ok: false, problem: 'the body is empty' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
}
