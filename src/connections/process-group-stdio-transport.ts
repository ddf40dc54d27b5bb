/**
 * A stdio transport that starts each server in its own process group and stops the whole group.
 *
 * The SDK's `StdioClientTransport` signals only its direct child, so a server started through
 * `sh -c` or `npx` leaves its grandchild running after close. This transport keeps the SDK's
 * message validation and serialisation, adds a process group, a bounded stderr ring, a
 * diagnostic for non-protocol stdout lines and a maximum message size.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import {
  INTERNAL_ERROR,
  type JSONRPCMessage,
  serializeMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import type { HostWrittenAnswers } from './host-written-answers.js';
import { invalidAnswer, invalidAnswerOf, quoted } from './invalid-answer.js';
import { type BuiltLine, lineWithLongStrings } from './json-line-builder.js';
import { LineSplitter } from './line-splitter.js';
import { createLogRateGate, LOG_MESSAGES_PER_SECOND } from './log-rate-gate.js';
import { DEFAULT_MAX_MESSAGE_BYTES, tooLargeMessageText } from './message-size-limit.js';
import { parseJsonRpcLine, readJsonRpcLine } from './parse-json-rpc-line.js';
import { PendingRequests } from './pending-requests.js';
import { descendantsOf, signalTracked, type TrackedProcess } from './process-tree.js';
import { ProgressHandOn } from './progress-hand-on.js';
import { trackServerProcess, untrackServerProcess } from './server-process-registry.js';
import type { OpenSpill } from './spilled-text.js';
import { StderrRing } from './stderr-ring.js';
import { strayAnswerReporter } from './stray-answers.js';
import { screenMessageDepth } from './too-deep-message.js';

export { DEFAULT_MAX_MESSAGE_BYTES } from './message-size-limit.js';

/** How long a server gets after its stdin is closed before SIGTERM: enough to read its last messages. */
const STDIN_CLOSE_WAIT_MS = 100;

/** After stdin is closed and SIGTERM sent, how long a server gets before SIGKILL. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 2_000;
/**
 * How far apart the process's exit and the end of its stdout may come before they count as two events. Both
 * normally come together, in either order. Past it, after the exit: a grandchild that inherited stdout (a wrapper's
 * child) holds it open, and would keep a call waiting for its timeout; after the end of stdout: the server closed its
 * output while still running, and no answer can come.
 */
const EXIT_STDIO_GRACE_MS = 300;
/** Non-protocol stdout lines, and messages nested too deep, told one by one before further ones go untold. */
const MAX_NOISE_REPORTS = 5;

