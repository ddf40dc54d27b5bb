/**
 * The browser as the person who says yes: every consent question the host asks (a tool call, a new or changed tool
 * definition, a changed server, a server's sampling request or form or URL) becomes a pending approval that the UI
 * shows as a dialog and answers through the API. The facts shown are the terminal's own views of the request, so a
 * web user decides on exactly what a terminal user would. A question whose run ends is withdrawn.
 */

import { randomUUID } from 'node:crypto';
import { stableStringify } from '../catalog/stable-json.js';
import type { ClientRequestApprover, ElicitationContent } from '../client-features/client-request-approver.js';
import {
  formatFormIntro,
  formatSamplingApproval,
  formatUrlElicitation,
  PLAIN_HOSTNAME_MARK,
} from '../client-features/client-request-views.js';
import { type FormField, parseFieldAnswer } from '../client-features/elicitation-form-fields.js';
import { waitingQuestionsBound } from '../client-features/waiting-questions.js';
import { abortableSignal } from '../connections/never-aborted.js';
import { setOwnProperty } from '../json/own-property.js';
import {
  argumentsCutInView,
  formatDefinitionApproval,
  formatServerApproval,
  formatToolCallApproval,
  formatWholeArguments,
} from '../policy/approval-view.js';
import type { Approver, ToolApprovalAnswer } from '../policy/approver.js';
import type { ToolDefinitionSnapshot } from '../policy/tool-definition.js';
import type { ApprovalAnswerBody, PendingApproval } from './api-types.js';
import { chatTurnOfCall } from './chat-turn-context.js';

const WEB_APPROVER_KIND = 'web';

interface Waiting {
  /** The question as listed, but for the turn it is of: that is told from `call` each time it is listed. */
  approval: PendingApproval;
  /**
   * The call the question is about, as its caller named it: the question is a chat turn's while that turn runs, and
   * no longer once it ended (a server's request of the turn's call may outlive it).
   */
  call?: object;
  settle: (body: ApprovalAnswerBody) => void;
  /** Why an answer cannot be taken (a form's field that does not fit), or undefined when it can. */
  check?: (body: ApprovalAnswerBody) => string | undefined;
  /** A call's arguments whole, where its view cuts them: given on request only, and only while the question waits. */
  wholeArguments?: string;
}

export interface WebApprover extends Approver, ClientRequestApprover {
  pending(): PendingApproval[];
  /**
   * Answers one pending question. Returns why it was not taken: no such question, an answer it does not offer, or
   * (for a form) the fields that do not fit; undefined when it was taken.
   */
  answer(id: string, body: ApprovalAnswerBody): string | undefined;
  /** A pending call's arguments whole, where its view cuts them; undefined for no such question or none cut. */
  wholeArguments(id: string): string | undefined;
  /** Runs `work` with this server's definition questions answered "keep withheld" without asking. */
  rejectDefinitionsWhile<T>(server: string, work: () => Promise<T>): Promise<T>;
  /** Tells the pages the list again: a turn ended, and its questions still waiting are no running turn's. */
  turnEnded(): void;
  /** Declines everything still pending (the UI is closing). */
  close(): void;
}

