/**
 * The mock's stand-in for a provider's server-side tool search: the deferred tools whose name or description holds
 * the most of the query's words, best first, at most five (Anthropic's search returns 3–5 references). Simple on
 * purpose: scripts name queries that fit the tool they mean, and tests assert on what was found.
 */
import type { ConversationView } from './script-types.js';

const maxFound = 5;

export function searchDeferredTools(view: ConversationView, query: string): string[] {
  const words = wordsOf(query);
  const scored = (view.deferredTools ?? []).map((tool, index) => {
    const haystack = new Set(wordsOf(`${tool.name} ${tool.description}`));
    return { name: tool.name, index, score: words.filter((word) => haystack.has(word)).length };
  });
  return scored
    .filter((tool) => tool.score > 0)
    .sort((left, right) => right.score - left.score || left.index - right.index)
    .slice(0, maxFound)
    .map((tool) => tool.name);
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
}
