/**
 * Builds the provider for a `provider:model` spec. Adapters are imported on demand so a run loads
 * only the SDK it uses (start-up time matters for a CLI).
 */
import type { LlmProvider } from '../providers/types.js';
import { ModelChoiceError, parseModelSpec } from './model-choice.js';

interface ProviderSettings {
  baseUrl?: string;
  env: Record<string, string | undefined>;
  /** Folder that a relative `scripted:PATH` resolves against. */
  cwd: string;
  maxRetries?: number;
  /**
   * The `nativeToolSearch` setting: `true` or `false` overrides the provider's own table of models with a tool
   * search; absent keeps it. Only Anthropic and OpenAI Responses have one.
   */
  nativeToolSearch?: boolean;
  /** The `strictTools` setting: OpenAI's strict mode for tools. Only the OpenAI adapters have one. */
  strictTools?: boolean;
}

export async function createProvider(spec: string, settings: ProviderSettings): Promise<LlmProvider> {
  const { provider, model } = parseModelSpec(spec);
  const common = { model, baseUrl: settings.baseUrl, env: settings.env, maxRetries: settings.maxRetries };
  switch (provider) {
    case 'anthropic': {
      const { createAnthropicProvider } = await import('../providers/anthropic/anthropic-provider.js');
      return createAnthropicProvider({ ...common, ...nativeToolSearchOf(settings) });
    }
    case 'openai': {
      const { createOpenAiChatProvider } = await import('../providers/openai-chat/openai-chat-provider.js');
      return createOpenAiChatProvider({ ...common, ...strictToolsOf(settings) });
    }
    case 'ollama':
    case 'openai-compatible': {
      const { createOpenAiChatProvider } = await import('../providers/openai-chat/openai-chat-provider.js');
      // No strictTools: a local server gets no strict schemas.
      return createOpenAiChatProvider({ ...common, provider });
    }
    case 'openai-responses': {
      const { createOpenAiResponsesProvider } = await import(
        '../providers/openai-responses/openai-responses-provider.js'
      );
      return createOpenAiResponsesProvider({
        ...common,
        ...nativeToolSearchOf(settings),
        ...strictToolsOf(settings),
      });
    }
    case 'gemini': {
      const { createGeminiProvider } = await import('../providers/gemini/gemini-provider.js');
      return createGeminiProvider(common);
    }
    case 'scripted': {
      const { resolve } = await import('node:path');
      const { loadScript } = await import('../testing/load-script.js');
      const { createScriptedProvider } = await import('../testing/scripted-provider.js');
      const path = resolve(settings.cwd, model);
      const script = await loadScript(path).catch((error: unknown) => {
        throw new ModelChoiceError(
          `cannot load the script for model "${spec}": ${error instanceof Error ? error.message : String(error)}`,
        );
      });
      return createScriptedProvider(script, { model: path, keepRequests: false });
    }
  }
}

function strictToolsOf(settings: ProviderSettings): { strictTools?: boolean } {
  return settings.strictTools === undefined ? {} : { strictTools: settings.strictTools };
}

function nativeToolSearchOf(settings: ProviderSettings): { nativeToolSearch?: boolean } {
  return settings.nativeToolSearch === undefined ? {} : { nativeToolSearch: settings.nativeToolSearch };
}
