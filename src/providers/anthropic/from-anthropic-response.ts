/**
 * Anthropic Message (non-streamed answer) → neutral ModelResponse. Text blocks become text parts,
 * tool_use blocks become tool calls whose `argumentsText` is the input as JSON. Block types the
 * host does not use (thinking, server tools) are left out.
 */
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { AssistantPart, ModelResponse } from '../types.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { mapAnthropicUsage } from './map-anthropic-usage.js';

export function fromAnthropicResponse(message: Message): ModelResponse {
  const content: AssistantPart[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      if (block.text !== '') content.push({ type: 'text', text: block.text });
    } else if (block.type === 'tool_use') {
      content.push({
        type: 'tool-call',
        id: block.id,
        name: block.name,
        argumentsText: JSON.stringify(block.input ?? {}),
      });
    }
  }
  return {
    message: { role: 'assistant', content },
    stopReason: mapAnthropicStopReason(message.stop_reason),
    usage: mapAnthropicUsage(message.usage),
  };
}
