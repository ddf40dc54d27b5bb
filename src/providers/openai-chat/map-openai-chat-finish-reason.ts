/**
 * Chat Completions `finish_reason` → neutral stop reason. Not trusted for tool calls: local servers
 * answer `stop` while calling tools, so callers decide `tool-calls` from the calls themselves.
 * https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 */
import type { StopReason } from '../types.js';

export function mapOpenAiChatFinishReason(finishReason: string | null | undefined, hasToolCalls: boolean): StopReason {
  if (hasToolCalls) return 'tool-calls';
  switch (finishReason) {
    case 'stop':
    case null:
    case undefined:
      // Some local servers end a stream without any finish reason.
      return 'end';
    case 'length':
      return 'max-tokens';
    case 'content_filter':
      return 'refusal';
    default:
      // 'tool_calls' / 'function_call' without any call, or a server's own value.
      return 'other';
  }
}
