/**
 * Bounds what a remote server's HTTP responses may make the host hold: the `fetch` the SDK's HTTP transports use is
 * wrapped so that each response body is counted as it streams in.
 *
 * A JSON body is one message: past `maxMessageBytes` its stream fails with the size error, which fails the request
 * that is waiting for it. An event stream carries many messages: each event is counted on its own, and only whole
 * events are passed on. An event past the limit is dropped, the stream is ended, and each request the POST carried
 * is answered with an error saying so (without that, the request would wait for its timeout). A stream with no
 * request of ours behind it (the standing GET stream) fails with the size error instead.
 *
 * Nesting is bounded the same way, as the stdio transport bounds each line: a message whose brackets open deeper
 * than `MAX_JSON_DEPTH` would overflow the stack of the client library's validation. A JSON body that deep is
 * replaced by an error answer naming the depth for each request of the POST, and the rest is not read; it is
 * therefore held until it is whole (the client library reads it whole anyway). An event that deep is read to its
 * end, within the size limit: an answer becomes that error answer, anything else is dropped, and the stream goes on.
 * Only an answer to a request of the POST or one pending on the connection becomes one; one for an id nobody waits for
 * is told in a diagnostic and dropped, as from a stdio server, on the POST's own stream as on any other.
 *
 * An answer to a request of the POST that is JSON-RPC 2.0 but not a valid response (see invalid-answer.ts), in a
 * JSON body or an event, is replaced by the host's error answer saying what was wrong, as from a stdio server: the
 * client library would drop it and leave the request to its timeout. Events are read for such answers only while a
 * request of the POST is unanswered. On a stream no request of its own is behind (the standing GET stream, the legacy
 * HTTP+SSE stream), every event is read for an answer to any request pending on the connection (see
 * pending-requests.ts), and one for an id nobody waits for is told in a diagnostic and goes on as it is. An event whose
 * data has a `method` member at its top, a request or a notification, is seen to be no answer as its bytes go by, and
 * is not parsed for one (its depth is measured all the same).
 */
import type { FetchLike, JSONRPCMessage } from '@modelcontextprotocol/client';
import { cutTooDeepText, describeTooDeep, JsonDepthGauge } from '../json/json-depth.js';
import { HostWrittenAnswers } from './host-written-answers.js';
import { type AnswerWaiters, answeredId, invalidAnswerOf, screenAnswer } from './invalid-answer.js';
import { tooLargeMessageText } from './message-size-limit.js';
import type { StrayAnswerReporter } from './stray-answers.js';
import { tooDeepAnswer } from './too-deep-message.js';

/** The JSON-RPC error code of the answer the host puts in place of a response past the limit. */
const RESPONSE_TOO_LARGE_CODE = -32_090;

const OUTCOME = 'the host stopped reading the response';

/** The failure of a response body past the limit. */
class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
}

/**
 * The size error's text if `error` (or what caused it) is a JSON body past the limit, else undefined. (The answer put
 * in place of an event past the limit is noted in `hostWritten`, as a server's answer with its code could say anything.)
 */
export function responseTooLargeText(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof ResponseTooLargeError) return current.message;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * What the host knows of the whole connection: the requests pending on it, for which a stream no request of its own is
 * behind is read, and where a refused answer for an id nobody waits for is told (see stray-answers.ts).
 */
export interface ConnectionScreen {
  pending: AnswerWaiters;
  strays: StrayAnswerReporter;
}

/**
 * `hostWritten`: where each error answer written in place of the server's is noted (see host-written-answers.ts).
 * `connection`: without it, streams no request of their own is behind are not read for answers, and an answer too
 * deep is answered for whoever it names.
 */
