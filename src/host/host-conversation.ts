/**
 * `host.conversation()`: many turns over one saved transcript, each turn a run of the host. The sessions modules
 * are loaded on the first conversation: listing tools or a single run never opens one.
 */
import { estimateTokens } from '../content/linear-token-estimate.js';
import type { ResultStore } from '../content/result-store.js';
import type { LlmProvider, ToolDefinition } from '../providers/types.js';
import type { Conversation, ConversationOptions, TurnRunner } from '../sessions/conversation-types.js';
import type { SessionStore } from '../sessions/session-store.js';

interface HostConversationSettings {
  stateDir: string;
  /** The config file the conversation is held with (absolute), or undefined for a config given as an object. */
  configFile: string | undefined;
  /** The config's `contextTokens`, when set. */
  contextTokens: number | undefined;
  provider: () => Promise<LlmProvider>;
  /** A model the user names mid-conversation. */
  createProvider: (spec: string) => Promise<LlmProvider>;
  runTurn: TurnRunner;
  /** What every request carries besides the transcript. */
  systemPrompt: () => string | undefined;
  toolDefinitions: () => ToolDefinition[];
  onResultStore: (store: ResultStore) => void;
  onDiagnostic: (message: string) => void;
}

interface HostConversations {
  open(options?: ConversationOptions): Promise<Conversation>;
  /** Lets go of every session the host's conversations hold, so other processes may resume them (host.close). */
  releaseAll(): void;
}

function alsoTelling(
  host: (message: string) => void,
  conversation: ((message: string) => void) | undefined,
): (message: string) => void {
  if (conversation === undefined) return host;
  return (message) => {
    host(message);
    conversation(message);
  };
}

/** Each conversation's sessions are held through the host, so closing the host lets them go. */
export function createHostConversations(settings: HostConversationSettings): HostConversations {
  const held: Array<{ store: SessionStore; id: string }> = [];
  return {
    releaseAll() {
      for (const { store, id } of held.splice(0)) store.release(id);
    },
    open: async (options = {}) => {
      const [{ openConversation }, { openSessionStore }] = await Promise.all([
        import('../sessions/open-conversation.js'),
        import('../sessions/session-store.js'),
      ]);
      const store = openSessionStore(settings.stateDir);
      const tracked: SessionStore = {
        ...store,
        hold(id) {
          store.hold(id);
          held.push({ store, id });
        },
        release(id) {
          const index = held.findIndex((entry) => entry.id === id);
          if (index === -1) return;
          held.splice(index, 1);
          store.release(id);
        },
      };
      return openConversation(
        {
          store: tracked,
          config: settings.configFile ?? null,
          provider: await settings.provider(),
          createProvider: settings.createProvider,
          runTurn: settings.runTurn,
          ...(settings.contextTokens === undefined ? {} : { contextTokens: settings.contextTokens }),
          fixedTokens: () =>
            estimateTokens(settings.systemPrompt() ?? '') + estimateTokens(JSON.stringify(settings.toolDefinitions())),
          onResultStore: settings.onResultStore,
          onDiagnostic: alsoTelling(settings.onDiagnostic, options.onDiagnostic),
        },
        options,
      );
    },
  };
}