/** Resolves when `before` settles, or rejects with the signal's reason should it abort first. */
function after(before: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  const settled = before.then(
    () => undefined,
    () => undefined,
  );
  if (signal === undefined) return settled;
  // Rejected, never thrown: the caller has taken its place in the turn and gives it back once this settles.
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void settled.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

function snapshotText(snapshot: ToolDefinitionSnapshot | undefined): string | undefined {
  return snapshot === undefined ? undefined : stableStringify(snapshot, 2);
}

/** The answer that refuses a question of this kind: what closing gives each, and stopping the turn that asked it. */
export function refusalOf(kind: PendingApproval['kind']): string {
  return kind === 'tool-definition' || kind === 'server'
    ? 'reject'
    : kind === 'tool-call' || kind === 'sampling'
      ? 'deny'
      : 'decline';
}

/**
 * `callsInFlight`: a server's calls made and not yet ended. Its own questions (sampling, forms, URLs) the UI holds at
 * once are bounded as the host bounds them (see waiting-questions.ts): the first shown, the rest waiting their turn.
 * Past it a question is declined at once, so a server asking hundreds together neither buries the questions that
 * matter (a tool call's approval comes next, not after all of them) nor floods every page with the list.
 */
export function createWebApprover(
  onChange: (pending: PendingApproval[]) => void,
  callsInFlight: (server: string) => number = () => 0,
): WebApprover {
  const waiting = new Map<string, Waiting>();
  let closed = false;
  const quiet = new Map<string, number>();
  const list = () =>
    [...waiting.values()].map((entry) => {
      const chatTurn = chatTurnOfCall(entry.call);
      return chatTurn === undefined ? entry.approval : { ...entry.approval, chatTurn };
    });
  /** Per server, its questions held (shown or waiting) and the last one's end, which the next waits for. */
  const serverTurns = new Map<string, { held: number; last: Promise<unknown> }>();

  /** Asks `question` once the server's questions before it are answered; declines at once past the bound. */
  async function inServerTurn<T>(
    server: string,
    declined: T,
    signal: AbortSignal | undefined,
    question: () => Promise<T>,
  ): Promise<T> {
    const turn = serverTurns.get(server) ?? { held: 0, last: Promise.resolve() };
    if (turn.held >= waitingQuestionsBound(callsInFlight(server))) return declined;
    turn.held += 1;
    serverTurns.set(server, turn);
    const before = turn.last;
    const asked = after(before, abortableSignal(signal)).then(question);
    // The next waits for this one and every one before it, even should this one be withdrawn while it waits.
    turn.last = Promise.allSettled([before, asked]);
    try {
      return await asked;
    } finally {
      turn.held -= 1;
      if (turn.held === 0) serverTurns.delete(server);
    }
  }

  function ask(
    approval: Omit<PendingApproval, 'id'>,
    fallback: ApprovalAnswerBody,
    given: AbortSignal | undefined,
    // Whose question it is: that of the call it is about, or no one's (a changed definition, a changed server). Never
    // the context it is asked in: a server restarted during a turn's call reviews its tools in that turn's context.
    kept: Pick<Waiting, 'check' | 'wholeArguments' | 'call'> = {},
  ): Promise<ApprovalAnswerBody> {
    if (closed) return Promise.resolve(fallback);
    // A question for a call made without a signal waits on the shared one that never aborts: nothing to listen to.
    const signal = abortableSignal(given);
    signal?.throwIfAborted();
    const id = randomUUID();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        waiting.delete(id);
        onChange(list());
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiting.set(id, {
        approval: { id, ...approval },
        ...kept,
        settle: (body) => {
          signal?.removeEventListener('abort', onAbort);
          waiting.delete(id);
          onChange(list());
          resolve(body);
        },
      });
      onChange(list());
    });
  }

  const DEFINITION_ANSWERS = [
    { value: 'approve', label: 'Approve' },
    { value: 'reject', label: 'Keep withheld' },
  ];

  return {
    kind: WEB_APPROVER_KIND,
    async approveToolCall(request, signal) {
      // Where an ask rule decided, only "once" and "deny" are offered, as on the terminal.
      const answers = [
        { value: 'allow-once', label: 'Allow once' },
        ...(request.canAlwaysAllow
          ? [
              { value: 'allow-tool-for-run', label: 'Allow this tool for the run' },
              { value: 'allow-server-for-run', label: 'Allow this server for the run' },
              { value: 'allow-always', label: 'Always allow' },
            ]
          : []),
        { value: 'deny', label: 'Deny' },
      ];
      const cut = argumentsCutInView(request.arguments);
      const body = await ask(
        {
          kind: 'tool-call',
          server: request.serverName,
          tool: request.toolName,
          title: 'A tool call needs your approval',
          view: formatToolCallApproval(request),
          ...(cut ? { argumentsCut: true as const } : {}),
          answers,
        },
        { answer: 'deny' },
        signal,
        {
          ...(cut ? { wholeArguments: formatWholeArguments(request.arguments) } : {}),
          ...(request.call === undefined ? {} : { call: request.call }),
        },
      );
      return body.answer as ToolApprovalAnswer;
    },
    async approveToolDefinition(request, signal) {
      if ((quiet.get(request.serverName) ?? 0) > 0) return 'reject';
      const before = snapshotText(request.previous);
      const body = await ask(
        {
          kind: 'tool-definition',
          server: request.serverName,
          tool: request.toolName,
          originalTool: request.originalToolName,
          title: request.toolName.startsWith('ui://')
            ? 'A view changed since you approved it'
            : request.previous === undefined
              ? 'A new tool is withheld until you approve it'
              : 'A tool changed since you approved it',
          view: formatDefinitionApproval(request),
          answers: DEFINITION_ANSWERS,
          ...(before === undefined ? {} : { before }),
          after: snapshotText(request.current)!,
          diff: request.diff,
        },
        { answer: 'reject' },
        signal,
      );
      return body.answer === 'approve' ? 'approve' : 'reject';
    },
    async approveServer(request, signal) {
      const body = await ask(
        {
          kind: 'server',
          server: request.serverName,
          title: 'A server changed what it runs',
          view: formatServerApproval(request),
          answers: DEFINITION_ANSWERS,
        },
        { answer: 'reject' },
        signal,
      );
      return body.answer === 'approve' ? 'approve' : 'reject';
    },
    async approveSampling(request, signal) {
      const body = await inServerTurn(request.serverName, { answer: 'deny' }, signal, () =>
        ask(
          {
            kind: 'sampling',
            server: request.serverName,
            title: 'A server asks the model to answer a prompt',
            view: formatSamplingApproval(request),
            answers: [
              { value: 'allow', label: 'Allow' },
              { value: 'deny', label: 'Deny' },
            ],
          },
          { answer: 'deny' },
          signal,
          request.call === undefined ? {} : { call: request.call },
        ),
      );
      return body.answer === 'allow' ? 'allow' : 'deny';
    },
    async elicitForm(request, signal) {
      const body = await inServerTurn(request.serverName, { answer: 'decline' }, signal, () =>
        ask(
          {
            kind: 'elicit-form',
            server: request.serverName,
            title: 'A server asks you to fill in a form',
            view: formatFormIntro(request),
            answers: [
              { value: 'accept', label: 'Send' },
              { value: 'decline', label: 'Decline' },
              { value: 'cancel', label: 'Cancel' },
            ],
            fields: request.fields.map((field) => ({
              name: field.name,
              label: field.label,
              ...(field.description === undefined ? {} : { description: field.description }),
              required: field.required,
              secret: field.secret,
              kind: field.kind,
              ...('choices' in field ? { choices: field.choices } : {}),
              ...(field.default === undefined ? {} : { default: field.default }),
            })),
          },
          { answer: 'decline' },
          signal,
          {
            check: (answer) =>
              answer.answer === 'accept' ? checkForm(request.fields, answer.content ?? {}).error : undefined,
            ...(request.call === undefined ? {} : { call: request.call }),
          },
        ),
      );
      if (body.answer === 'accept')
        return { action: 'accept', content: checkForm(request.fields, body.content ?? {}).content };
      return { action: body.answer === 'cancel' ? 'cancel' : 'decline' };
    },
    async elicitUrl(request, signal) {
      const body = await inServerTurn(request.serverName, { answer: 'decline' }, signal, () =>
        ask(
          {
            kind: 'elicit-url',
            server: request.serverName,
            title: 'A server asks you to open a URL',
            view: formatUrlElicitation(request, PLAIN_HOSTNAME_MARK),
            answers: [
              ...(request.url.openable ? [{ value: 'accept', label: 'Open it' }] : []),
              { value: 'decline', label: 'Decline' },
              { value: 'cancel', label: 'Cancel' },
            ],
            ...(request.url.hostname === undefined
              ? {}
              : { domain: request.url.unicodeHostname ?? request.url.hostname }),
            url: request.url.href ?? request.url.original,
          },
          { answer: 'decline' },
          signal,
          request.call === undefined ? {} : { call: request.call },
        ),
      );
      return body.answer === 'accept' ? 'accept' : body.answer === 'cancel' ? 'cancel' : 'decline';
    },
    pending: list,
    turnEnded() {
      if ([...waiting.values()].some((entry) => entry.call !== undefined)) onChange(list());
    },
    wholeArguments: (id) => waiting.get(id)?.wholeArguments,
    async rejectDefinitionsWhile(server, work) {
      quiet.set(server, (quiet.get(server) ?? 0) + 1);
      try {
        return await work();
      } finally {
        quiet.set(server, (quiet.get(server) ?? 1) - 1);
      }
    },
    answer(id, body) {
      const entry = waiting.get(id);
      if (entry === undefined) return 'No such question is waiting (it may have been answered or withdrawn).';
      if (!entry.approval.answers.some((answer) => answer.value === body.answer)) {
        return `"${String(body.answer)}" is not one of the answers this question offers.`;
      }
      const problem = entry.check?.(body);
      if (problem !== undefined) return problem;
      entry.settle(body);
      return undefined;
    },
    close() {
      closed = true;
      for (const entry of [...waiting.values()]) entry.settle({ answer: refusalOf(entry.approval.kind) });
    },
  };
}

/**
 * A form's values as the terminal would take them: each through the same field parser (types, formats, ranges,
 * choices, required fields), so the browser cannot send the server what a typed answer could not.
 */
function checkForm(
  fields: readonly FormField[],
  values: ElicitationContent,
): { content: ElicitationContent; error?: string } {
  const content: ElicitationContent = {};
  const problems: string[] = [];
  for (const field of fields) {
    const given = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
    const typed = given === undefined ? '' : Array.isArray(given) ? given.join(', ') : String(given);
    const parsed = parseFieldAnswer(field, typed);
    if (!parsed.ok) problems.push(`${field.label}: ${parsed.error}`);
    else if (parsed.value !== undefined) setOwnProperty(content, field.name, parsed.value);
  }
  return problems.length === 0 ? { content } : { content, error: problems.join(' ') };
}
