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
 */
import type { Readable, Writable } from 'node:stream';
import { isJSONRPCNotification, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { oversizeRefusal, readClientLine } from './client-line.js';

const NEWLINE = 0x0a;

const MAX_WAITING_STDOUT_BYTES = 4 * 1024 * 1024;

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
  /** Stdin ended while reading was paused: the connection closes once what was read is taken. */
  private endedWhilePaused = false;
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
    this.onclose?.();
  }

  private readonly failed = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly ended = (): void => {
    // What was read before the end is taken before the connection ends, as it is when reading was never paused.
    if (this.unread !== undefined) this.endedWhilePaused = true;
    else void this.close();
  };

  private readonly arrived = (chunk: Buffer): void => {
    // A chunk the stream had in hand when it was paused still comes: it waits behind what was not taken.
    if (this.unread !== undefined) this.unread = Buffer.concat([this.unread, chunk]);
    else this.received(chunk);
  };

  private received(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length && !this.closed) {
      // Checked at each line, not once a chunk: one chunk may hold thousands of small requests.
      if (this.stdout.writableLength > MAX_WAITING_STDOUT_BYTES) {
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
    // Past 4 MB waiting, a write has returned false: 'drain' comes once stdout's buffer is empty again.
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
    const rest = this.unread;
    if (rest === undefined || this.closed) return;
    this.unread = undefined;
    this.received(rest);
    if (this.unread !== undefined) return;
    if (this.endedWhilePaused) void this.close();
    else this.stdin.resume();
  };

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
      this.onmessage?.(read.message);
      return;
    }
    this.onerror?.(new ClientLineError(read.kind === 'ignored' ? `ignored: ${read.what}` : read.what));
    if (read.kind === 'refused') void this.send(read.reply).catch(() => undefined);
  }
}

function lastBytes(bytes: Buffer): Buffer {
  return bytes.length <= KEPT_EDGE_BYTES ? bytes : Buffer.from(bytes.subarray(bytes.length - KEPT_EDGE_BYTES));
}
