/**
 * Asks the person at the terminal. Questions are asked one at a time even when a turn runs several calls in
 * parallel, each showing everything needed to decide (see approval-view.ts). Reads lines with node:readline from
 * the given streams, so tests drive it with PassThrough streams exactly as a user would type. Input that ends
 * (Ctrl-D, a closed pipe) answers no.
 */

import { createInterface, type Interface } from 'node:readline';
import { formatDefinitionApproval, formatServerApproval, formatToolCallApproval } from './approval-view.js';
import type {
  Approver,
  DefinitionApprovalAnswer,
  DefinitionApprovalRequest,
  ServerApprovalRequest,
  ToolApprovalAnswer,
  ToolApprovalRequest,
} from './approver.js';
import { showRaw } from './hidden-content.js';

export interface TerminalApproverOptions {
  /** Usually `process.stdin`; use only when it is a TTY (`process.stdin.isTTY`). */
  input: NodeJS.ReadableStream;
  /** Usually `process.stderr`, so answers never mix with output a script reads from stdout. */
  output: NodeJS.WritableStream;
  /**
   * A line reader shared with everything else that asks on the same terminal (sampling, elicitation). Two readers
   * on one input would both receive every typed line, so an answer meant for one could be taken by the other.
   */
  prompter?: SharedLinePrompter;
}

/** The part of a shared line prompter the approver needs (see client-features/line-prompter.ts). */
export interface SharedLinePrompter {
  write(text: string): void;
  ask(prompt: string, signal?: AbortSignal): Promise<string | undefined>;
  exclusive<Result>(dialog: () => Promise<Result>): Promise<Result>;
}

export interface TerminalApprover extends Approver {
  /** Stops reading the input. Pending questions are answered no. */
  close(): void;
}

interface Choice<Answer> {
  keys: readonly string[];
  answer: Answer;
}

/** Lines typed so far but not yet consumed, and whoever is waiting for the next one. */
class LineQueue {
  private readonly lines: string[] = [];
  private waiter: ((line: string | undefined) => void) | undefined;
  private ended = false;

  push(line: string): void {
    if (this.waiter === undefined) this.lines.push(line);
    else this.take(line);
  }

  end(): void {
    this.ended = true;
    this.take(undefined);
  }

  /** Resolves with the next line, or undefined once the input has ended. */
  next(): Promise<string | undefined> {
    if (this.lines.length > 0) return Promise.resolve(this.lines.shift());
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  cancel(): void {
    this.waiter = undefined;
  }

  private take(line: string | undefined): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(line);
  }
}

export function createTerminalApprover(options: TerminalApproverOptions): TerminalApprover {
  const { input, output } = options;
  const queue = new LineQueue();
  let reader: Interface | undefined;
  let readerClosed = false;
  let closed = false;
  // One question at a time: each waits for the one before it.
  let turn: Promise<unknown> = Promise.resolve();

  const openReader = (): Interface => {
    if (reader === undefined) {
      reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
      reader.on('line', (line) => queue.push(line));
      reader.on('close', () => {
        readerClosed = true;
        queue.end();
      });
    }
    if (!readerClosed) reader.resume();
    return reader;
  };

  const askShared = <Answer>(
    shared: SharedLinePrompter,
    view: string,
    prompt: string,
    choices: ReadonlyArray<Choice<Answer>>,
    fallback: Answer,
    signal: AbortSignal | undefined,
  ): Promise<Answer> =>
    shared.exclusive(async () => {
      signal?.throwIfAborted();
      if (closed) return fallback;
      shared.write(view);
      for (;;) {
        const line = await shared.ask(prompt, signal);
        if (line === undefined) {
          shared.write('\n(no answer: input ended; taken as no)\n');
          return fallback;
        }
        const typed = line.trim().toLowerCase();
        const choice = choices.find((candidate) => candidate.keys.includes(typed));
        if (choice !== undefined) return choice.answer;
        const valid = choices.map((candidate) => candidate.keys[0]).join(', ');
        shared.write(`Please answer ${valid} (you typed "${showRaw(line)}").\n`);
      }
    });

  const ask = <Answer>(
    view: string,
    prompt: string,
    choices: ReadonlyArray<Choice<Answer>>,
    fallback: Answer,
    signal: AbortSignal | undefined,
  ): Promise<Answer> => {
    if (options.prompter) return askShared(options.prompter, view, prompt, choices, fallback, signal);
    const question = async (): Promise<Answer> => {
      signal?.throwIfAborted();
      if (closed) return fallback;
      output.write(view);
      const current = openReader();
      try {
        for (;;) {
          output.write(prompt);
          const line = await nextLine(signal);
          if (line === undefined) {
            output.write('\n(no answer: input ended; taken as no)\n');
            return fallback;
          }
          const typed = line.trim().toLowerCase();
          const choice = choices.find((candidate) => candidate.keys.includes(typed));
          if (choice !== undefined) return choice.answer;
          const valid = choices.map((candidate) => candidate.keys[0]).join(', ');
          output.write(`Please answer ${valid} (you typed "${showRaw(line)}").\n`);
        }
      } finally {
        // Let the process exit while no one is being asked.
        if (!readerClosed) current.pause();
      }
    };
    const result = turn.then(question, question);
    turn = result.catch(() => undefined);
    return result;
  };

  const nextLine = (signal: AbortSignal | undefined): Promise<string | undefined> => {
    if (signal === undefined) return queue.next();
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        queue.cancel();
        output.write('\n(cancelled)\n');
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      queue.next().then((line) => {
        signal.removeEventListener('abort', onAbort);
        resolve(line);
      }, reject);
    });
  };

  return {
    kind: 'terminal',
    approveToolCall(request: ToolApprovalRequest, signal?: AbortSignal): Promise<ToolApprovalAnswer> {
      const choices: Array<Choice<ToolApprovalAnswer>> = [
        { keys: ['o', 'once', 'y', 'yes'], answer: 'allow-once' },
        ...(request.canAlwaysAllow ? [{ keys: ['a', 'always'], answer: 'allow-always' as const }] : []),
        { keys: ['d', 'deny', 'n', 'no'], answer: 'deny' },
      ];
      const always = request.canAlwaysAllow ? `  [a] always allow ${showRaw(request.toolName)}` : '';
      const prompt = `[o] allow once${always}  [d] deny\nYour choice (${choices.map((choice) => choice.keys[0]).join('/')}): `;
      return ask(formatToolCallApproval(request), prompt, choices, 'deny', signal);
    },
    approveToolDefinition(request: DefinitionApprovalRequest, signal?: AbortSignal): Promise<DefinitionApprovalAnswer> {
      return ask(formatDefinitionApproval(request), DEFINITION_PROMPT, DEFINITION_CHOICES, 'reject', signal);
    },
    approveServer(request: ServerApprovalRequest, signal?: AbortSignal): Promise<DefinitionApprovalAnswer> {
      return ask(formatServerApproval(request), DEFINITION_PROMPT, DEFINITION_CHOICES, 'reject', signal);
    },
    close(): void {
      closed = true;
      reader?.close();
      queue.end();
    },
  };
}

const DEFINITION_PROMPT = '[a] approve  [r] reject (keep it withheld)\nYour choice (a/r): ';
const DEFINITION_CHOICES: ReadonlyArray<Choice<DefinitionApprovalAnswer>> = [
  { keys: ['a', 'approve', 'y', 'yes'], answer: 'approve' },
  { keys: ['r', 'reject', 'n', 'no'], answer: 'reject' },
];
