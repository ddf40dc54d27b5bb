/**
 * Chat in the browser, on the host's conversations: the saved sessions of this config (list, resume, new), one turn
 * at a time, each turn's events streamed to the page as they happen (text, tool calls and the three translations of
 * each call), the token totals and the model after each turn, and a model switch between turns.
 */

import { randomUUID } from 'node:crypto';
import { SingleFlight } from '../connections/single-flight.js';
import type { Host } from '../host/create-host.js';
import type { Conversation } from '../host/host-types.js';
import { stringifyJsonWithinDepth } from '../json/json-depth.js';
import type { AgentEvent } from '../loop/events.js';
import { costOf } from '../providers/model-prices.js';
import type { AssistantMessage, Message, ToolCallPart, ToolResult } from '../providers/types.js';
import { answeredToolCalls } from '../sessions/answered-tool-calls.js';
import { SessionInUseError } from '../sessions/session-lock.js';
import { openSessionStore, UnknownSessionError } from '../sessions/session-store.js';
import type { ChatMessageView, ChatSessionView, ChatStateView, CostView, SessionsView } from './api-types.js';
import { type CallWarnings, createCallWarnings } from './call-warnings.js';
import { asChatTurn } from './chat-turn-context.js';
import type { LiveEvents } from './live-events.js';
import { displayModel } from './views.js';

type CallWarningEvent = Extract<AgentEvent, { type: 'tool-call-warning' }>;

/** A provider request body past this size is sent to the page cut (the tool definitions of big servers). */
const MAX_EVENT_CHARS = 400_000;
/** The longest text kept as it is in an event cut for being longer than that (an id, a name, an outcome). */
const MAX_SMALL_FIELD_CHARS = 1_000;
/** Longest message text sent back when a session is resumed. */
const MAX_MESSAGE_CHARS = 50_000;
/**
 * The most of a transcript sent to the page at once, in messages and in characters of their text (a call's result and
 * warnings too, which quote what a server said): a long session's latest messages are sent, and the earlier ones
 * counted.
 */
const MAX_SHOWN_MESSAGES = 1_000;
const MAX_SHOWN_CHARS = 2_000_000;
/** The latest notes of a conversation kept to show (a save that fails may fail at every message). */
const MAX_NOTES = 20;
/** The newest saved conversations listed on the page; the rest are counted (`mcp-host sessions list` lists them). */
const MAX_LISTED_SESSIONS = 500;

export interface ChatRunner {
  /**
   * The saved conversations of the host's config. The files are read asynchronously, one listing at a time: a request
   * made while one runs shares the one after it, which sees what changed meanwhile.
   */
  sessions(host: Host): Promise<SessionsView>;
  /** How long the last listing of the saved sessions took, in milliseconds (0 before the first). */
  listingMs(): number;
  /** Starts a new conversation, or resumes a saved one. */
  open(host: Host, sessionId?: string): Promise<ChatSessionView>;
  send(host: Host, text: string, turnId?: string): Promise<{ turnId: string; sessionId: string }>;
  setModel(host: Host, spec: string): Promise<ChatSessionView>;
  /** Cancels the running turn; given `turnId`, only when that is the turn running. */
  cancel(turnId?: string): boolean;
  /** The id of the turn running, if one is. */
  runningTurn(): string | undefined;
  /** The open conversation and the turn running in it, if any. */
  state(host: Host): ChatStateView;
  /** The open conversation's messages; none before the first. */
  history(): readonly Message[];
}

export class ChatBusyError extends Error {}
export class ChatSessionError extends Error {}

function eventForPage(event: AgentEvent): { type: string; [key: string]: unknown } {
  const text = stringifyJsonWithinDepth(event, 'the event') ?? '{}';
  if (text.length <= MAX_EVENT_CHARS) return JSON.parse(text) as { type: string };
  return {
    ...smallFields(event),
    type: event.type,
    cut: `${text.slice(0, MAX_EVENT_CHARS)} … (${text.length - MAX_EVENT_CHARS} more characters)`,
  };
}

/**
 * The fields of an event that a page pairs it by and shows at a glance (a call's id, the answer that made it, its
 * outcome and duration): the numbers, true or false, and short texts. A call's end cut to text alone would leave its
 * card running.
 */
function smallFields(event: AgentEvent): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(event).filter(
      ([, value]) =>
        typeof value === 'number' ||
        typeof value === 'boolean' ||
        (typeof value === 'string' && value.length <= MAX_SMALL_FIELD_CHARS),
    ),
  );
}

