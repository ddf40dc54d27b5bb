import type { LlmProvider } from '../providers/types.js';

/** `provider:model`, as the user would write it. */
export function providerSpec(provider: LlmProvider): string {
  return `${provider.provider}:${provider.model}`;
}
