/**
 * A conversation: turns of the host's own loop over one growing neutral transcript, each completed message saved to
 * the session file as it arrives. The host injects how a turn runs (its `run`, so consent, budgets and audit are the
 * same duties as for any run) and how a provider is made; this layer holds the transcript, the session and its
 * compaction.
 */
import { estimateTokens } from '../content/linear-token-estimate.js';
import { createResultStore, type ResultStore } from '../content/result-store.js';
import { eventStream } from '../loop/event-stream.js';
import { linkSignals } from '../loop/linked-signal.js';
import type { LlmProvider, Message, Usage } from '../providers/types.js';
import { answeredToolCalls } from './answered-tool-calls.js';
import { planCompaction, summarise } from './compact-transcript.js';
import { COMPACT_AT_SHARE, contextWindowOf, KEEP_SHARE } from './context-window.js';
import type { Conversation, ConversationUsage, TurnRunner } from './conversation-types.js';
import { estimateMessagesTokens } from './estimate-message-tokens.js';
import { providerSpec } from './provider-spec.js';
import type { SavedSession } from './read-session-file.js';
import { repairTranscript, unansweredCallResults } from './repair-transcript.js';
import { createSessionId } from './session-id.js';
import type { SessionRecord } from './session-records.js';
import { SESSION_FORMAT_VERSION } from './session-records.js';
import type { SessionStore } from './session-store.js';
import { sessionTitle } from './session-title.js';

export interface ConversationDependencies {
  store: SessionStore;
  /** The config file this conversation is held with (absolute), or null. */
  config: string | null;
  provider: LlmProvider;
  createProvider: (spec: string) => Promise<LlmProvider>;
  runTurn: TurnRunner;
  /** A saved session to carry on (its id, transcript and file). */
  resume?: { id: string; saved: SavedSession };
  /** The config's `contextTokens`: the window to stay under, instead of the model's known one. */
  contextTokens?: number;
  /** Estimated tokens of what every request carries besides the transcript: the system prompt and the tools. */
  fixedTokens?: () => number;
  /** Each session's store of compacted tool results, for the host's stored-result tool to read from. */
  onResultStore?: (store: ResultStore) => void;
  onDiagnostic?: (message: string) => void;
}

interface LiveSession {
  id: string;
  messages: Message[];
  /** Whether the file (with its header) exists yet: it is created with the first message. */
  started: boolean;
  createdAt: string;
  usage: ConversationUsage;
  results: ResultStore;
  /** The answered tool calls compactions replaced with a summary. */
  compactedToolCalls: number;
}

interface RunningTurn {
  controller: AbortController;
  stopped: Promise<void>;
}

const emptyUsage = (): ConversationUsage => ({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });
/** Tool results of compacted turns longer than this share of the window are stored and referred to. */
const STORED_RESULT_SHARE = 0.02;
/** What an attached image is reckoned to cost before the model is asked. */
const IMAGE_TOKENS = 1_600;

