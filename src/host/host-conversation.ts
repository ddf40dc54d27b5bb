/**
 * `host.conversation()`: many turns over one saved transcript, each turn a run of the host. The sessions modules
 * are loaded on the first conversation: listing tools or a single run never opens one.
 */
import { estimateTokens } from '../content/linear-token-estimate.js';
import type { ResultStore } from '../content/result-store.js';
import type { LlmProvider, ToolDefinition } from '../providers/types.js';
import type { Conversation, ConversationOptions, TurnRunner } from '../sessions/conversation-types.js';

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

export function createHostConversation(
  settings: HostConversationSettings,
): (options?: ConversationOptions) => Promise<Conversation> {
  return async (options = {}) => {
    const [{ openConversation }, { openSessionStore }] = await Promise.all([
      import('../sessions/open-conversation.js'),
      import('../sessions/session-store.js'),
    ]);
    return openConversation(
      {
        store: openSessionStore(settings.stateDir),
        config: settings.configFile ?? null,
        provider: await settings.provider(),
        createProvider: settings.createProvider,
        runTurn: settings.runTurn,
        ...(settings.contextTokens === undefined ? {} : { contextTokens: settings.contextTokens }),
        fixedTokens: () =>
          estimateTokens(settings.systemPrompt() ?? '') + estimateTokens(JSON.stringify(settings.toolDefinitions())),
        onResultStore: settings.onResultStore,
        onDiagnostic: settings.onDiagnostic,
      },
      options,
    );
  };
}
