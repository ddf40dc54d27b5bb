/**
 * Asks the person at the terminal what servers ask of the client: whether the host's model may answer a
 * server's prompt, a form to fill in field by field (defaults offered, Enter takes them), a URL to open. Each
 * dialog holds the prompter until it is done, so two servers asking at once are answered one after the other.
 * Input that ends answers no (deny, cancel).
 */

import { setOwnProperty } from '../json/own-property.js';
import type { LinePrompter } from '../policy/line-prompter.js';
import type {
  ClientRequestApprover,
  ElicitationContent,
  FormElicitationAnswer,
  FormElicitationRequest,
  SamplingApprovalAnswer,
  SamplingApprovalRequest,
  UrlElicitationAnswer,
  UrlElicitationRequest,
} from './client-request-approver.js';
import {
  formatFieldQuestion,
  formatFieldValue,
  formatFormIntro,
  formatSamplingApproval,
  formatUrlElicitation,
  type HostnameMark,
  PLAIN_HOSTNAME_MARK,
} from './client-request-views.js';
import { parseFieldAnswer } from './elicitation-form-fields.js';

interface TerminalClientRequestApproverOptions {
  prompter: LinePrompter;
  /** How a URL's domain is marked; default brackets. Pass `TERMINAL_HOSTNAME_MARK` on a colour terminal. */
  hostnameMark?: HostnameMark;
}

interface Choice<Answer> {
  keys: readonly string[];
  answer: Answer;
}

export function createTerminalClientRequestApprover(
  options: TerminalClientRequestApproverOptions,
): ClientRequestApprover {
  const { prompter } = options;
  const mark = options.hostnameMark ?? PLAIN_HOSTNAME_MARK;

  /** Asks until one of `choices` is typed; input that ends gives `fallback`. */
  const choose = async <Answer>(
    prompt: string,
    choices: ReadonlyArray<Choice<Answer>>,
    fallback: Answer,
    signal?: AbortSignal,
  ): Promise<Answer> => {
    for (;;) {
      const line = await prompter.ask(prompt, signal);
      if (line === undefined) {
        prompter.write('\n(no answer: input ended)\n');
        return fallback;
      }
      const typed = line.trim().toLowerCase();
      const choice = choices.find((candidate) => candidate.keys.includes(typed));
      if (choice) return choice.answer;
      prompter.write(`Please answer ${choices.map((candidate) => candidate.keys[0]).join(', ')}.\n`);
    }
  };

  const fillForm = async (request: FormElicitationRequest, signal?: AbortSignal): Promise<FormElicitationAnswer> => {
    const content: ElicitationContent = {};
    for (const [index, field] of request.fields.entries()) {
      prompter.write(formatFieldQuestion(field, index + 1, request.fields.length));
      for (;;) {
        const line = await prompter.ask('> ', signal);
        if (line === undefined) {
          prompter.write('\n(no answer: input ended; the form is cancelled)\n');
          return { action: 'cancel' };
        }
        const answer = parseFieldAnswer(field, line);
        if (!answer.ok) {
          prompter.write(`${answer.error}\n`);
          continue;
        }
        if (answer.value !== undefined) setOwnProperty(content, field.name, answer.value);
        break;
      }
    }
    prompter.write(
      `\nYou entered:\n${request.fields
        .map(
          (field) =>
            `  ${field.label}: ${formatFieldValue(field, Object.hasOwn(content, field.name) ? content[field.name] : undefined)}`,
        )
        .join('\n')}\n`,
    );
    return choose(
      `Send this to server "${request.serverName}"? [s] send  [d] decline  [c] cancel: `,
      [
        { keys: ['s', 'send', 'y', 'yes'], answer: { action: 'accept', content } as const },
        { keys: ['d', 'decline', 'n', 'no'], answer: { action: 'decline' } as const },
        { keys: ['c', 'cancel'], answer: { action: 'cancel' } as const },
      ],
      { action: 'cancel' },
      signal,
    );
  };

  return {
    kind: 'terminal',
    approveSampling(request: SamplingApprovalRequest, signal?: AbortSignal): Promise<SamplingApprovalAnswer> {
      return prompter.exclusive(async () => {
        prompter.write(formatSamplingApproval(request));
        return choose<SamplingApprovalAnswer>(
          '[a] allow the model to answer  [d] deny\nYour choice (a/d): ',
          [
            { keys: ['a', 'allow', 'y', 'yes'], answer: 'allow' },
            { keys: ['d', 'deny', 'n', 'no'], answer: 'deny' },
          ],
          'deny',
          signal,
        );
      });
    },
    elicitForm(request: FormElicitationRequest, signal?: AbortSignal): Promise<FormElicitationAnswer> {
      return prompter.exclusive(async () => {
        prompter.write(formatFormIntro(request));
        const start = await choose<'fill' | 'decline' | 'cancel'>(
          '[f] fill it in  [d] decline  [c] cancel\nYour choice (f/d/c): ',
          [
            { keys: ['f', 'fill', 'y', 'yes'], answer: 'fill' },
            { keys: ['d', 'decline', 'n', 'no'], answer: 'decline' },
            { keys: ['c', 'cancel'], answer: 'cancel' },
          ],
          'cancel',
          signal,
        );
        if (start === 'decline') return { action: 'decline' };
        if (start === 'cancel') return { action: 'cancel' };
        return fillForm(request, signal);
      });
    },
    elicitUrl(request: UrlElicitationRequest, signal?: AbortSignal): Promise<UrlElicitationAnswer> {
      return prompter.exclusive(async () => {
        prompter.write(formatUrlElicitation(request, mark));
        const open: Array<Choice<UrlElicitationAnswer>> = request.url.openable
          ? [{ keys: ['o', 'open', 'y', 'yes'], answer: 'accept' }]
          : [];
        return choose<UrlElicitationAnswer>(
          `${request.url.openable ? '[o] open it in the browser  ' : ''}[d] decline  [c] cancel\nYour choice: `,
          [
            ...open,
            { keys: ['d', 'decline', 'n', 'no'], answer: 'decline' },
            { keys: ['c', 'cancel'], answer: 'cancel' },
          ],
          'cancel',
          signal,
        );
      });
    },
  };
}
