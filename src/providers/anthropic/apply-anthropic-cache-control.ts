/**
 * Prompt-caching breakpoints for Anthropic. The cached prefix is tools → system → messages, so
 * breakpoints go on the last tool, the system block, and the last block of the last message
 * (rolling forward each turn). A fourth goes on the last block of the message three from the end:
 * that was the last message of the previous request, so this request reads exactly the entry the
 * previous one wrote, however many blocks the turn in between added (the API only looks back 20
 * blocks from a breakpoint for an earlier entry).
 *
 * https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 */
import type {
  CacheControlEphemeral,
  MessageParam,
  TextBlockParam,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages';

/** The API rejects a request with more cache_control blocks than this. */
const maxAnthropicCacheBreakpoints = 4;

interface Cacheable {
  cache_control?: CacheControlEphemeral | null;
}

/** Marks the breakpoints in place on freshly built request parts; returns how many were set. */
export function applyAnthropicCacheControl(parts: {
  tools: ToolUnion[];
  system: TextBlockParam[];
  messages: MessageParam[];
}): number {
  const targets: (Cacheable | undefined)[] = [
    parts.tools.at(-1),
    parts.system.at(-1),
    lastBlock(parts.messages.at(-1)),
    parts.messages.length >= 3 ? lastBlock(parts.messages.at(-3)) : undefined,
  ];
  let count = 0;
  for (const target of targets) {
    if (target === undefined || count === maxAnthropicCacheBreakpoints) continue;
    target.cache_control = { type: 'ephemeral' };
    count++;
  }
  return count;
}

function lastBlock(message: MessageParam | undefined): Cacheable | undefined {
  if (message === undefined || typeof message.content === 'string') return undefined;
  return message.content.at(-1) as Cacheable | undefined;
}
