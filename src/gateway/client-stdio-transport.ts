/**
 * Standard input and output as the gateway's connection to its stdio client, in place of the SDK's
 * `StdioServerTransport`, which ends the whole connection on a line over 10 MB (the gateway then exited) and drops
 * lines that are not messages without answering them. Here a line longer than `maxMessageBytes` is skipped to its
 * end and refused, every line that is not a message is answered as JSON-RPC prescribes (see client-line.ts), and
 * the connection goes on. Lines are split in linear time: a long line's chunks are joined once, at its end.
 * Stdout carries only what `send` writes. A client that stops reading stdout must not make the gateway keep
 * everything it is told meanwhile: past {@link MAX_WAITING_STDOUT_BYTES} waiting, notifications (logs, progress,
 * changes) are dropped until it has read some, which is said once; answers and requests are still written.
 * Past the same bound, standard input is no longer read (ordinary pipe backpressure) until stdout drains: a client
 * that keeps sending without reading would otherwise pile up answers here without end. Requests already read are
 * still answered, however large their answers.
 *
 * This cannot deadlock a client that reads its stdout while it writes: its reading drains stdout, which resumes
 * reading stdin. Reading stops only while output waits unread, and only a client that waits for its own writes to
 * be taken before it reads can be stuck by that; it would be stuck by any pipe the same way.
 *
 * Reading also stops, by the same pause, while {@link MAX_REQUESTS_IN_FLIGHT} of the client's requests wait for
 * their answers: a client that sends hundreds at once would otherwise have them all read, and their answers all
 * made, before the first is written. Only requests count (notifications and responses never wait for anything).
 * A request in flight may itself wait on the client: a forwarded elicitation or sampling request, whose response
 * comes on stdin, behind whatever the client sent since. So while any request of the gateway's waits for the
 * client's response, the bound on requests does not pause reading: otherwise the bound's worth of calls, each waiting
 * for such a response, would wait for their timeouts. Those waits are bounded by the requests' own timeouts, and so is
 * what is read meanwhile past the bound.
 *
 * When stdin ends (a client that pipes a file of requests and closes), reading stops but the connection closes
 * only once every request read has been answered (each bounded by its own timeout): closing at once left requests
 * already read unanswered.
 */
import type { Readable, Writable } from 'node:stream';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import { oversizeRefusal, readClientLine } from './client-line.js';
import { MAX_WAITING_RESPONSE_BYTES } from './cut-off-far-behind.js';

const NEWLINE = 0x0a;

/** As far behind as an HTTP client's stream may fall (see cut-off-far-behind.ts). */
const MAX_WAITING_STDOUT_BYTES = MAX_WAITING_RESPONSE_BYTES;

/**
 * More than a client waits on at once in practice (an agent runs a handful of calls in parallel), and enough to
 * keep servers busy for one that pipelines more; past it the rest wait in the client's pipe, not here. Each 1 MB
 * answer in the making costs the gateway several copies: 300 such calls sent at once raised its peak memory by
 * about 1.1 GB unbounded, 370 to 440 MB with a bound of 32 to 64, and about 300 MB with this one.
 */
const MAX_REQUESTS_IN_FLIGHT = 16;
/** JSON-RPC error code the MCP libraries use for a connection that closed before the answer came. */
const CONNECTION_CLOSED = -32000;

/** Answered only when the connection or the listen ends: a stream, not a call in flight. */
const LONG_LIVED_METHODS = new Set(['subscriptions/listen']);

/** A line from the client that was refused or ignored: reported, at a bounded rate, and the connection goes on. */
export class ClientLineError extends Error {}

/** Bytes kept of each end of a line too long to read, where its id may be found. */
const KEPT_EDGE_BYTES = 1_024;

