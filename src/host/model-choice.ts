/**
 * Which model a run uses: `--model`, else the config's `model`, else the first provider whose key
 * is in the environment, in the documented order. With none, a usage error naming every way to
 * configure one.
 */

import { closeNames } from '../text/close-names.js';
import { quoteShown } from '../text/quote-shown.js';

export const KNOWN_PROVIDERS = [
  'anthropic',
  'openai',
  'openai-responses',
  'gemini',
  'ollama',
  'openai-compatible',
  'scripted',
] as const;
export type ProviderId = (typeof KNOWN_PROVIDERS)[number];

/** A model of each provider, as the README's table of models names them, for a message that needs an example. */
const EXAMPLE_MODELS: Record<ProviderId, string> = {
  anthropic: 'claude-sonnet-4-6',
  openai: 'gpt-5',
  'openai-responses': 'gpt-5',
  gemini: 'gemini-2.5-flash',
  ollama: 'qwen2.5',
  'openai-compatible': 'my-model',
  scripted: 'examples/scripts/five-plus-seven.json',
};

/** Picked when no model is named, in this order, by the key found in the environment. */
const DEFAULT_MODELS_BY_KEY: ReadonlyArray<{ variables: string[]; model: string }> = [
  { variables: ['ANTHROPIC_API_KEY'], model: 'anthropic:claude-sonnet-4-6' },
  { variables: ['OPENAI_API_KEY'], model: 'openai:gpt-5' },
  { variables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], model: 'gemini:gemini-2.5-flash' },
];

export class ModelChoiceError extends Error {
  override readonly name = 'ModelChoiceError';
}

interface ModelSpec {
  provider: ProviderId;
  model: string;
}

/** How much of a model spec a message quotes: a config's spec is untrusted and may be of any length. */
const MAX_QUOTED_SPEC_CHARACTERS = 200;

function quoted(text: string): string {
  return quoteShown(text, MAX_QUOTED_SPEC_CHARACTERS);
}

export function parseModelSpec(spec: string): ModelSpec {
  const colon = spec.indexOf(':');
  if (colon <= 0) {
    const inferred = inferProvider(spec);
    if (inferred) return { provider: inferred, model: spec };
    if (isProvider(spec)) throw new ModelChoiceError(providerWithoutModel(spec));
    throw new ModelChoiceError(
      `model ${quoted(spec)} has no provider: write it as provider:model, e.g. anthropic:claude-sonnet-4-6 (providers: ${KNOWN_PROVIDERS.join(', ')})`,
    );
  }
  const provider = spec.slice(0, colon);
  const model = spec.slice(colon + 1);
  if (!isProvider(provider)) {
    const close = closeNames(provider, KNOWN_PROVIDERS, 1);
    const guess = close.length > 0 ? `did you mean ${close[0]}? ` : '';
    throw new ModelChoiceError(
      `unknown provider ${quoted(provider)} in model ${quoted(spec)} (${guess}known: ${KNOWN_PROVIDERS.join(', ')})`,
    );
  }
  if (model === '') throw new ModelChoiceError(`model ${quoted(spec)} names no model after ${quoted(`${provider}:`)}`);
  return { provider, model };
}

function isProvider(name: string): name is ProviderId {
  return (KNOWN_PROVIDERS as readonly string[]).includes(name);
}

/** `--model anthropic`: the provider is right and the model was left out. */
function providerWithoutModel(provider: ProviderId): string {
  const what =
    provider === 'scripted' ? { noun: 'script', placeholder: 'PATH' } : { noun: 'model', placeholder: 'MODEL' };
  return `model ${quoted(provider)} names the provider but no ${what.noun}: write it as ${provider}:${what.placeholder}, e.g. ${provider}:${EXAMPLE_MODELS[provider]}`;
}

function inferProvider(model: string): ProviderId | undefined {
  if (/^claude-/.test(model)) return 'anthropic';
  if (/^(gpt-|o\d)/.test(model)) return 'openai';
  if (/^gemini-/.test(model)) return 'gemini';
  return undefined;
}

export function chooseModel(options: { flag?: string; config?: string; env: Record<string, string | undefined> }): {
  spec: string;
  source: 'flag' | 'config' | 'environment';
} {
  if (options.flag) return { spec: options.flag, source: 'flag' };
  if (options.config) return { spec: options.config, source: 'config' };
  for (const candidate of DEFAULT_MODELS_BY_KEY) {
    if (candidate.variables.some((variable) => options.env[variable])) {
      return { spec: candidate.model, source: 'environment' };
    }
  }
  throw new ModelChoiceError(noModelMessage());
}

function noModelMessage(): string {
  return [
    'no model is configured. Configure one of these ways:',
    '  --model provider:model          e.g. --model anthropic:claude-sonnet-4-6',
    '  "model" in the config file      e.g. "model": "openai:gpt-5"',
    '  ANTHROPIC_API_KEY               picks anthropic:claude-sonnet-4-6',
    '  OPENAI_API_KEY                  picks openai:gpt-5',
    '  GEMINI_API_KEY / GOOGLE_API_KEY picks gemini:gemini-2.5-flash',
    '  --model ollama:MODEL            a local Ollama server (OLLAMA_HOST, default 127.0.0.1:11434)',
    '  --model openai-compatible:MODEL --base-url URL   llama.cpp, vLLM, LM Studio',
    '  --model scripted:PATH           the offline scripted model (see examples/scripts/)',
  ].join('\n');
}
