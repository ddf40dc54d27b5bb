/**
 * OpenAI's tool search in the Responses API: which models have it, and the tool that turns it on. Function tools
 * sent with `defer_loading: true` keep their parameter schemas out of the model's context until its search loads
 * them; the search runs on OpenAI's side (`execution: "server"`, the default) and its `tool_search_call` and
 * `tool_search_output` items come back in the answer's output, to be sent back with the rest of the turn.
 *
 * https://developers.openai.com/api/docs/guides/tools-tool-search — typed by `openai` 6.49 as `ToolSearchTool`,
 * `FunctionTool.defer_loading`, `ResponseToolSearchCall` and `ResponseToolSearchOutputItem`.
 * Verified only against this project's mock LLM server (no provider is reachable from where it is developed).
 */
import type { ToolSearchTool } from 'openai/resources/responses/responses';

/** The hosted search, sent last (after the name-sorted functions) so the tools array keeps one shape. */
export const responsesToolSearchTool: ToolSearchTool = { type: 'tool_search' };

/**
 * "Only gpt-5.4 and later models support tool_search" (the guide, December 2026). Read as a rule on the model id:
 * `gpt-<major>[.<minor>]` at version 5.4 or later, with any suffix (`gpt-5.4-pro`, `gpt-5.5-mini`, dated ids).
 * Other ids (`gpt-5`, `gpt-5.2`, `o3`, `gpt-4.1`) do not. The `nativeToolSearch` setting overrides it.
 */
export function responsesModelHasToolSearch(model: string): boolean {
  const match = /^gpt-(\d{1,2})(?:\.(\d{1,2}))?(?:[-.]|$)/i.exec(model);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = match[2] === undefined ? 0 : Number(match[2]);
  return major > 5 || (major === 5 && minor >= 4);
}