/** The text, or its start and how much was left out, as the terminal's `/expand` says it. */
function cut(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  return `${text.slice(0, MAX_MESSAGE_CHARS)} … (${text.length - MAX_MESSAGE_CHARS} more characters)`;
}

function resultText(result: ToolResult): string {
  return cut(result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n'));
}

/**
 * The transcript as the page shows a resumed session: who said what, and which tools were called, each call numbered
 * as the chat numbers it and shown with the result it got; from message `from` on (the calls numbered in the whole,
 * after the `compacted` calls a compaction summarised).
 */
function messageViews(
  history: readonly Message[],
  from = 0,
  compacted = 0,
  warningsOf: (call: ToolCallPart) => readonly string[] | undefined = () => undefined,
): ChatMessageView[] {
  const answered = answeredToolCalls(history);
  const answerOf = new Map(
    answered.map(({ call, result }, index) => [call, { number: compacted + index + 1, result }]),
  );
  const shownResults = new Set(answered.map((entry) => entry.result));
  return history.slice(from).flatMap((message): ChatMessageView[] => {
    if (message.role === 'tool') {
      return message.results
        .filter((result) => !shownResults.has(result))
        .map((result) => ({
          role: 'tool',
          text: resultText(result),
          toolName: result.toolName,
          isError: result.isError,
        }));
    }
    const text = message.content
      .map((part) => (part.type === 'text' ? part.text : part.type === 'image' ? '[image]' : ''))
      .join('');
    const calls = message.role === 'assistant' ? message.content.filter((part) => part.type === 'tool-call') : [];
    return [
      ...(text === '' ? [] : [{ role: message.role, text: cut(text) }]),
      ...calls.map((call): ChatMessageView => {
        const answer = answerOf.get(call);
        const warnings = warningsOf(call);
        return {
          role: 'tool-call',
          text: cut(call.argumentsText),
          toolName: call.name,
          ...(warnings === undefined ? {} : { warnings: [...warnings] }),
          ...(answer === undefined
            ? {}
            : { number: answer.number, result: { text: resultText(answer.result), isError: answer.result.isError } }),
        };
      }),
    ];
  });
}

/** The characters of a message the page is sent: its text, and a call's result and warnings. */
function shownChars(view: ChatMessageView): number {
  let chars = view.text.length + (view.result?.text.length ?? 0);
  for (const warning of view.warnings ?? []) chars += warning.length;
  return chars;
}

/** The latest of `views` within the bounds of what is sent at once, and how many earlier ones were left out. */
function latestOf(views: ChatMessageView[]): { messages: ChatMessageView[]; omittedMessages: number } {
  let chars = 0;
  let first = views.length;
  while (first > 0 && views.length - first < MAX_SHOWN_MESSAGES) {
    const view = views[first - 1]!;
    chars += shownChars(view);
    if (chars > MAX_SHOWN_CHARS && first < views.length) break;
    first -= 1;
  }
  return { messages: views.slice(first), omittedMessages: first };
}

/**
 * The numbers of the calls an answer of the model makes, by their place in it (two may share an id), as the
 * transcript will number them once they are answered: after every call answered before that answer, and the
 * `compacted` calls a compaction summarised.
 */
function callNumbers(history: readonly Message[], answer: AssistantMessage, compacted: number): number[] {
  const at = history.indexOf(answer);
  const before = compacted + answeredToolCalls(at === -1 ? history : history.slice(0, at)).length;
  const calls = answer.content.filter((part) => part.type === 'tool-call');
  return calls.map((_, index) => before + index + 1);
}

/**
 * Where the running turn's messages begin: after the last message before it. Found by that message, not by a count,
 * since a compaction at the turn's start replaces the older messages with a summary; it keeps the last turn whole,
 * so that message is still there.
 */
function turnStart(history: readonly Message[], lastBefore: Message | undefined): number {
  return lastBefore === undefined ? 0 : history.lastIndexOf(lastBefore) + 1;
}

/** Priced by the model as the page names it (a scripted model by its file name), from the config or the table. */
function conversationCost(open: Conversation, host: Host): CostView {
  return costOf(displayModel(open.model()), open.usage(), host.config.modelPrices);
}

/** `turnEnded`: told once each turn has ended, so what was that turn's (the questions still waiting) can say so. */
export function createChatRunner(events: LiveEvents, turnEnded: () => void = () => undefined): ChatRunner {
  let conversation: Conversation | undefined;
  let current:
    | { turnId: string; conversation: Conversation; prompt: string; lastBefore: Message | undefined }
    | undefined;
  // Opening a conversation, switching its model and starting a turn each wait for the one before: a model switch
  // that arrives while a new conversation is still being opened applies to that new conversation, not the old one.
  let changes: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(change: () => Promise<T>): Promise<T> => {
    const next = changes.then(change, change);
    changes = next.catch(() => undefined);
    return next;
  };

  // What each conversation said of its session (lines of its file skipped, a save that failed), as the terminal chat
  // prints it: the page shows them with the conversation, and one said during a turn in that turn.
  const notesOf = new WeakMap<Conversation, string[]>();
  const conversationWithNotes = async (host: Host, sessionId: string | undefined): Promise<Conversation> => {
    const notes: string[] = [];
    let opened: Conversation | undefined;
    const started = await host.conversation({
      ...(sessionId === undefined ? {} : { sessionId }),
      onDiagnostic: (message) => {
        notes.push(cut(message));
        if (notes.length > MAX_NOTES) notes.shift();
        const running = current;
        if (running !== undefined && running.conversation === opened) {
          events.publish({
            type: 'chat',
            chat: { turnId: running.turnId, event: { type: 'session-note', message: cut(message) } },
          });
        }
      },
    });
    opened = started;
    notesOf.set(started, notes);
    return started;
  };

  // What each conversation's calls warned of as they went (call-warnings.ts).
  const warningsOfConversation = new WeakMap<Conversation, CallWarnings>();
  const callWarnings = (open: Conversation): CallWarnings => {
    let warnings = warningsOfConversation.get(open);
    if (warnings === undefined) {
      warnings = createCallWarnings();
      warningsOfConversation.set(open, warnings);
    }
    return warnings;
  };
  // The call warned of is the call at the warning's place among the calls of the answer it names: two of them may
  // share an id. A warning naming no answer is of a call no model made, which the transcript does not hold.
  const keepWarning = (
    open: Conversation,
    answers: ReadonlyMap<number, AssistantMessage>,
    warning: CallWarningEvent,
  ) => {
    if (warning.turn === undefined || warning.index === undefined) return;
    const calls = answers.get(warning.turn)?.content.filter((part) => part.type === 'tool-call') ?? [];
    const call = calls[warning.index];
    if (call === undefined || call.id !== warning.callId) return;
    callWarnings(open).keep(call, cut(warning.message));
  };

  const view = (open: Conversation, host: Host, messages = open.history.length): ChatSessionView => ({
    id: open.id,
    model: displayModel(open.model()),
    usage: open.usage(),
    cost: conversationCost(open, host),
    ...latestOf(messageViews(open.history.slice(0, messages), 0, open.compactedToolCalls, callWarnings(open).of)),
    notes: [...(notesOf.get(open) ?? [])],
  });

  // Every tab shows the one conversation held here: one that opened another, or switched its model, tells the others.
  const announceSession = (open: Conversation, host: Host) =>
    events.publish({
      type: 'chat-session',
      session: { id: open.id, model: displayModel(open.model()), cost: conversationCost(open, host) },
    });

  const openConversation = async (host: Host, sessionId: string | undefined): Promise<ChatSessionView> => {
    if (current !== undefined) throw new ChatBusyError('A turn is still running: wait for it or stop it first.');
    const previous = conversation;
    try {
      conversation = await conversationWithNotes(host, sessionId);
    } catch (error) {
      // Not there, or held by another process (a terminal chat): the page says so and keeps what it had open.
      if (error instanceof UnknownSessionError || error instanceof SessionInUseError) {
        throw new ChatSessionError(error.message);
      }
      throw error;
    }
    // The one left is let go, so a terminal chat may resume it while the page stays open.
    await previous?.close();
    announceSession(conversation, host);
    return view(conversation, host);
  };

  const startTurn = async (host: Host, text: string, chosenId: string | undefined) => {
    if (current !== undefined) throw new ChatBusyError('A turn is still running: wait for it or stop it.');
    conversation ??= await conversationWithNotes(host, undefined);
    const open = conversation;
    const turnId = chosenId?.slice(0, 100) ?? randomUUID();
    current = { turnId, conversation: open, prompt: text, lastBefore: open.history.at(-1) };
    const publish = (event: { type: string; [key: string]: unknown }) =>
      events.publish({ type: 'chat', chat: { turnId, event } });
    // Tabs other than the one that sent it learn of the turn here, with what was asked.
    publish({ type: 'message-sent', prompt: cut(text), sessionId: open.id });
    // Its calls are made in this mark's name, so a question about one is known to be the turn's (one the person may
    // stop it from).
    const mark = { turnId, running: true };
    void asChatTurn(mark, async () => {
      // Each call is shown with its number in the conversation, the one it keeps once the transcript is read back.
      let numbers: number[] = [];
      const answers = new Map<number, AssistantMessage>();
      try {
        for await (const event of open.send(text)) {
          if (event.type === 'model-response') {
            answers.set(event.turn, event.message);
            numbers = callNumbers(open.history, event.message, open.compactedToolCalls);
          }
          if (event.type === 'tool-call-warning') keepWarning(open, answers, event);
          const number =
            event.type === 'tool-call-start' || event.type === 'tool-call-end' ? numbers[event.index] : undefined;
          // A warning is sent as it is kept with its call, so the page shows the same text live and read back.
          const shown = event.type === 'tool-call-warning' ? { ...event, message: cut(event.message) } : event;
          publish({ ...eventForPage(shown), ...(number === undefined ? {} : { number }) });
        }
      } catch (error) {
        // It may quote the model's service at any length: cut as every long text the page is sent.
        publish({ type: 'run-error', message: cut(error instanceof Error ? error.message : String(error)) });
      } finally {
        current = undefined;
        mark.running = false;
        turnEnded();
        publish({
          type: 'turn-done',
          sessionId: open.id,
          model: displayModel(open.model()),
          usage: { ...open.usage() },
          cost: conversationCost(open, host),
        });
      }
    });
    return { turnId, sessionId: open.id };
  };

  const switchModel = async (host: Host, spec: string): Promise<ChatSessionView> => {
    if (current !== undefined) throw new ChatBusyError('A turn is still running: change the model after it.');
    conversation ??= await conversationWithNotes(host, undefined);
    try {
      await conversation.setModel(spec);
    } catch (error) {
      throw new ChatSessionError(error instanceof Error ? error.message : String(error));
    }
    announceSession(conversation, host);
    return view(conversation, host);
  };

  let listingMs = 0;
  // The host the latest request was made with, which the listing it waits for reads with.
  let listedHost: Host | undefined;
  const listing = new SingleFlight(async () => {
    const host = listedHost!;
    const started = performance.now();
    const config = host.config.file ?? null;
    // Files that cannot be read (saved by a newer version, damaged) are named, as `mcp-host sessions` names them.
    const skipped: string[] = [];
    const listed = (await openSessionStore(host.stateDir).listAsync((warning) => skipped.push(cut(warning)))).filter(
      (session) => session.config === config,
    );
    listingMs = performance.now() - started;
    return { listed, skipped: skipped.slice(0, MAX_NOTES) };
  });
  return {
    async sessions(host) {
      listedHost = host;
      const { listed, skipped } = await listing.run();
      const sessions = listed.slice(0, MAX_LISTED_SESSIONS).map((session) => ({
        id: session.id,
        title: session.title,
        model: session.model,
        updatedAt: session.updatedAt,
        current: session.id === conversation?.id,
      }));
      return { sessions, omitted: listed.length - sessions.length, skipped };
    },
    listingMs: () => listingMs,
    open: (host, sessionId) => inOrder(() => openConversation(host, sessionId)),
    send: (host, text, chosenId) => inOrder(() => startTurn(host, text, chosenId)),
    setModel: (host, spec) => inOrder(() => switchModel(host, spec)),
    history() {
      return conversation?.history ?? [];
    },
    state(host) {
      const running = current;
      if (running !== undefined) {
        const messagesBefore = turnStart(running.conversation.history, running.lastBefore);
        return {
          session: view(running.conversation, host, messagesBefore),
          running: {
            turnId: running.turnId,
            prompt: cut(running.prompt),
            // What the turn did before this page came (its prompt is shown as the prompt).
            messages: latestOf(
              messageViews(
                running.conversation.history,
                messagesBefore,
                running.conversation.compactedToolCalls,
                callWarnings(running.conversation).of,
              ).filter((message) => message.role !== 'user'),
            ).messages,
          },
        };
      }
      return conversation === undefined ? {} : { session: view(conversation, host) };
    },
    runningTurn: () => current?.turnId,
    cancel(turnId) {
      if (current === undefined || (turnId !== undefined && turnId !== current.turnId)) return false;
      void current.conversation.cancel();
      return true;
    },
  };
}
