/**
 * The chat's one reader of the terminal: a node:readline line editor (history, Tab completion) that owns the input.
 * Each typed line goes to exactly one place: the chat prompt when it waits for a message, or the question being
 * asked during a turn (approvals, sampling, forms). Those questions are asked by the project's own line prompter,
 * fed from here, so they read and behave as in `mcp-host run`. Ctrl-C is reported to the chat, never a signal that
 * ends the process; Ctrl-D (end of input) ends reading.
 */

import { type Completer, createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { createLinePrompter, type LinePrompter } from '../../policy/line-prompter.js';
import type { ChatOutput } from './chat-output.js';

type CompleteLine = (line: string) => Promise<[string[], string]>;

export interface ChatInput {
  /** Shows `prompt` and resolves with the next line, or undefined once the input has ended. */
  read(prompt: string): Promise<string | undefined>;
  /** Questions asked during a turn; answered by the lines typed while they wait. */
  readonly prompter: LinePrompter;
  /** What is typed at the prompt so far. */
  currentLine(): string;
  /** Empties the line being typed and shows the prompt again. */
  discardLine(): void;
  /** A line of text for the person, shown under the prompt line, which is drawn again after it. */
  notice(text: string): void;
  /** Ctrl-C (on a terminal) or SIGINT (otherwise). */
  onInterrupt(handler: () => void): void;
  /** A line typed while nothing waits for one (a turn is running): it is kept for the next read. */
  onQueuedLine(handler: (line: string) => void): void;
  readonly ended: boolean;
  close(): void;
}

interface ChatInputOptions {
  input: NodeJS.ReadStream;
  output: ChatOutput;
  terminal: NodeJS.WriteStream;
  complete?: CompleteLine;
}

export function createChatInput(options: ChatInputOptions): ChatInput {
  const interactive = options.input.isTTY === true && options.terminal.isTTY === true;
  const completer = options.complete;
  const reader = createInterface({
    input: options.input,
    // Without a terminal nothing is echoed and no prompt is drawn: the output stays the conversation alone.
    ...(interactive ? { output: options.terminal } : {}),
    terminal: interactive,
    historySize: 500,
    ...(interactive && completer !== undefined
      ? {
          completer: ((line: string, callback: (error: Error | null, result: [string[], string]) => void) => {
            completer(line).then(
              (result) => callback(null, result),
              () => callback(null, [[], line]),
            );
          }) as Completer,
        }
      : {}),
  });
  const answers = new PassThrough();
  const questions = createLinePrompter({ input: answers, output: options.output.stream });
  let waiting: ((line: string | undefined) => void) | undefined;
  const queued: string[] = [];
  /**
   * Questions waiting for their line, oldest first. A typed line answers one of them and is then no longer theirs
   * to take: a second line typed in the same breath must not be kept for a question not yet asked (a later approval
   * would be answered before it is shown).
   */
  const waitingQuestions: Array<{ answered: boolean }> = [];
  let ended = false;
  let interruptHandler: () => void = () => {};
  let queuedHandler: (line: string) => void = () => {};

  reader.on('line', (line) => {
    options.output.atLineStart();
    if (waiting !== undefined) {
      const deliver = waiting;
      waiting = undefined;
      deliver(line);
    } else if (waitingQuestions.length > 0) {
      waitingQuestions.shift()!.answered = true;
      answers.write(`${line}\n`);
    } else {
      // Typed ahead (or from a pipe, all at once): each line waits for its turn.
      queued.push(line);
      if (interactive) queuedHandler(line);
    }
  });
  reader.on('close', () => {
    ended = true;
    answers.end();
    const deliver = waiting;
    waiting = undefined;
    deliver?.(undefined);
  });
  const onSignal = (): void => interruptHandler();
  if (interactive) reader.on('SIGINT', onSignal);
  else process.on('SIGINT', onSignal);

  const prompter: LinePrompter = {
    write: (text) => questions.write(text),
    async ask(prompt, signal) {
      const question = { answered: false };
      waitingQuestions.push(question);
      // The line editor redraws its prompt when the answer is edited: give it the question's last line.
      if (interactive) reader.setPrompt(prompt.slice(prompt.lastIndexOf('\n') + 1));
      try {
        return await questions.ask(prompt, signal);
      } finally {
        // Cancelled or ended before a line came: it waits no more.
        if (!question.answered) waitingQuestions.splice(waitingQuestions.indexOf(question), 1);
        if (interactive) reader.setPrompt('');
      }
    },
    exclusive: (dialog) => questions.exclusive(dialog),
    close: () => questions.close(),
  };

  return {
    read(prompt) {
      if (queued.length > 0) return Promise.resolve(queued.shift());
      if (ended) return Promise.resolve(undefined);
      options.output.endLine();
      return new Promise((resolve) => {
        waiting = resolve;
        if (interactive) {
          reader.setPrompt(prompt);
          reader.prompt();
        }
      });
    },
    prompter,
    currentLine: () => reader.line,
    discardLine() {
      if (!interactive) return;
      reader.write(null, { ctrl: true, name: 'e' });
      reader.write(null, { ctrl: true, name: 'u' });
    },
    notice(text) {
      if (!interactive || waiting === undefined) {
        options.output.line(text);
        return;
      }
      options.output.writeStyled('\n');
      options.output.line(text);
      reader.prompt(true);
    },
    onInterrupt(handler) {
      interruptHandler = handler;
    },
    onQueuedLine(handler) {
      queuedHandler = handler;
    },
    get ended() {
      return ended;
    },
    close() {
      if (!interactive) process.off('SIGINT', onSignal);
      questions.close();
      if (!ended) reader.close();
    },
  };
}
