/**
 * A conversation: turns of the host's own loop over one growing neutral transcript, each completed message saved to
 * the session file as it arrives. The host injects how a turn runs (its `run`, so consent, budgets and audit are the
 * same duties as for any run) and how a provider is made; this layer holds the transcript and the session.
 */
import { eventStream } from '../loop/event-stream.js';
import type { LlmProvider, Message, Usage } from '../providers/types.js';
import type { Conversation, ConversationUsage, TurnRunner } from './conversation-types.js';
import { providerSpec } from './provider-spec.js';
import type { SavedSession } from './read-session-file.js';
import { repairTranscript } from './repair-transcript.js';
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
  onDiagnostic?: (message: string) => void;
}

interface LiveSession {
  id: string;
  messages: Message[];
  /** Whether the file (with its header) exists yet: it is created with the first message. */
  started: boolean;
  createdAt: string;
  usage: ConversationUsage;
}

interface RunningTurn {
  controller: AbortController;
  stopped: Promise<void>;
}

const emptyUsage = (): ConversationUsage => ({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });

export function createConversation(dependencies: ConversationDependencies): Conversation {
  const { store } = dependencies;
  const diagnostic = dependencies.onDiagnostic ?? (() => undefined);
  let provider = dependencies.provider;
  let saveError: Error | undefined;
  let turn: RunningTurn | undefined;

  const newSession = (): LiveSession => ({
    id: createSessionId(),
    messages: [],
    started: false,
    createdAt: new Date().toISOString(),
    usage: emptyUsage(),
  });

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
    write(session, { type: 'message', at: new Date().toISOString(), message });
  };

  let current = newSession();
  if (dependencies.resume) {
    const { id, saved } = dependencies.resume;
    for (const warning of saved.warnings) diagnostic(warning);
    current = { id, messages: [], started: true, createdAt: saved.header.createdAt, usage: emptyUsage() };
    const repaired = repairTranscript(saved.messages);
    current.messages.push(...saved.messages);
    // Calls the host was killed during get their (unknown) outcome on file too, so the file stays well formed.
    for (const message of repaired.slice(saved.messages.length)) {
      current.messages.push(message);
      saveMessage(current, message);
    }
    if (saved.model !== providerSpec(provider))
      write(current, { type: 'model', at: new Date().toISOString(), model: providerSpec(provider) });
  }

  const addUsage = (session: LiveSession, usage: Usage | undefined) => {
    if (!usage) return;
    session.usage.inputTokens += usage.inputTokens;
    session.usage.outputTokens += usage.outputTokens;
    session.usage.cachedInputTokens += usage.cacheReadTokens ?? 0;
  };

  return {
    get id() {
      return current.id;
    },
    get history() {
      return current.messages;
    },
    send(text, options = {}) {
      return eventStream(async (emit, closed) => {
        if (turn) throw new Error('a turn is already running; wait for it to end or cancel it first');
        const session = current;
        const controller = new AbortController();
        const signals = [controller.signal, closed, ...(options.signal ? [options.signal] : [])];
        const running = dependencies.runTurn(text, {
          history: [...session.messages],
          ...(options.images ? { images: options.images } : {}),
          provider,
          signal: AbortSignal.any(signals),
          onEvent: (event) => {
            if (event.type === 'model-response') addUsage(session, event.usage);
            emit(event);
          },
          onMessage: (message) => {
            session.messages.push(message);
            saveMessage(session, message);
          },
        });
        const thisTurn: RunningTurn = {
          controller,
          stopped: running.then(
            () => undefined,
            () => undefined,
          ),
        };
        turn = thisTurn;
        try {
          await running;
        } finally {
          if (turn === thisTurn) turn = undefined;
        }
      });
    },
    async cancel() {
      const running = turn;
      if (!running) return;
      running.controller.abort(new Error('the turn was cancelled'));
      await running.stopped;
    },
    usage: () => ({ ...current.usage }),
    model: () => providerSpec(provider),
    async setModel(spec) {
      provider = await dependencies.createProvider(spec);
      if (current.started)
        write(current, { type: 'model', at: new Date().toISOString(), model: providerSpec(provider) });
    },
    async compact() {
      throw new Error('compaction is not available yet');
    },
    clear() {
      turn?.controller.abort(new Error('the conversation was cleared'));
      current = newSession();
    },
    async save() {
      // Every completed message is already written and synced; what is left is to report a write that failed.
      if (saveError) throw saveError;
    },
  };
}