export function limitResponseSize(
  fetchImpl: FetchLike,
  limit: number,
  hostWritten = new HostWrittenAnswers(),
  connection?: ConnectionScreen,
): FetchLike {
  return async (url, init) => {
    const response = await fetchImpl(url, init);
    if (!response.body) return response;
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const requests = requestsOf(init?.body);
    const limited =
      mediaType === 'text/event-stream'
        ? response.body.pipeThrough(eventLimits(limit, requests, hostWritten, connection))
        : response.body.pipeThrough(
            bodyLimits(limit, JSON_MEDIA_TYPE.test(mediaType) ? requests : undefined, hostWritten, connection),
          );
    return withBody(response, limited);
  };
}

/** A request the host sent in the POST whose response this is: its id, and its method for messages. */
interface SentRequest {
  id: string | number;
  method: string;
}

/** `application/json` and the `+json` types: a body that is one JSON-RPC message (or a batch). */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/;

/**
 * `requests`: those of the POST, when the body is JSON and so has its depth measured; a body of another type (an
 * error page) is only counted, and passed on as it comes.
 */
function bodyLimits(
  limit: number,
  requests: readonly SentRequest[] | undefined,
  hostWritten: HostWrittenAnswers,
  connection: ConnectionScreen | undefined,
): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  let held: Uint8Array[] = [];
  const depth = new JsonDepthGauge();
  if (requests !== undefined && requests.length > 0) depth.keepOutline();
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > limit) {
        held = [];
        controller.error(new ResponseTooLargeError(tooLargeMessageText(limit, seen, OUTCOME)));
        return;
      }
      if (requests === undefined) {
        controller.enqueue(chunk);
        return;
      }
      if (depth.feed(chunk)) {
        held = [];
        refuseTooDeep(controller, requests, hostWritten, (answers) =>
          JSON.stringify(answers.length === 1 ? answers[0] : answers),
        );
        return;
      }
      held.push(chunk);
    },
    flush(controller) {
      const screened =
        requests === undefined
          ? undefined
          : screenBody(held, depth.outlineBytes(), requests, hostWritten, connection?.pending);
      if (screened !== undefined) controller.enqueue(new TextEncoder().encode(screened));
      else for (const piece of held) controller.enqueue(piece);
    },
  });
}

/**
 * The body with the host's error answer in place of each answer that is not valid JSON-RPC (see invalid-answer.ts) to
 * a request of the POST or, given `pending`, to another request pending on the connection; or undefined when it is
 * to go on as it is (a body that is not JSON fails in the client library, which fails the POST's requests). Only the
 * body's outline is read, unless an answer in a batch is replaced.
 */
function screenBody(
  body: readonly Uint8Array[],
  outline: readonly Uint8Array[],
  requests: readonly SentRequest[],
  hostWritten: HostWrittenAnswers,
  pending: AnswerWaiters | undefined,
): string | undefined {
  const shape = parsedOrUndefined(decoded(outline));
  if (requests.length === 0 || shape === undefined) return undefined;
  const own = waitingFor(requests);
  const waiting = pending === undefined ? own : ownThenConnection(own, pending);
  const refused = new Map<number, JSONRPCMessage>();
  const shapes = Array.isArray(shape) ? shape : [shape];
  shapes.forEach((message: unknown, index) => {
    const answer = screenAnswer(message, waiting);
    if (answer === undefined) return;
    hostWritten.note(answer.replacement, answer.words);
    refused.set(index, answer.replacement);
  });
  if (refused.size === 0) return undefined;
  if (!Array.isArray(shape)) return JSON.stringify(refused.get(0));
  const whole = parsedOrUndefined(decoded(body));
  if (!Array.isArray(whole)) return undefined;
  return JSON.stringify(whole.map((message: unknown, index) => refused.get(index) ?? message));
}

