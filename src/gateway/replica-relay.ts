/**
 * Passing one HTTP request of a stateless session to the replica that owns it, through the gateway store (the
 * channel approval answers already take), so replicas need no address of each other. The sender publishes the
 * request on the owner's channel and writes what comes back on its own: the status and headers, then the body as it
 * is produced (an event stream's progress and approval requests arrive as they are sent), then its end. The client
 * going away is passed on as a cancel, which ends the request on the owner as a closed connection would. While it
 * answers, the owner listens on the relay's liveness channel; the sender probes it, and when nobody has listened
 * there twice in a row (the owner died: its subscriptions went with it) the relay ends with an error for the client
 * instead of waiting until the client gives up. The owner listens before it looks anything up (the session, its
 * profile), yet only after a store round trip of its own, so probes missed before it first showed it has the request
 * (a probe heard, or a frame) count only once a grace of FIRST_ANSWER_GRACE_MS has passed: a slow owner is not taken
 * for a dead one. A replica that owns the session no more declines the request, writing nothing, so the sender can
 * look the owner up again.
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
  | { type: 'end' }
  | { type: 'declined' };

/**
 * How a relay ended: the owner's answer was written (`answered`); nobody listens for that replica (`unheard`: it
 * stopped); or the replica heard it but answers for the session no more (`declined`). Nothing is written but for
 * `answered`.
 */
export type RelayOutcome = 'answered' | 'unheard' | 'declined';

/** Request headers the owner's transport reads; nothing else (credentials included) is passed on. */
const RELAYED_REQUEST_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'] as const;
/** Response headers written back; length and transfer encoding are the sender's own. */
const RELAYED_RESPONSE_HEADERS: ReadonlySet<string> = new Set(['content-type', 'cache-control']);

export const ownerChannel = (replica: string): string => `replica:${replica}`;
const replyChannel = (relay: string): string => `relay:${relay}`;
const cancelChannel = (relay: string): string => `relay:${relay}:cancel`;
const aliveChannel = (relay: string): string => `relay:${relay}:alive`;

/** How often the sender checks that the owner still answers a relayed request, by default. */
const RELAY_LIVENESS_INTERVAL_MS = 2_000;
/**
 * Probes in a row that nobody heard before the relay is given up. One is not enough: the owner stops listening just
 * after sending the end, and a probe may reach the store before the sender has read that end.
 */
const MISSED_PROBES_TO_FAIL = 2;
/**
 * How long after the request was handed over the owner may take to show it has it before missed probes end the
 * relay. Well above the time its subscriptions take under load, and only an owner that dies in that gap is found
 * later for it: one dying while it answers is still found after two probes.
 */
const FIRST_ANSWER_GRACE_MS = 10_000;
const INTERNAL_ERROR = -32603;

/** Ends a relay whose owner went away, with a JSON-RPC error for the client's request wherever the answer had got to. */
function failRelay(response: ServerResponse, streaming: boolean, body: unknown, owner: string): void {
  const id = typeof body === 'object' && body !== null && 'id' in body ? (body as { id: unknown }).id : null;
  const error = {
    jsonrpc: '2.0',
    error: { code: INTERNAL_ERROR, message: `the gateway replica ${owner} owning this session stopped answering` },
    id: id ?? null,
  };
  if (!response.headersSent) {
    response.writeHead(502, { 'content-type': 'application/json' });
    response.end(JSON.stringify(error));
    return;
  }
  if (streaming && id !== undefined && id !== null)
    response.write(`\nevent: message\ndata: ${JSON.stringify(error)}\n\n`);
  response.end();
}

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
 * Sends the request to `owner` and writes its answer to `response`. The owner is probed every `livenessIntervalMs`
 * (an owner that died while answering is found after two to three of them; one that died before it first showed it
 * had the request, after FIRST_ANSWER_GRACE_MS or two to three probes, whichever is later).
 */