export function createConversation(dependencies: ConversationDependencies): Conversation {
  const { store } = dependencies;
  const diagnostic = dependencies.onDiagnostic ?? (() => undefined);
  const fixedTokens = dependencies.fixedTokens ?? (() => 0);
  let provider = dependencies.provider;
  let saveError: Error | undefined;
  let turn: RunningTurn | undefined;

  const sessionWith = (id: string, createdAt: string, started: boolean): LiveSession => {
    const results = createResultStore(store.resultsFolderOf(id), {
      onWriteError: (error) => diagnostic(`could not keep a compacted tool result: ${error.message}`),
    });
    dependencies.onResultStore?.(results);
    return { id, messages: [], started, createdAt, usage: emptyUsage(), results, compactedToolCalls: 0 };
  };
  const newSession = () => sessionWith(createSessionId(), new Date().toISOString(), false);

  const write = (session: LiveSession, record: SessionRecord): void => {
    try {
      store.writer(session.id).append(record);
    } catch (error) {
      saveError = error as Error;
      diagnostic(saveError.message);
    }
  };
  const saveMessage = (session: LiveSession, message: Message): void => {
    if (!session.started) {
      session.started = true;
      try {
        store.hold(session.id);
      } catch (error) {
        saveError = error as Error;
        diagnostic(saveError.message);
      }
      write(session, {
        type: 'session',
        version: SESSION_FORMAT_VERSION,
        id: session.id,
        config: dependencies.config,
        model: providerSpec(provider),
        createdAt: session.createdAt,
        title: sessionTitle(session.messages),
      });
    }
    const at = new Date().toISOString();
    write(
      session,
      message.role === 'assistant'
        ? { type: 'message', at, model: providerSpec(provider), message }
        : { type: 'message', at, message },
    );
  };

  let current: LiveSession;
  if (dependencies.resume) {
    const { id, saved } = dependencies.resume;
    for (const warning of saved.warnings) diagnostic(warning);
    current = sessionWith(id, saved.createdAt, true);
    current.compactedToolCalls = saved.compactedToolCalls;
    const repaired = repairTranscript(saved.messages);
    current.messages.push(...saved.messages);
    // Calls the host was killed during get their (unknown) outcome on file too, so the file stays well formed.
    for (const message of repaired.slice(saved.messages.length)) {
      current.messages.push(message);
      saveMessage(current, message);
    }
    if (saved.model !== providerSpec(provider))
      write(current, { type: 'model', at: new Date().toISOString(), model: providerSpec(provider) });
  } else {
    current = newSession();
  }

  const addUsage = (session: LiveSession, usage: Usage | undefined) => {
    if (!usage) return;
    session.usage.inputTokens += usage.inputTokens;
    session.usage.outputTokens += usage.outputTokens;
    session.usage.cachedInputTokens += usage.cacheReadTokens ?? 0;
  };

  const windowTokens = () => contextWindowOf(provider.provider, provider.model, dependencies.contextTokens);
  const requestTokens = (session: LiveSession) => fixedTokens() + estimateMessagesTokens(session.messages);

  const compactSession = async (session: LiveSession, signal?: AbortSignal) => {
    const beforeTokens = requestTokens(session);
    const window = windowTokens();
    const plan = planCompaction(session.messages, Math.floor(window * KEEP_SHARE));
    if (!plan) return { compacted: false, beforeTokens, afterTokens: beforeTokens };
    const summary = await summarise({
      provider,
      older: session.messages.slice(0, plan.keepFrom),
      maxInputTokens: Math.floor(window * COMPACT_AT_SHARE),
      resultBudgetTokens: Math.max(100, Math.floor(window * STORED_RESULT_SHARE)),
      storeResult: (text) => session.results.save(text),
      ...(signal ? { signal } : {}),
    });
    addUsage(session, summary.usage);
    const replacedToolCalls = answeredToolCalls(session.messages.slice(0, plan.keepFrom)).length;
    // The kept turns are the same objects: their bytes in the next request are the bytes they had before.
    session.messages = [...summary.messages, ...session.messages.slice(plan.keepFrom)];
    session.compactedToolCalls += replacedToolCalls;
    write(session, {
      type: 'compaction',
      at: new Date().toISOString(),
      messages: summary.messages,
      keptFrom: plan.keepFrom,
      replacedToolCalls,
    });
    return { compacted: true, beforeTokens, afterTokens: requestTokens(session) };
  };

  /** Runs `work` as the conversation's one turn: `cancel()` aborts it and waits for it to stop. */
  const asTurn = async <T>(signals: AbortSignal[], work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    if (turn) throw new Error('a turn is already running; wait for it to end or cancel it first');
    const linked = linkSignals(signals);
    const running = work(linked.signal);
    const thisTurn: RunningTurn = {
      controller: linked.controller,
      stopped: running.then(
        () => undefined,
        () => undefined,
      ),
    };
    turn = thisTurn;
    try {
      return await running;
    } finally {
      linked.dispose();
      if (turn === thisTurn) turn = undefined;
    }
  };

  const cancel = async (): Promise<void> => {
    const running = turn;
    if (!running) return;
    running.controller.abort(new Error('the turn was cancelled'));
    await running.stopped;
  };

  return {
    get id() {
      return current.id;
    },
    get history() {
      return current.messages;
    },
    get compactedToolCalls() {
      return current.compactedToolCalls;
    },
    send(text, options = {}) {
      return eventStream((emit, closed) =>
        asTurn([closed, ...(options.signal ? [options.signal] : [])], async (signal) => {
          const session = current;
          const incoming = estimateTokens(text) + (options.images?.length ?? 0) * IMAGE_TOKENS;
          if (requestTokens(session) + incoming > windowTokens() * COMPACT_AT_SHARE) {
            await compactSession(session, signal).catch((error: unknown) => {
              if (signal.aborted) throw error;
              diagnostic(`could not compact the conversation: ${(error as Error).message}`);
            });
          }
          try {
            await dependencies.runTurn(text, {
              history: [...session.messages],
              ...(options.images ? { images: options.images } : {}),
              provider,
              signal,
              onEvent: (event) => {
                if (event.type === 'model-response') addUsage(session, event.usage);
                emit(event);
              },
              onMessage: (message) => {
                session.messages.push(message);
                saveMessage(session, message);
              },
            });
          } finally {
            // A turn cancelled while its calls were being asked about ends with no results for them: they are
            // answered here, or the next turn's request would be one no provider accepts.
            const answers = unansweredCallResults(
              session.messages,
              signal.aborted
                ? 'The turn was cancelled before this call finished; its outcome is unknown.'
                : 'The turn stopped before this call finished; its outcome is unknown.',
            );
            if (answers !== undefined) {
              session.messages.push(answers);
              saveMessage(session, answers);
            }
          }
        }),
      );
    },
    cancel,
    usage: () => ({ ...current.usage }),
    model: () => providerSpec(provider),
    async setModel(spec) {
      provider = await dependencies.createProvider(spec);
      if (current.started)
        write(current, { type: 'model', at: new Date().toISOString(), model: providerSpec(provider) });
    },
    compact() {
      const session = current;
      return asTurn([], (signal) => compactSession(session, signal));
    },
    clear() {
      turn?.controller.abort(new Error('the conversation was cleared'));
      if (current.started) store.release(current.id);
      current = newSession();
    },
    async close() {
      await cancel();
      await current.results.flush();
      if (current.started) store.release(current.id);
    },
    async save() {
      // Every completed message is already written and synced; what is left are the stored results and the report
      // of a write that failed.
      await current.results.flush();
      if (saveError) throw saveError;
    },
  };
}