function decoded(pieces: readonly Uint8Array[]): string {
  const decoder = new TextDecoder();
  return pieces.map((piece) => decoder.decode(piece, { stream: true })).join('') + decoder.decode();
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The methods of `requests` by id: those an answer may still come for. */
/** The POST's own requests first, then those pending on the connection; an answer taken is taken from both. */
function ownThenConnection(own: Map<string | number, string>, connection: AnswerWaiters): AnswerWaiters {
  return {
    get: (id) => own.get(id) ?? connection.get(id),
    delete: (id) => own.delete(id) || connection.delete(id),
  };
}

function waitingFor(requests: readonly SentRequest[]): Map<string | number, string> {
  return new Map(requests.map(({ id, method }) => [id, method]));
}

function eventLimits(
  limit: number,
  requests: readonly SentRequest[],
  hostWritten: HostWrittenAnswers,
  connection: ConnectionScreen | undefined,
): TransformStream<Uint8Array, Uint8Array> {
  // Given for a stream no request of its own is behind.
  const standing = requests.length === 0 ? connection : undefined;
  // The current event's bytes not yet passed on, and how many there are.
  let pending: Uint8Array[] = [];
  let eventBytes = 0;
  let lineHasContent = false;
  const data = new EventDataDepth();
  // The current event nests too deep: it is read to its end (within the size limit) and answered for, not passed on.
  let tooDeep = false;
  // The requests of the POST not answered yet: while there are any, each event's outline is read for an answer to one
  // of them or to another request pending on the connection (a server may answer it on any stream). On a standing
  // stream, those pending on the connection, and every outline is read.
  const own = waitingFor(requests);
  const waiting = standing?.pending ?? (connection === undefined ? own : ownThenConnection(own, connection.pending));
  const screening = () => standing !== undefined || own.size > 0;
  if (screening()) data.keepOutline();
  return new TransformStream({
    transform(chunk, controller) {
      let start = 0;
      let passFrom = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(0x0a, start);
        const lineEnd = newline === -1 ? chunk.length : newline;
        const length = lineEnd - start;
        if (length > 1 || (length === 1 && chunk[start] !== 0x0d)) lineHasContent = true;
        const next = newline === -1 ? chunk.length : newline + 1;
        eventBytes += next - start;
        if (eventBytes > limit) {
          pending = [];
          refuseEvent(controller, limit, eventBytes, requests, hostWritten);
          return;
        }
        if (!tooDeep) tooDeep = data.read(chunk, start, lineEnd, newline !== -1);
        if (newline !== -1) {
          // A blank line ends an event: pass the whole event on, or what stands in for a too-deep one.
          if (!lineHasContent) {
            pending.push(chunk.subarray(passFrom, next));
            if (tooDeep) {
              tooDeep = false;
              if (!refuseTooDeepEvent(controller, pending, requests, hostWritten, connection)) return;
            } else if (
              !(
                screening() &&
                !data.namesMethod() &&
                refuseInvalidEvent(controller, pending, data.outlineBytes(), waiting, hostWritten, connection?.strays)
              )
            ) {
              for (const piece of pending) controller.enqueue(piece);
            }
            pending = [];
            passFrom = next;
            eventBytes = 0;
            data.endEvent();
            // Every request of the POST answered: no later event's outline is read.
            if (!screening()) data.stopOutline();
          }
          lineHasContent = false;
        }
        start = next;
      }
      if (passFrom < chunk.length) pending.push(chunk.subarray(passFrom));
    },
    flush(controller) {
      for (const piece of pending) controller.enqueue(piece);
    },
  });
}

/**
 * What stands in for an event whose message nests too deep, as for a too-deep line from a stdio server: an answer
 * becomes an error answer to its request; a notification or a request from the server is dropped (the server's
 * request then goes unanswered: nothing here can write to the server), and so is an event of another type than
 * `message`, which the client library passes over. With `connection`, only an answer to a request of the POST or one
 * pending on the connection is answered for, and one for an id nobody waits for is told and dropped, on any stream.
 * The message is read from the event's data with its too-deep parts cut. False when the stream was ended instead (a
 * message that cannot be read even cut).
 */
