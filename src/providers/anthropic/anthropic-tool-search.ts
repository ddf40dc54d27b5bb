/**
 * Anthropic's server-side tool search: which models have it, and the tool that turns it on. Tools sent with
 * `defer_loading: true` stay out of the model's context until its search returns them (as `tool_reference`s inside
 * a `tool_search_tool_result` block, which the API expands into the full definitions).
 *
 * https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool — generally available (no beta
 * header) in the API version `@anthropic-ai/sdk` 1.14 speaks, which types the tool as `ToolSearchToolBm25_20251119`.
 * Verified only against this project's mock LLM server (no provider is reachable from where it is developed).
 */
import type { ToolSearchToolBm25_20251119 } from '@anthropic-ai/sdk/resources/messages';

/**
 * The BM25 variant: the model writes natural-language queries, as it would to the host's own `search_tools`. Sent
 * last and never deferred (the API refuses a request whose tools are all deferred), so the tools array keeps one
 * fixed shape across turns and the cache breakpoint lands on a tool the model always sees.
 */
export const anthropicToolSearchTool: ToolSearchToolBm25_20251119 = {
  type: 'tool_search_tool_bm25_20251119',
  name: 'tool_search_tool_bm25',
};

/**
 * Models the documentation lists for tool search (December 2026): Claude Opus, Sonnet and Haiku 4.5 and every later
 * version, and the Fable and Mythos families. Read as a rule on the model id — `claude-<family>-<major>[-<minor>]`,
 * version 4.5 or later — so dated ids (`claude-sonnet-4-5-20250929`) and aliases match alike, and older ids
 * (`claude-opus-4-1`, `claude-3-7-sonnet-…`) do not. The `nativeToolSearch` setting overrides it.
 */
export function anthropicModelHasToolSearch(model: string): boolean {
  if (/^claude-(fable|mythos)-/.test(model)) return true;
  const match = /^claude-(?:opus|sonnet|haiku)-(\d{1,2})(?:-(\d{1,2}))?(?:-|$)/.exec(model);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = match[2] === undefined ? 0 : Number(match[2]);
  return major > 4 || (major === 4 && minor >= 5);
}