export async function relayToOwner(
  store: GatewayStore,
  owner: string,
  request: Omit<RelayedRequest, 'relay'>,
  response: ServerResponse,
  livenessIntervalMs: number = RELAY_LIVENESS_INTERVAL_MS,
): Promise<RelayOutcome> {
  const relay = randomUUID();
  let finish = (): void => undefined;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let ended = false;
  let declined = false;
  /** Whether the owner showed it has the request: only then do probes nobody heard count from the first. */
  let taken = false;
  /** Whether the owner answered with an event stream, which can still carry an error after its head was written. */
  let streaming = false;
  const stop = await store.listen(replyChannel(relay), (text) => {
    // Nothing more is written once the answer ended, or was given up for a silent owner.
    if (ended) return;
    taken = true;
    const frame = JSON.parse(text) as Frame;
    if (frame.type === 'declined') {
      ended = true;
      declined = true;
      finish();
    } else if (frame.type === 'head') {
      const headers = Object.fromEntries(
        Object.entries(frame.headers).filter(([name]) => RELAYED_RESPONSE_HEADERS.has(name.toLowerCase())),
      );
      streaming = String(headers['content-type'] ?? '').startsWith('text/event-stream');
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
  let liveness: NodeJS.Timeout | undefined;
  try {
    const receivers = await store.publish(ownerChannel(owner), JSON.stringify({ relay, ...request }));
    if (receivers === 0) return 'unheard';
    const handedOver = Date.now();
    let missed = 0;
    liveness = setInterval(() => {
      void store.publish(aliveChannel(relay), 'probe').then(
        (heard) => {
          if (heard > 0) taken = true;
          missed = heard === 0 ? missed + 1 : 0;
          if (missed < MISSED_PROBES_TO_FAIL || ended) return;
          if (!taken && Date.now() - handedOver < FIRST_ANSWER_GRACE_MS) return;
          ended = true;
          failRelay(response, streaming, request.body, owner);
          finish();
        },
        () => undefined,
      );
    }, livenessIntervalMs);
    await finished;
    return declined ? 'declined' : 'answered';
  } finally {
    clearInterval(liveness);
    await stop().catch(() => undefined);
  }
}

/**
 * Answers a relayed request with `respond` and sends the answer back frame by frame, in order. `respond` gets a
 * signal that aborts when the sender's client goes away; it answers `undefined` when this replica does not answer
 * for the request's session, and the sender is told so, nothing else. The sender's probes are heard from before
 * `respond` starts, so the lookups it makes show this replica alive.
 */
export async function answerRelayed(
  store: GatewayStore,
  relayed: RelayedRequest,
  respond: (request: Request) => Promise<Response | undefined>,
): Promise<void> {
  let sent: Promise<unknown> = Promise.resolve();
  const reply = (frame: Frame): void => {
    const text = JSON.stringify(frame);
    sent = sent.then(() => store.publish(replyChannel(relayed.relay), text)).catch(() => undefined);
  };
  // Heard by the sender's probes: while this listens, this replica is alive and answering.
  const stopAlive = await store.listen(aliveChannel(relayed.relay), () => undefined);
  const cancelled = new AbortController();
  let stopCancel: (() => Promise<void>) | undefined;
  // The probes stop being heard however this ends, listening for the cancel failing too: an owner still heard after it
  // gave up would be taken for one still answering, and the sender would wait as long as its client does.
  try {
    stopCancel = await store.listen(cancelChannel(relayed.relay), () => cancelled.abort());
    const request = new Request('http://gateway.invalid/mcp', {
      method: 'POST',
      headers: relayed.headers,
      body: JSON.stringify(relayed.body),
      signal: cancelled.signal,
    });
    let response: Response | undefined;
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
    if (response === undefined) {
      reply({ type: 'declined' });
      await sent;
      return;
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
    await stopCancel?.().catch(() => undefined);
    await stopAlive().catch(() => undefined);
  }
}