function refuseTooDeepEvent(
  controller: TransformStreamDefaultController<Uint8Array>,
  event: readonly Uint8Array[],
  requests: readonly SentRequest[],
  hostWritten: HostWrittenAnswers,
  connection: ConnectionScreen | undefined,
): boolean {
  if (!isMessageEvent(event)) return true;
  const message = eventMessage(event);
  if (message === undefined) {
    refuseTooDeep(controller, requests, hostWritten, (answers) => answers.map(sseMessage).join(''));
    return false;
  }
  const { id, method } = message as { id?: unknown; method?: unknown };
  if (method === undefined && (typeof id === 'string' || typeof id === 'number')) {
    const request = requests.find((sent) => sent.id === id)?.method ?? connection?.pending.get(id);
    if (connection !== undefined && request === undefined) {
      connection.strays.tooDeep(id);
      return true;
    }
    const { replacement, words } = tooDeepAnswer(id, request);
    hostWritten.note(replacement, words);
    controller.enqueue(new TextEncoder().encode(sseMessage(replacement)));
  }
  return true;
}

/**
 * Puts the host's error answer in place of `event` if it carries an answer to a request in `waiting` (which loses the
 * one answered) that is not valid JSON-RPC (see invalid-answer.ts); true if it did. `outline`: the outline of the
 * event's data (see `JsonDepthGauge.keepOutline`), all that is read of an event that goes on. An event of another type
 * than `message` is left as it is: the client library passes over it. `strays`: where an invalid answer for an id
 * not in `waiting` is told, if anywhere; it goes on as it is.
 */
function refuseInvalidEvent(
  controller: TransformStreamDefaultController<Uint8Array>,
  event: readonly Uint8Array[],
  outline: readonly Uint8Array[],
  waiting: AnswerWaiters,
  hostWritten: HostWrittenAnswers,
  strays?: StrayAnswerReporter,
): boolean {
  const message = parsedOrUndefined(decoded(outline));
  const answered = answeredId(message);
  if (answered === undefined) return false;
  if (waiting.get(answered) === undefined) {
    const stray = strays === undefined ? undefined : invalidAnswerOf(message);
    if (stray !== undefined && isMessageEvent(event)) strays!.invalid(stray.id, stray.why);
    return false;
  }
  // Looked at before the answer is taken from `waiting`: an event of another type answers nothing.
  if (!isMessageEvent(event)) return false;
  const refused = screenAnswer(message, waiting);
  if (refused === undefined) return false;
  hostWritten.note(refused.replacement, refused.words);
  controller.enqueue(new TextEncoder().encode(sseMessage(refused.replacement)));
  return true;
}

/** Whether the client library reads `event` as a message: it names no type, or `message`. */
function isMessageEvent(event: readonly Uint8Array[]): boolean {
  const type = eventFields(event).type;
  return type === undefined || type === 'message';
}

/** An event's type, if it names one, and its `data` lines joined. */
function eventFields(event: readonly Uint8Array[]): { type: string | undefined; data: string } {
  const lines = decoded(event).split(/\r?\n/);
  const typeLine = lines.findLast((line) => line.startsWith('event:'));
  const data = lines
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .join('\n');
  return { type: typeLine?.slice(typeLine.startsWith('event: ') ? 7 : 6), data };
}

/** The JSON-RPC message an event carries (its `data` lines joined), read with its too-deep parts cut. */
function eventMessage(event: readonly Uint8Array[]): object | undefined {
  const { data } = eventFields(event);
  try {
    const message: unknown = JSON.parse(cutTooDeepText(data) ?? data);
    return message !== null && typeof message === 'object' && !Array.isArray(message) ? message : undefined;
  } catch {
    return undefined;
  }
}

