/**
 * Asks the person at the terminal. Questions are asked one at a time even when a turn runs several calls in
 * parallel, each showing everything needed to decide (see approval-view.ts). Lines are read through a
 * `LinePrompter`, shared with every other question asked on the same terminal (sampling, elicitation), so each
 * typed line reaches exactly one question; tests drive it with PassThrough streams exactly as a user would type.
 * Input that ends (Ctrl-D, a closed pipe) answers no.
 */

import {
  argumentsCutInView,
  formatDefinitionApproval,
  formatServerApproval,
  formatToolCallApproval,
  formatWholeArguments,
} from './approval-view.js';
import type {
  Approver,
  DefinitionApprovalAnswer,
  DefinitionApprovalRequest,
  ServerApprovalRequest,
  ToolApprovalAnswer,
  ToolApprovalRequest,
} from './approver.js';
import { showRaw } from './hidden-content.js';
import { createLinePrompter, type LinePrompter } from './line-prompter.js';

interface TerminalApproverOptions {
  /** Usually `process.stdin`; use only when it is a TTY (`process.stdin.isTTY`). */
  input: NodeJS.ReadableStream;
  /** Usually `process.stderr`, so answers never mix with output a script reads from stdout. */
  output: NodeJS.WritableStream;
  /** The terminal's one line reader, when others ask on it too; default: a reader of the approver's own. */
  prompter?: LinePrompter;
}

interface TerminalApprover extends Approver {
  /** Stops reading the input. Pending questions are answered no. */
  close(): void;
}

interface Choice<Answer> {
  keys: readonly string[];
  answer: Answer;
}

/** A key that shows more before the question is asked again, and answers nothing. */
interface MoreToSee {
  keys: readonly string[];
  text: () => string;
}

export function createTerminalApprover(options: TerminalApproverOptions): TerminalApprover {
  const prompter = options.prompter ?? createLinePrompter({ input: options.input, output: options.output });
  let closed = false;

  const ask = <Answer>(
    view: string,
    prompt: string,
    choices: ReadonlyArray<Choice<Answer>>,
    fallback: Answer,
    signal: AbortSignal | undefined,
    more?: MoreToSee,
  ): Promise<Answer> =>
    prompter.exclusive(async () => {
      signal?.throwIfAborted();
      if (closed) return fallback;
      prompter.write(view);
      for (;;) {
        const line = await prompter.ask(prompt, signal);
        if (line === undefined) {
          prompter.write('\n(no answer: input ended; taken as no)\n');
          return fallback;
        }
        const typed = line.trim().toLowerCase();
        const choice = choices.find((candidate) => candidate.keys.includes(typed));
        if (choice !== undefined) return choice.answer;
        if (more?.keys.includes(typed)) {
          prompter.write(more.text());
          continue;
        }
        const valid = [...choices.map((candidate) => candidate.keys[0]), ...(more ? [more.keys[0]] : [])].join(', ');
        prompter.write(`Please answer ${valid} (you typed "${showRaw(line)}").\n`);
      }
    });

  return {
    kind: 'terminal',
    approveToolCall(request: ToolApprovalRequest, signal?: AbortSignal): Promise<ToolApprovalAnswer> {
      // Where an ask rule decided, only "once" and "deny" are offered: the rule asks every time by design.
      const lasting = request.canAlwaysAllow;
      const choices: Array<Choice<ToolApprovalAnswer>> = [
        { keys: ['o', 'once', 'y', 'yes'], answer: 'allow-once' },
        ...(lasting
          ? [
              { keys: ['t', 'tool'], answer: 'allow-tool-for-run' as const },
              { keys: ['s', 'server'], answer: 'allow-server-for-run' as const },
              { keys: ['a', 'always'], answer: 'allow-always' as const },
            ]
          : []),
        { keys: ['d', 'deny', 'n', 'no'], answer: 'deny' },
      ];
      const tool = showRaw(request.toolName);
      const offers = lasting
        ? `  [t] allow ${tool} for this run  [s] allow every tool of ${showRaw(request.serverName)} for this run\n` +
          `[a] always allow ${tool}`
        : '';
      // Arguments the view cuts can be seen whole on request: a person approves what the call sends, all of it.
      const more: MoreToSee | undefined = argumentsCutInView(request.arguments)
        ? { keys: ['v', 'view'], text: () => formatWholeArguments(request.arguments) }
        : undefined;
      const keys = [...choices.map((choice) => choice.keys[0]), ...(more ? ['v'] : [])].join('/');
      // The question names the call itself, right above where the answer is typed, whatever the view above shows.
      const question = `Call ${tool} of server ${showRaw(request.serverName)}?\n`;
      const view = more ? '  [v] view the whole arguments' : '';
      const prompt = `${question}[o] allow once${offers}  [d] deny${view}\nYour choice (${keys}): `;
      return ask(formatToolCallApproval(request), prompt, choices, 'deny', signal, more);
    },
    approveToolDefinition(request: DefinitionApprovalRequest, signal?: AbortSignal): Promise<DefinitionApprovalAnswer> {
      // As for a call, the question names what it asks about: a long definition may have scrolled the view's top away.
      const question = `Approve tool ${showRaw(request.toolName)} of server ${showRaw(request.serverName)}?\n`;
      return ask(formatDefinitionApproval(request), question + DEFINITION_PROMPT, DEFINITION_CHOICES, 'reject', signal);
    },
    approveServer(request: ServerApprovalRequest, signal?: AbortSignal): Promise<DefinitionApprovalAnswer> {
      const question = `Approve server ${showRaw(request.serverName)}?\n`;
      return ask(formatServerApproval(request), question + DEFINITION_PROMPT, DEFINITION_CHOICES, 'reject', signal);
    },
    close(): void {
      closed = true;
      // A shared reader belongs to whoever made it; only the approver's own is closed here.
      if (options.prompter === undefined) prompter.close();
    },
  };
}

const DEFINITION_PROMPT = '[a] approve  [r] reject (keep it withheld)\nYour choice (a/r): ';
const DEFINITION_CHOICES: ReadonlyArray<Choice<DefinitionApprovalAnswer>> = [
  { keys: ['a', 'approve', 'y', 'yes'], answer: 'approve' },
  { keys: ['r', 'reject', 'n', 'no'], answer: 'reject' },
];
