/**
 * Questions asked on a terminal, one line of answer each, one question at a time. Lines are read with
 * node:readline from the given streams, so tests drive it with PassThrough streams exactly as a user would type.
 * Input that ends (Ctrl-D, a closed pipe) answers `undefined`, which callers treat as no.
 *
 * One prompter should serve everything that reads the same input: two readers on one stream would both receive
 * every line.
 */
import { createInterface, type Interface } from 'node:readline';
import { abortableSignal } from '../connections/never-aborted.js';

export interface LinePrompter {
  /** Writes `text` to the output without waiting for an answer. */
  write(text: string): void;
  /** Writes `prompt` and resolves with the next line typed, or undefined once the input has ended. */
  ask(prompt: string, signal?: AbortSignal): Promise<string | undefined>;
  /**
   * Runs `dialog` with the prompter to itself: questions of other dialogs wait until it finishes, so the lines
   * of one form are never mixed with another question.
   */
  exclusive<Result>(dialog: () => Promise<Result>): Promise<Result>;
  close(): void;
}

interface LinePrompterOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

export function createLinePrompter(options: LinePrompterOptions): LinePrompter {
  const { input, output } = options;
  const lines: string[] = [];
  let waiter: ((line: string | undefined) => void) | undefined;
  let ended = false;
  let reader: Interface | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const deliver = (line: string | undefined): void => {
    const current = waiter;
    waiter = undefined;
    current?.(line);
  };

  const openReader = (): void => {
    if (reader === undefined) {
      reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
      reader.on('line', (line) => {
        if (waiter === undefined) lines.push(line);
        else deliver(line);
      });
      reader.on('close', () => {
        ended = true;
        deliver(undefined);
      });
    }
    if (!ended) reader.resume();
  };

  const nextLine = (given: AbortSignal | undefined): Promise<string | undefined> => {
    if (lines.length > 0) return Promise.resolve(lines.shift());
    if (ended) return Promise.resolve(undefined);
    // The shared signal of calls made without one never aborts: a listener there would stay for as long as its
    // question waits for a line, which may be forever.
    const signal = abortableSignal(given);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        waiter = undefined;
        output.write('\n(cancelled)\n');
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiter = (line) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(line);
      };
    });
  };

  return {
    write(text) {
      output.write(text);
    },
    async ask(prompt, signal) {
      signal?.throwIfAborted();
      output.write(prompt);
      openReader();
      try {
        return await nextLine(signal);
      } finally {
        // Let the process exit while no one is being asked.
        if (!ended && waiter === undefined) reader?.pause();
      }
    },
    exclusive(dialog) {
      const result = queue.then(dialog, dialog);
      queue = result.catch(() => undefined);
      return result;
    },
    close() {
      ended = true;
      reader?.close();
      deliver(undefined);
    },
  };
}
