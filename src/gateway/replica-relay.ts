/**
 * Passing one HTTP request of a stateless session to the replica that owns it, through the gateway store (the
 * channel approval answers already take), so replicas need no address of each other. The sender publishes the
 * request on the owner's channel and writes what comes back on its own: the status and headers, then the body as it
 * is produced (an event stream's progress and approval requests arrive as they are sent), then its end. The client
 * going away is passed on as a cancel, which ends the request on the owner as a closed connection would.
 */

import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { GatewayStore } from './store/gateway-store.js';

/** What the owner needs to answer a relayed request as if it had received it. */
export interface RelayedRequest {
  relay: string;
  sessionId: string;
  profile: string | undefined;
  headers: Record<string, string>;
  body: unknown;
}

type Frame =
  | { type: 'head'; status: number; headers: Record<string, string> }
  | { type: 'chunk'; text: string }
  | { type: 'end' };

/** Request headers the owner's transport reads; nothing else (credentials included) is passed on. */
const RELAYED_REQUEST_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'] as const;
/** Response headers written back; length and transfer encoding are the sender's own. */
const RELAYED_RESPONSE_HEADERS: ReadonlySet<string> = new Set(['content-type', 'cache-control']);

export const ownerChannel = (replica: string): string => `replica:${replica}`;
const replyChannel = (relay: string): string => `relay:${relay}`;
const cancelChannel = (relay: string): string => `relay:${relay}:cancel`;

export function relayedHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of RELAYED_REQUEST_HEADERS) {
    const value = headers[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) kept[name] = first;
  }
  return kept;
}

/**
 * Sends the request to `owner` and writes its answer to `response`. Answers false, having written nothing, when no
 * replica listens on the owner's channel (it stopped): the caller then serves the request itself.
 */
export async function relayToOwner(
  store: GatewayStore,
  owner: string,
  request: Omit<RelayedRequest, 'relay'>,
  response: ServerResponse,
): Promise<boolean> {
  const relay = randomUUID();
  let finish = (): void => undefined;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let ended = false;
  const stop = await store.listen(replyChannel(relay), (text) => {
    const frame = JSON.parse(text) as Frame;
    if (frame.type === 'head') {
      const headers = Object.fromEntries(
        Object.entries(frame.headers).filter(([name]) => RELAYED_RESPONSE_HEADERS.has(name.toLowerCase())),
      );
      response.writeHead(frame.status, headers);
    } else if (frame.type === 'chunk') {
      response.write(frame.text);
    } else {
      ended = true;
      response.end();
      finish();
    }
  });
  response.once('close', () => {
    if (!ended) void store.publish(cancelChannel(relay), 'cancel').catch(() => undefined);
    finish();
  });
  try {
    const receivers = await store.publish(ownerChannel(owner), JSON.stringify({ relay, ...request }));
    if (receivers === 0) return false;
    await finished;
    return true;
  } finally {
    await stop().catch(() => undefined);
  }
}

/**
 * Answers a relayed request with `respond` and sends the answer back frame by frame, in order. `respond` gets a
 * signal that aborts when the sender's client goes away.
 */
export async function answerRelayed(
  store: GatewayStore,
  relayed: RelayedRequest,
  respond: (request: Request) => Promise<Response>,
): Promise<void> {
  let sent: Promise<unknown> = Promise.resolve();
  const reply = (frame: Frame): void => {
    const text = JSON.stringify(frame);
    sent = sent.then(() => store.publish(replyChannel(relayed.relay), text)).catch(() => undefined);
  };
  const cancelled = new AbortController();
  const stopCancel = await store.listen(cancelChannel(relayed.relay), () => cancelled.abort());
  try {
    const request = new Request('http://gateway.invalid/mcp', {
      method: 'POST',
      headers: relayed.headers,
      body: JSON.stringify(relayed.body),
      signal: cancelled.signal,
    });
    let response: Response;
    try {
      response = await respond(request);
    } catch {
      response = Response.json(
        {
          jsonrpc: '2.0',
          error: { code: -32603, message: 'internal error on the replica owning the session' },
          id: null,
        },
        { status: 500 },
      );
    }
    reply({ type: 'head', status: response.status, headers: Object.fromEntries(response.headers) });
    if (response.body !== null) {
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        if (cancelled.signal.aborted) break;
        reply({ type: 'chunk', text: decoder.decode(chunk as Uint8Array, { stream: true }) });
      }
    }
    reply({ type: 'end' });
    await sent;
  } finally {
    await stopCancel().catch(() => undefined);
  }
}
