/**
 * The CLI's only writers: answers and data to stdout, everything else to stderr. A reader that stops reading
 * (`mcp-host tools list | head -1`) closes the pipe: that is a normal end, not a crash, so EPIPE only stops further
 * output to that stream. Text may carry what servers and models said, so it is printed without terminal control
 * codes; JSON keeps every character, escaped. An error or warning may quote what a config or a server said, at any
 * length: each of its lines is cut to a length a person can read.
 */
import { cutLine } from '../text/cut-line.js';
import { escapeJsonControlCodes, stripControlCodes } from '../text/strip-control-codes.js';

const closedStreams = new WeakSet<NodeJS.WriteStream>();

function isClosedPipeError(error: NodeJS.ErrnoException): boolean {
  return error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED';
}

/** Installed once by main: without a listener, EPIPE on stdout is an uncaught error that ends the process. */
export function treatClosedPipesAsEnd(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (isClosedPipeError(error)) {
        closedStreams.add(stream);
        return;
      }
      throw error;
    });
  }
}

/** Resolves once everything written so far has been handed to the operating system (or the reader is gone). */
export function flushOutput(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): Promise<void> {
  return Promise.all(
    streams.map(
      (stream) =>
        new Promise<void>((resolve) => {
          if (closedStreams.has(stream) || stream.destroyed) return resolve();
          // An empty write's callback runs after every earlier write has been flushed.
          stream.write('', () => resolve());
        }),
    ),
  ).then(() => undefined);
}

function write(stream: NodeJS.WriteStream, text: string): void {
  if (closedStreams.has(stream) || stream.destroyed) return;
  stream.write(text);
}

/**
 * Writes text the caller has made safe to print (control codes stripped, or escaped as JSON) and resolves when the
 * stream can take more: a long text printed a piece at a time waits for a slow reader instead of piling up in memory.
 * Resolves to false once the reader is gone (`| head`), so the writer can stop reading what nobody will see.
 */
export function writeCleaned(target: 'stdout' | 'stderr', text: string): Promise<boolean> {
  const stream = target === 'stdout' ? process.stdout : process.stderr;
  const open = (): boolean => !closedStreams.has(stream) && !stream.destroyed;
  if (!open()) return Promise.resolve(false);
  if (stream.write(text)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve(open());
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}

export function writeOut(text: string): void {
  write(process.stdout, stripControlCodes(text));
}

export function writeLine(text = ''): void {
  write(process.stdout, `${stripControlCodes(text)}\n`);
}

/** Longer than any line of the CLI's own messages; far shorter than a config key or a server's text can be. */
const MAX_ERROR_LINE_CHARACTERS = 1_000;

/** An error, warning or note for the person at the terminal: every line bounded, a newline at the end. */
export function writeError(text: string): void {
  endWithNewline(process.stderr, boundErrorLines(text));
}

/** `text` without control codes, each of its lines longer than an error line may be cut short. */
export function boundErrorLines(text: string): string {
  return stripControlCodes(text)
    .split('\n')
    .map((line) => (line.length > MAX_ERROR_LINE_CHARACTERS ? cutLine(line, MAX_ERROR_LINE_CHARACTERS) : line))
    .join('\n');
}

/**
 * What a command prints to stderr as its output rather than as a message (a failed call's result, a trace): whole,
 * without control codes, a newline at the end.
 */
export function writeStderrText(text: string): void {
  endWithNewline(process.stderr, stripControlCodes(text));
}

function endWithNewline(stream: NodeJS.WriteStream, clean: string): void {
  write(stream, clean.endsWith('\n') ? clean : `${clean}\n`);
}

/** Where a command handed a stream of its own (a test's, or the process's) writes text. */
export interface TextWriter {
  write(text: string): unknown;
}

/** `stream`, written to without control codes, as {@link writeOut} writes to stdout. */
export function cleanedWriter(stream: NodeJS.WritableStream): TextWriter {
  return { write: (text) => stream.write(stripControlCodes(text)) };
}

export function writeJson(value: unknown): void {
  write(process.stdout, `${escapeJsonControlCodes(JSON.stringify(value, null, 2))}\n`);
}