function sseMessage(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

const DATA_FIELD = [0x64, 0x61, 0x74, 0x61, 0x3a]; // "data:"

/**
 * How deep the `data` of the current event nests, read line by line as the lines arrive in pieces. Only `data`
 * lines are JSON; a comment or an `id` may hold any bracket.
 */
class EventDataDepth {
  private readonly gauge = new JsonDepthGauge();
  /** The current line's first bytes, until they show whether it is a `data` line. */
  private head: number[] = [];
  private kind: 'data' | 'other' | undefined;

  /** Reads a piece `bytes[from, to)` of the current line; `ends`: the line ends after it. True once too deep. */
  read(bytes: Uint8Array, from: number, to: number, ends: boolean): boolean {
    let tooDeep = false;
    let index = from;
    while (this.kind === undefined && index < to) {
      this.head.push(bytes[index]!);
      index++;
      if (this.head.length === DATA_FIELD.length) {
        this.kind = this.head.every((byte, at) => byte === DATA_FIELD[at]) ? 'data' : 'other';
      }
    }
    if (this.kind === 'data') tooDeep = this.gauge.feed(bytes, index, to);
    if (ends) {
      this.head = [];
      this.kind = undefined;
      this.gauge.newLine();
    }
    return tooDeep;
  }

  endEvent(): void {
    this.gauge.reset();
  }

  /**
   * Keeps the outline of each event's data from now on (see `JsonDepthGauge.keepOutline`), and watches for a `method`
   * member at its top, which makes it a request or a notification, never an answer.
   */
  keepOutline(): void {
    this.gauge.keepOutline();
    this.gauge.watchTopLevelKey('method');
  }

  /** Whether the current event's data is plainly a request or a notification: it has a `method` member at its top. */
  namesMethod(): boolean {
    return this.gauge.sawTopLevelKey();
  }

  stopOutline(): void {
    this.gauge.stopOutline();
  }

  /** The outline of the current event's data read so far. */
  outlineBytes(): Uint8Array[] {
    return this.gauge.outlineBytes();
  }
}

function refuseEvent(
  controller: TransformStreamDefaultController<Uint8Array>,
  limit: number,
  bytes: number,
  requests: readonly SentRequest[],
  hostWritten: HostWrittenAnswers,
): void {
  const message = tooLargeMessageText(limit, bytes, OUTCOME);
  if (requests.length === 0) {
    controller.error(new ResponseTooLargeError(message));
    return;
  }
  const encoder = new TextEncoder();
  for (const { id } of requests) {
    const answer: JSONRPCMessage = { jsonrpc: '2.0', id, error: { code: RESPONSE_TOO_LARGE_CODE, message } };
    hostWritten.note(answer, message);
    controller.enqueue(encoder.encode(sseMessage(answer)));
  }
  controller.terminate();
}

/**
 * Answers each request of the POST with the error a too-deep line from a stdio server gets, written by `frame` as
 * the response's media type carries messages, and stops reading: for a JSON body, and for an event whose message
 * cannot be read. With no request behind the response (the standing GET stream), the stream fails instead.
 */
function refuseTooDeep(
  controller: TransformStreamDefaultController<Uint8Array>,
  requests: readonly SentRequest[],
  hostWritten: HostWrittenAnswers,
  frame: (answers: JSONRPCMessage[]) => string,
): void {
  if (requests.length === 0) {
    controller.error(
      new Error(`${describeTooDeep("a message in the server's event stream")}; the host stopped reading it`),
    );
    return;
  }
  const answers = requests.map(({ id, method }) => {
    const { replacement, words } = tooDeepAnswer(id, method);
    hostWritten.note(replacement, words);
    return replacement;
  });
  controller.enqueue(new TextEncoder().encode(frame(answers)));
  controller.terminate();
}

/** The requests in a POST body the host serialised (one message or a batch). */
function requestsOf(body: unknown): SentRequest[] {
  if (typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const requests: SentRequest[] = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) {
      requests.push({ id, method: method.slice(0, 100) });
    }
  }
  return requests;
}

/** The same response with another body; what the SDK reads besides the body is carried over. */
function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  const limited = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(limited, 'url', { value: response.url });
  Object.defineProperty(limited, 'redirected', { value: response.redirected });
  return limited;
}