export class ClientStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private chunks: Buffer[] = [];
  private lineBytes = 0;
  /** Set while a line past the limit is skipped: its first bytes, and its latest ones. */
  private oversize: { head: Buffer; tail: Buffer } | undefined;
  private closed = false;
  /** Set at the first notification dropped: said once, however often the client falls behind. */
  private toldOfDrops = false;
  /** While reading is paused, what was read of the chunk at hand and not yet taken, from where it stopped. */
  private unread: Buffer | undefined;
  /** Stdin ended: the connection closes once what was read is taken and every request read is answered. */
  private inputEnded = false;
  /** The client's requests read and not yet answered, by id (a client may reuse an id: counted each time). */
  private readonly answersOwed = new Map<RequestId, number>();
  private answersOwedCount = 0;
  /** The gateway's requests to the client whose responses have not come yet. */
  private readonly awaitedFromClient = new Set<RequestId>();
  private waitingForDrain = false;
  /** Set at the first pause: said once, as the drops are. */
  private toldOfPause = false;
  private nextDrain: Promise<void> | undefined;

  constructor(
    private readonly maxMessageBytes: number,
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  async start(): Promise<void> {
    // Read to its end by someone else already: no 'end' event will come.
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.ended);
    this.stdin.on('data', this.arrived);
    this.stdin.on('error', this.failed);
    this.stdin.on('end', this.ended);
    this.stdin.on('close', this.ended);
    // A client gone away makes writes fail (EPIPE): that ends the connection, and later failures are expected.
    this.stdout.on('error', (error: Error) => {
      if (this.closed) return;
      this.onerror?.(error);
      void this.close();
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the stdio connection is closed'));
    if (isJSONRPCRequest(message)) {
      if (this.inputEnded) {
        this.unanswerable(message.id);
        return Promise.resolve();
      }
      this.awaitedFromClient.add(message.id);
      // Its response comes on stdin: reading must go on, whatever the bound on requests says.
      this.resumeReading();
    } else if (isCancellation(message)) {
      this.awaitedFromClient.delete(message.params.requestId);
    } else if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const written = this.write(message);
      // Handed to stdout, it is the bound on stdout's to hold back: counted there from now on.
      if (message.id !== undefined) this.answered(message.id);
      return written;
    }
    return this.write(message);
  }

  private write(message: JSONRPCMessage): Promise<void> {
    if (isJSONRPCNotification(message) && this.stdout.writableLength > MAX_WAITING_STDOUT_BYTES) {
      if (!this.toldOfDrops) {
        this.toldOfDrops = true;
        this.onerror?.(
          new Error(
            `the client is not reading standard output (over ${MAX_WAITING_STDOUT_BYTES / 1024 / 1024} MB waiting): notifications to it are dropped whenever it falls that far behind`,
          ),
        );
      }
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const flushed = this.stdout.write(`${JSON.stringify(message)}\n`, (error) => {
        if (error) reject(error);
      });
      if (flushed) resolve();
      else void this.drain().then(resolve);
    });
  }

  /**
   * The next 'drain' of stdout, one listener for every write waiting on it: with a listener each, a few dozen answers
   * waiting for a slow client made Node warn of a listener leak on stderr.
   */
  private drain(): Promise<void> {
    this.nextDrain ??= new Promise((resolve) => {
      this.stdout.once('drain', () => {
        this.nextDrain = undefined;
        resolve();
      });
    });
    return this.nextDrain;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.arrived);
    this.stdin.off('error', this.failed);
    this.stdin.off('end', this.ended);
    this.stdin.off('close', this.ended);
    // Nothing else reads it: let the process exit.
    this.stdin.pause();
    this.stdout.off('drain', this.drained);
    this.chunks = [];
    this.oversize = undefined;
    this.unread = undefined;
    this.answersOwed.clear();
    this.awaitedFromClient.clear();
    this.onclose?.();
  }

  private owe(id: RequestId): void {
    this.answersOwed.set(id, (this.answersOwed.get(id) ?? 0) + 1);
    this.answersOwedCount += 1;
  }

  /** The answer to `id` was written, or will never be (the request was cancelled): reading may go on. */
  private answered(id: RequestId): void {
    const owed = this.answersOwed.get(id);
    if (owed === undefined) return;
    if (owed > 1) this.answersOwed.set(id, owed - 1);
    else this.answersOwed.delete(id);
    this.answersOwedCount -= 1;
    this.resumeReading();
    this.closeIfFinished();
  }

  private closeIfFinished(): void {
    if (this.inputEnded && this.unread === undefined && this.answersOwedCount === 0) void this.close();
  }

  private stdoutFull(): boolean {
    return this.stdout.writableLength > MAX_WAITING_STDOUT_BYTES;
  }

  private mustPause(): boolean {
    if (this.stdoutFull()) return true;
    return this.answersOwedCount >= MAX_REQUESTS_IN_FLIGHT && this.awaitedFromClient.size === 0;
  }

  private readonly failed = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly ended = (): void => {
    // What was read before the end is taken, and answered, before the connection ends.
    this.inputEnded = true;
    // A question the gateway put to the client can no longer be answered: it fails now, not at its timeout, so the
    // calls that asked it end and are answered.
    for (const id of this.awaitedFromClient) this.unanswerable(id);
    this.awaitedFromClient.clear();
    this.closeIfFinished();
  };

  /** Answers the gateway's own request `id` to the client with an error, as the client will never read it. */
  private unanswerable(id: RequestId): void {
    queueMicrotask(() =>
      this.onmessage?.({
        jsonrpc: '2.0',
        id,
        error: { code: CONNECTION_CLOSED, message: 'the client closed its standard input, so it cannot answer' },
      }),
    );
  }

  private readonly arrived = (chunk: Buffer): void => {
    // A chunk the stream had in hand when it was paused still comes: it waits behind what was not taken.
    if (this.unread !== undefined) this.unread = Buffer.concat([this.unread, chunk]);
    else this.received(chunk);
  };

  private received(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length && !this.closed) {
      // Checked at each line, not once a chunk: one chunk may hold thousands of small requests.
      if (this.mustPause()) {
        this.pauseReading(chunk.subarray(start));
        return;
      }
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.keep(chunk.subarray(start, end));
      if (newline === -1) return;
      this.lineEnded();
      start = newline + 1;
    }
  }

  private pauseReading(rest: Buffer): void {
    this.unread = rest;
    this.stdin.pause();
    this.awaitDrainIfFull();
  }

  /** Paused for the bound on stdout: said once, and reading goes on when it drains. */
  private awaitDrainIfFull(): void {
    if (!this.stdoutFull() || this.waitingForDrain) return;
    this.waitingForDrain = true;
    // Past the bound, a write has returned false: 'drain' comes once stdout's buffer is empty again.
    this.stdout.once('drain', this.drained);
    if (!this.toldOfPause) {
      this.toldOfPause = true;
      this.onerror?.(
        new Error(
          `over ${MAX_WAITING_STDOUT_BYTES / 1024 / 1024} MB of standard output wait for the client to read them: its standard input is left unread until it does`,
        ),
      );
    }
  }

  private readonly drained = (): void => {
    this.waitingForDrain = false;
    this.resumeReading();
  };

  /** Takes what was left unread, and reads stdin again, unless a bound still holds. */
  private resumeReading(): void {
    const rest = this.unread;
    if (rest === undefined || this.closed) return;
    if (this.mustPause()) {
      this.awaitDrainIfFull();
      return;
    }
    this.unread = undefined;
    this.received(rest);
    if (this.unread !== undefined) return;
    this.stdin.resume();
    this.closeIfFinished();
  }

  private keep(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.oversize !== undefined) {
      this.oversize.tail = lastBytes(Buffer.concat([this.oversize.tail, piece]));
      return;
    }
    this.lineBytes += piece.length;
    if (this.lineBytes <= this.maxMessageBytes) {
      this.chunks.push(Buffer.from(piece));
      return;
    }
    const line = Buffer.concat([...this.chunks, piece]);
    this.oversize = { head: line.subarray(0, KEPT_EDGE_BYTES), tail: lastBytes(line) };
    this.chunks = [];
  }

  private lineEnded(): void {
    const oversize = this.oversize;
    const text = oversize === undefined ? Buffer.concat(this.chunks).toString('utf8') : '';
    this.chunks = [];
    this.lineBytes = 0;
    this.oversize = undefined;
    const read =
      oversize === undefined
        ? readClientLine(text)
        : oversizeRefusal(oversize.head.toString('utf8'), oversize.tail.toString('utf8'), this.maxMessageBytes);
    if (read === undefined) return;
    if (read.kind === 'message') {
      this.track(read.message);
      this.onmessage?.(read.message);
      return;
    }
    this.onerror?.(new ClientLineError(read.kind === 'ignored' ? `ignored: ${read.what}` : read.what));
    // Written as is: a refusal answers no request that was read.
    if (read.kind === 'refused') void this.write(read.reply).catch(() => undefined);
  }

  /** Counts what the client's message asks of the gateway, or answers of what the gateway asked. */
  private track(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) {
      if (!LONG_LIVED_METHODS.has(message.method)) this.owe(message.id);
    } else if (isCancellation(message)) {
      // A cancelled request is not answered (as the protocol says): it is no longer owed.
      this.answered(message.params.requestId);
    } else if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
      this.awaitedFromClient.delete(message.id);
    }
  }
}

function isCancellation(
  message: JSONRPCMessage,
): message is JSONRPCMessage & { method: 'notifications/cancelled'; params: { requestId: RequestId } } {
  if (!isJSONRPCNotification(message) || message.method !== 'notifications/cancelled') return false;
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof requestId === 'string' || typeof requestId === 'number';
}

function lastBytes(bytes: Buffer): Buffer {
  return bytes.length <= KEPT_EDGE_BYTES ? bytes : Buffer.from(bytes.subarray(bytes.length - KEPT_EDGE_BYTES));
}
