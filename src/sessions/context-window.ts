/**
 * How many tokens a model's context holds, for deciding when a conversation is compacted. The config's
 * `contextTokens` wins; otherwise the window of well-known model families; otherwise a size every current model has.
 */
const DEFAULT_CONTEXT_TOKENS = 128_000;

/** Compaction starts when the next request would fill this share of the window. */
export const COMPACT_AT_SHARE = 0.75;
/** The last turns kept word for word fill at most this share of the window (at least the last turn is kept). */
export const KEEP_SHARE = 0.3;

const KNOWN_WINDOWS: ReadonlyArray<{ provider?: string; model: RegExp; tokens: number }> = [
  { provider: 'anthropic', model: /^claude-/, tokens: 200_000 },
  { model: /^gpt-4\.1/, tokens: 1_000_000 },
  { model: /^gpt-5/, tokens: 400_000 },
  { model: /^(gpt-4o|o1|o3|o4)/, tokens: 128_000 },
  { provider: 'gemini', model: /^gemini-/, tokens: 1_000_000 },
];

export function contextWindowOf(provider: string, model: string, configured?: number): number {
  if (configured !== undefined) return configured;
  const known = KNOWN_WINDOWS.find(
    (entry) => (entry.provider === undefined || entry.provider === provider) && entry.model.test(model),
  );
  return known?.tokens ?? DEFAULT_CONTEXT_TOKENS;
}