interface ProcessGroupStdioOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  maxMessageBytes?: number;
  shutdownGraceMs?: number;
  /** Non-fatal problems: stdout noise and the like. */
  onDiagnostic?: (message: string) => void;
  /**
   * Where a tool result's text too long to hold in memory is written as it arrives (see spilled-text.ts); without
   * it every text is held whole.
   */
  openSpill?: OpenSpill;
  /** Where the error answers the transport writes in place of the server's are noted (see host-written-answers.ts). */
  hostWritten?: HostWrittenAnswers;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly stderr = new StderrRing();
  private child?: ChildProcessByStdio<Writable, Readable, Readable>;
  private exitInfo?: ProcessExit;
  private exited?: Promise<ProcessExit>;
  private closing = false;
  private closed = false;
  private noiseLines = 0;
  private tooDeepMessages = 0;
  private readonly pendingListChanged = new Map<string, JSONRPCMessage>();
  private readonly logGate = createLogRateGate((dropped) =>
    this.options.onDiagnostic?.(
      `sent log messages faster than ${LOG_MESSAGES_PER_SECOND} a second; dropped ${dropped.toLocaleString('en-US')} log messages`,
    ),
  );
  /** A message was sent in this tick: the ones after it wait for the end of the tick to go out together. */
  private sendingThisTick = false;
  /** The wait for stdin to drain that the sends it pushed back on share, while there is one. */
  private drain?: Promise<void>;
  /**
   * The requests in flight, to name the request a refused answer was for, to know an answer nobody waits for, and to
   * tell which call a server's request came with (see call-streams.ts). An id is let go once answered or cancelled (a
   * call that times out or is given up on is cancelled), so it holds no more than the client library holds a handler
   * and a timer for.
   */
  readonly pending = new PendingRequests();
  /** Where answers for an id nobody waits for are told, in the same words as for a remote server. */
  private readonly strays = strayAnswerReporter((message) => this.options.onDiagnostic?.(message));
  /** Hands messages to the client: an answer after the progress before it, the latest of a burst of progress. */
  private readonly progressHandOn = new ProgressHandOn(
    (message) => this.handToClient(message),
    () =>
      this.options.onDiagnostic?.(
        'sends progress notifications faster than they can be used; only the latest of each burst is passed on',
      ),
  );
  private closedBecause?: string;
  /** Why stdin failed, once it has: nothing can be sent after, though the process may run on and answer. */
  private inputFailure?: Error;
  /** The server's side ended the connection (exited, closed its input or output) before the host began to close it. */
  private endedByServer = false;
  /** The host signalled the process before it exited: its exit is the host's doing, not the server's. */
  private signalledBeforeExit = false;
  /** The server closed its stdout while its process ran on; the host then closed the connection and stopped it. */
  private outputClosedWhileRunning = false;

  constructor(private readonly options: ProcessGroupStdioOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Why the transport closed the connection itself (a message over the size limit), if it did. */
  get closeReason(): string | undefined {
    return this.closedBecause;
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  /**
   * How the server went away by itself, when it did before the host closed the connection: its process's exit when
   * the host had not signalled it, `outputClosedWhileRunning` when it closed its stdout and ran on (the host then
   * stopped it), `{}` when it closed its input. Whatever a request failed with then (the connection closed, a write to
   * a closed pipe) is a symptom of this.
   */
  get endedOnItsOwn(): { exit?: ProcessExit; outputClosedWhileRunning?: true } | undefined {
    // A command that could not be started (not found) ends its pipes too, but no server went away.
    if (!this.endedByServer || this.child === undefined) return undefined;
    if (this.outputClosedWhileRunning) return { outputClosedWhileRunning: true };
    return this.exitInfo !== undefined && !this.signalledBeforeExit ? { exit: this.exitInfo } : {};
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('transport already started');
    const child = spawn(this.options.command, this.options.args, {
      cwd: this.options.cwd,
      env: this.options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so the whole tree can be stopped with one signal.
      detached: true,
      windowsHide: true,
    });
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        if (!this.closing) this.endedByServer = true;
        resolve(this.exitInfo);
        // Normally stdout closes with the process; if something it left behind holds it open, end that too.
        setTimeout(() => {
          if (this.closed) return;
          this.signalGroup('SIGKILL');
          this.markClosed();
        }, EXIT_STDIO_GRACE_MS).unref();
      });
    });
    const splitter = new LineSplitter(
      this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      (line) => this.handleLine(line),
      (bytes) => {
        const limit = this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
        this.closedBecause = tooLargeMessageText(limit, bytes, 'the host closed the connection');
        this.onerror?.(new Error(this.closedBecause));
        void this.close();
      },
      { openSpill: this.options.openSpill },
    );
    child.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
    child.stdout.once('close', () => {
      if (!this.closing) this.endedByServer = true;
      splitter.close();
      if (!this.closing) setTimeout(() => this.endIfStillRunning(), EXIT_STDIO_GRACE_MS).unref();
    });
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    child.stdin.on('error', (error) => {
      this.inputFailure ??= error;
      if (!this.closing) this.endedByServer = true;
      if (!this.closing) this.onerror?.(error);
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => reject(error));
    }).catch((error: unknown) => {
      // Nothing was started (command not found…): there is no process to wait for or stop.
      this.child = undefined;
      this.exited = undefined;
      throw error;
    });
    trackServerProcess(this);
    child.once('close', () => this.markClosed());
  }

  /**
   * After the server closed its stdout: a process still running then can answer nothing, so the connection is closed
   * at once (every request waiting fails, where each would have waited for its timeout) and the process is stopped as
   * the host stops any server, rather than left running with nothing to read it.
   */
  private endIfStillRunning(): void {
    if (this.closing || this.closed || this.exitInfo !== undefined) return;
    this.outputClosedWhileRunning = true;
    void this.close();
    this.markClosed();
  }

  private handleLine(built: BuiltLine): void {
    if (built.longStrings.length === 0 && built.text.trim() === '') return;
    const read = readJsonRpcLine(built.text, built.longStrings);
    if (read && 'message' in read) {
      this.deliver(read.message, read.tooDeep || undefined);
      return;
    }
    if (read !== undefined) {
      const method = this.pending.get(read.id);
      if (method !== undefined) this.refuseInvalidAnswer(read.id, method, read.invalidAnswer, built.text);
      // An answer nobody waits for has no request to fail: it is told, and ignored.
      else
        this.strays.invalid(read.id, invalidAnswerOf(read.invalidAnswer)?.why ?? 'it is not a valid JSON-RPC response');
      return;
    }
    const line = lineWithLongStrings(built);
    // Text written without a newline (`Starting…`) glues itself to the next message: keep the message.
    const glued = line.endsWith('}') ? findGluedMessage(line) : undefined;
    this.reportNoise(glued ? line.slice(0, glued.start) : line);
    if (glued) this.deliver(glued.message);
  }

  /**
   * A flood of notifications is thinned before the SDK parses each one (that costs about a millisecond apiece):
   * log messages past the per-server rate are dropped and counted, and `list_changed` of one kind arriving in one
   * read from the pipe is handed on once, after the read.
   */
  private gateNotification(message: JSONRPCMessage): boolean {
    if (!('method' in message) || 'id' in message) return true;
    if (message.method === 'notifications/message') return this.logGate.admit();
    if (!message.method.endsWith('/list_changed')) return true;
    if (this.pendingListChanged.size === 0) queueMicrotask(() => this.flushListChanged());
    this.pendingListChanged.set(message.method, message);
    return false;
  }

  private flushListChanged(): void {
    const pending = [...this.pendingListChanged.values()];
    this.pendingListChanged.clear();
    for (const message of pending) this.onmessage?.(message);
  }

  /** Hands a message to the client, unless it is nested too deep for anything to walk (see too-deep-message.ts). */
  private deliver(message: JSONRPCMessage, tooDeep?: boolean): void {
    if (!this.gateNotification(message)) return;
    const answered = 'method' in message || !('id' in message) ? undefined : message.id;
    const verdict = screenMessageDepth(message, (id) => this.pending.get(id), tooDeep);
    if (answered !== undefined) this.pending.delete(answered);
    if (verdict.kind === 'fine') {
      this.progressHandOn.handOn(message);
      return;
    }
    if (verdict.kind === 'stray') {
      this.strays.tooDeep(verdict.id);
      return;
    }
    this.tooDeepMessages += 1;
    if (this.tooDeepMessages <= MAX_NOISE_REPORTS) this.options.onDiagnostic?.(`${verdict.what}; refused`);
    else if (this.tooDeepMessages === MAX_NOISE_REPORTS + 1) {
      this.options.onDiagnostic?.('keeps sending messages nested too deep; further ones are refused silently');
    }
    if (verdict.kind === 'answer-replaced') {
      this.options.hostWritten?.note(verdict.replacement, verdict.words);
      this.handToClient(verdict.replacement);
    } else if (verdict.kind === 'request-refused') this.send(verdict.reply).catch(() => undefined);
  }

  /** Hands `message` to the client: an answer's request is in flight no more. */
  private handToClient(message: JSONRPCMessage): void {
    if (!('method' in message) && 'id' in message && message.id !== undefined) this.pending.handedOn(message.id);
    this.onmessage?.(message);
  }

  /**
   * Fails the request `id` (of `method`) at once in place of its answer, which is not valid JSON-RPC: the client
   * library would drop it and leave the request to its timeout.
   */
  private refuseInvalidAnswer(
    id: string | number,
    method: string,
    answer: Record<string, unknown>,
    line: string,
  ): void {
    this.pending.delete(id);
    const { what, replacement, words } = invalidAnswer(id, method, answer);
    this.options.onDiagnostic?.(`${what}: ${quoted(line)}`);
    this.options.hostWritten?.note(replacement, words);
    this.progressHandOn.handOn(replacement);
  }

  private reportNoise(text: string): void {
    this.noiseLines += 1;
    if (this.noiseLines <= MAX_NOISE_REPORTS) {
      const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
      this.options.onDiagnostic?.(`wrote non-protocol output to stdout (ignored): ${JSON.stringify(shown)}`);
    } else if (this.noiseLines === MAX_NOISE_REPORTS + 1) {
      this.options.onDiagnostic?.('keeps writing non-protocol output to stdout; further ones are ignored silently');
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const stdin = this.child?.stdin;
    if (this.inputFailure !== undefined && !this.closing && this.exitInfo === undefined) {
      throw new Error(inputFailureText(this.inputFailure), { cause: this.inputFailure });
    }
    if (!stdin || this.closing || !stdin.writable) throw new Error('not connected: the server process is not running');
    // A request given up on waits for nothing: an answer to it is a stray, not a reason to write one.
    const id = this.pending.sent(message, options);
    const text = serializeMessage(message);
    // The first message of a tick goes out at once, so a lone call waits for nothing; the others sent in the same
    // tick (the parallel calls of a turn) follow in one write: every write wakes the server process, and waking it
    // once per message made a turn's writes cost several times as much.
    if (this.sendingThisTick) {
      if (stdin.writableCorked === 0) stdin.cork();
    } else {
      this.sendingThisTick = true;
      process.nextTick(() => {
        this.sendingThisTick = false;
        if (stdin.writableCorked > 0) stdin.uncork();
      });
    }
    // Resolve as soon as the pipe takes the message; wait only when it pushes back. Waiting for every write's
    // callback would add a round of the event loop to each call. A write accepted here can still fail later (the
    // server closes its input while the message waits behind a full pipe): the request then fails at once, in
    // place of an answer that cannot come, where it would have waited for its timeout. A message the pipe took whole
    // and the server never read is dropped without a word when it closes its input: Node watches a child's stdin
    // only while a write waits, and the socket's end says only that some bytes went unread, not which requests.
    let accepted = false;
    const written =
      id === undefined
        ? undefined
        : (error?: Error | null) => {
            if (error && accepted) this.failUnsentRequest(id, error);
          };
    if (stdin.write(text, written)) {
      accepted = true;
      return;
    }
    try {
      await this.drainOf(stdin);
    } catch (error) {
      // The request never reached the server: nothing waits for its answer, and its caller is told why at once.
      if (id !== undefined) this.pending.unsent(id);
      throw new Error(inputFailureText(error), { cause: error });
    }
  }

  /**
   * Fails the request `id`, whose write the pipe accepted and then failed, with an error answer of the host's (noted
   * as such: see host-written-answers.ts), unless it was answered or given up on meanwhile.
   */
  private failUnsentRequest(id: string | number, error: Error): void {
    const method = this.pending.get(id);
    if (method === undefined || this.closing) return;
    this.pending.delete(id);
    const failure = `${inputFailureText(error)} (${error.message.slice(0, 200)})`;
    const replacement: JSONRPCMessage = {
      jsonrpc: '2.0',
      id,
      error: { code: INTERNAL_ERROR, message: `the ${method} request did not reach the server: ${failure}` },
    };
    this.options.hostWritten?.note(replacement, `did not receive the ${method} request: ${failure}`);
    this.progressHandOn.handOn(replacement);
  }

  /**
   * Resolves when `stdin` drains; rejects if it fails first. One wait is shared by every send the pipe pushed back
   * on, renewed after each drain: a listener per waiting send would pile up past Node's limit of ten and warn.
   */
  private drainOf(stdin: Writable): Promise<void> {
    this.drain ??= new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        stdin.off('drain', onDrain);
        stdin.off('error', onError);
        this.drain = undefined;
        if (error === undefined) resolve();
        else reject(error);
      };
      const onDrain = () => settle();
      const onError = (error: Error) => settle(error);
      stdin.once('drain', onDrain);
      stdin.once('error', onError);
    });
    return this.drain;
  }

  /**
   * Stops the server: stdin closed, then SIGTERM to the whole group after {@link STDIN_CLOSE_WAIT_MS} unless it
   * exited, then SIGKILL after the grace. The short wait lets a server read what was written last (a cancellation
   * sent as the host stops) before the signal; many servers ignore stdin closing (timers keep them alive), so
   * waiting longer would make every command end seconds after its output.
   */
  async close(): Promise<void> {
    if (this.closing) {
      await this.exited;
      return;
    }
    this.closing = true;
    this.pending.endCalls();
    const child = this.child;
    // Found while the server still runs: once it exits, its descendants' parent links lead nowhere.
    const descendants = this.escapedDescendants();
    if (child && this.exited && !this.exitInfo) {
      const grace = this.options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
      child.stdin.end();
      if (!(await waitFor(this.exited, STDIN_CLOSE_WAIT_MS))) this.signalGroup('SIGTERM');
      signalTracked(descendants, 'SIGTERM');
      if (!(await waitFor(this.exited, grace))) {
        this.signalGroup('SIGKILL');
        await this.exited;
      }
    }
    // The leader is gone; anything it left in its group (a grandchild of a wrapper) goes too, and so do
    // descendants that started a session of their own.
    this.signalGroup('SIGKILL');
    signalTracked(descendants, 'SIGKILL');
    untrackServerProcess(this);
    this.markClosed();
  }

  /** Kills the group at once, for the host's own emergency exit paths. */
  killNow(): void {
    const descendants = this.escapedDescendants();
    this.signalGroup('SIGKILL');
    signalTracked(descendants, 'SIGKILL');
  }

  /** The server's descendants by parent pid (Linux /proc), including those outside its process group. */
  private escapedDescendants(): TrackedProcess[] {
    const pid = this.child?.pid;
    return pid === undefined || this.exitInfo ? [] : descendantsOf(pid);
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    if (this.exitInfo === undefined) this.signalledBeforeExit = true;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group no longer exists.
    }
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.logGate.close();
    this.pending.clear();
    this.child?.stdout.destroy();
    this.child?.stderr.destroy();
    this.onclose?.();
  }
}

/** What a failed write to a server's stdin means, in words. */
function inputFailureText(error: unknown): string {
  const why = (error as NodeJS.ErrnoException).code === 'EPIPE' ? ': it closed its input' : '';
  return `could not write to the server's stdin${why}`;
}

/** Where a JSON-RPC message may begin: an object whose first key is one a message has. */
const MESSAGE_START = /\{"(?:jsonrpc|id|method|result|error|params)"/g;
/** Candidate starts tried per line, so a long noisy line costs a few parses at most. */
const MAX_GLUED_ATTEMPTS = 3;

function findGluedMessage(line: string): { start: number; message: JSONRPCMessage } | undefined {
  let attempts = 0;
  for (const match of line.matchAll(MESSAGE_START)) {
    if (match.index === 0) continue;
    const message = parseJsonRpcLine(line.slice(match.index));
    if (message) return { start: match.index, message };
    if (++attempts >= MAX_GLUED_ATTEMPTS) return undefined;
  }
  return undefined;
}

async function waitFor(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const result = await Promise.race([promise.then(() => true as const), timeout]);
  clearTimeout(timer);
  return result;
}
