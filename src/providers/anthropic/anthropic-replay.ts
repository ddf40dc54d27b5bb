/**
 * An Anthropic answer that used the server-side tool search, kept so it can be sent back as it came. The API
 * requires the `server_tool_use` and `tool_search_tool_result` blocks in the history, in place between the text and
 * the `tool_use` blocks: a `tool_use` of a deferred tool is valid only after the search result that loaded it. The
 * neutral message has no place for them (the host never runs a server tool), so the whole ordered content travels in
 * `AssistantMessage.providerReplay`, read only by this adapter.
 *
 * The blocks come from the provider: they are bounded here (count, names, search input) before being kept.
 */
import type {
  ContentBlock,
  ContentBlockParam,
  ServerToolUseBlock,
  ServerToolUseBlockParam,
  TextBlock,
  ToolSearchToolResultBlock,
  ToolSearchToolResultBlockParam,
  ToolUseBlock,
} from '@anthropic-ai/sdk/resources/messages';
import { type AssistantMessage, ProviderError } from '../types.js';

const anthropicProviderId = 'anthropic';

/** More blocks than a tool-using answer has; a search returns 3–5 references. */
const maxReplayBlocks = 200;
const maxToolReferences = 50;
/** A tool name is at most 64 characters; a little room for names the API may qualify. */
const maxToolNameLength = 256;
/** The search input is a short query (the regex variant caps it at 200 characters). */
const maxSearchInputLength = 4_000;

interface AnthropicReplayData {
  blocks: ContentBlockParam[];
}

/** What replay reads of an answer's blocks: a streamed answer is rebuilt into this shape. */
export type AnthropicAnswerBlock =
  | Pick<TextBlock, 'type' | 'text'>
  | Pick<ToolUseBlock, 'type' | 'id' | 'name' | 'input'>
  | Pick<ServerToolUseBlock, 'type' | 'id' | 'name' | 'input'>
  | Pick<ToolSearchToolResultBlock, 'type' | 'tool_use_id' | 'content'>
  | { type: Exclude<ContentBlock['type'], 'text' | 'tool_use' | 'server_tool_use' | 'tool_search_tool_result'> };

/** The answer's blocks as request blocks, when it holds server tool-search blocks; otherwise nothing to keep. */
export function toAnthropicReplay(content: readonly AnthropicAnswerBlock[]): AssistantMessage['providerReplay'] {
  if (!content.some((block) => block.type === 'server_tool_use' || block.type === 'tool_search_tool_result')) {
    return undefined;
  }
  if (content.length > maxReplayBlocks) throw tooLarge(`${content.length} content blocks`);
  const blocks: ContentBlockParam[] = [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        if (block.text !== '') blocks.push({ type: 'text', text: block.text });
        break;
      case 'tool_use':
        blocks.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input ?? {} });
        break;
      case 'server_tool_use':
        blocks.push(serverToolUse(block.id, block.name, block.input));
        break;
      case 'tool_search_tool_result':
        blocks.push(toolSearchResult(block.tool_use_id, block.content as unknown as Record<string, unknown>));
        break;
      default:
        // Thinking and other server tools' blocks: the host asks for none of them.
        break;
    }
  }
  const data: AnthropicReplayData = { blocks };
  return { provider: anthropicProviderId, data };
}

/**
 * The blocks that replay `message`, or `undefined` when it carries none from this adapter or its calls no longer
 * match the message's own (the message wins, as it does for every adapter's replay).
 */
export function anthropicReplayBlocks(message: AssistantMessage): ContentBlockParam[] | undefined {
  const replay = message.providerReplay;
  if (replay?.provider !== anthropicProviderId || !isReplayData(replay.data)) return undefined;
  const blocks = replay.data.blocks;
  const replayedIds = blocks.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
  const messageIds = message.content.flatMap((part) => (part.type === 'tool-call' ? [part.id] : []));
  if (replayedIds.join('\u0000') !== messageIds.join('\u0000')) return undefined;
  return structuredClone(blocks);
}

function serverToolUse(id: string, name: ServerToolUseBlockParam['name'], input: unknown): ServerToolUseBlockParam {
  const text = JSON.stringify(input ?? {});
  if (text.length > maxSearchInputLength) throw tooLarge(`a ${name} input of ${text.length} characters`);
  return { type: 'server_tool_use', id, name, input: JSON.parse(text) as unknown };
}

function toolSearchResult(toolUseId: string, content: Record<string, unknown>): ToolSearchToolResultBlockParam {
  if (content.type === 'tool_search_tool_search_result') {
    const references = Array.isArray(content.tool_references) ? content.tool_references : [];
    if (references.length > maxToolReferences) throw tooLarge(`${references.length} tool references`);
    const names = references.map((reference) => (reference as { tool_name?: unknown }).tool_name);
    for (const name of names) {
      if (typeof name !== 'string' || name.length > maxToolNameLength) {
        throw tooLarge('a tool reference without a name, or with one too long');
      }
    }
    return {
      type: 'tool_search_tool_result',
      tool_use_id: toolUseId,
      content: {
        type: 'tool_search_tool_search_result',
        tool_references: (names as string[]).map((name) => ({ type: 'tool_reference', tool_name: name })),
      },
    };
  }
  const errorCode = typeof content.error_code === 'string' ? content.error_code : 'unavailable';
  return {
    type: 'tool_search_tool_result',
    tool_use_id: toolUseId,
    content: {
      type: 'tool_search_tool_result_error',
      error_code: errorCode.slice(0, 64) as 'unavailable',
    },
  };
}

function tooLarge(what: string): ProviderError {
  return new ProviderError(
    `The Anthropic answer's tool search blocks are out of bounds (${what}); the answer is not kept.`,
    { provider: anthropicProviderId, retryable: false },
  );
}

function isReplayData(data: unknown): data is AnthropicReplayData {
  return typeof data === 'object' && data !== null && Array.isArray((data as { blocks?: unknown }).blocks);
}
