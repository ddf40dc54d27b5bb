/**
 * Anthropic Message (non-streamed answer) → neutral ModelResponse. Text blocks become text parts,
 * tool_use blocks become tool calls whose `argumentsText` is the input as JSON — unwrapped for a
 * tool whose schema root was wrapped, so the server gets the shape it declared. Block types the
 * host does not use (thinking, server tools) are left out of the parts; the server tool search's blocks are kept in
 * `providerReplay`, to be sent back.
 */
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { unwrapArguments } from '../schema/index.js';
import { toolArgumentsText } from '../tool-arguments-text.js';
import type { AssistantMessage, AssistantPart, ModelResponse } from '../types.js';
import { toAnthropicReplay } from './anthropic-replay.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { mapAnthropicUsage } from './map-anthropic-usage.js';

export interface AnthropicResponseContext {
  /** Tools whose schema was wrapped as `{value: …}` (see `translateAnthropicRequest`). */
  wrappedTools: ReadonlySet<string>;
}

export function fromAnthropicResponse(message: Message, context?: AnthropicResponseContext): ModelResponse {
  const content: AssistantPart[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      if (block.text !== '') content.push({ type: 'text', text: block.text });
    } else if (block.type === 'tool_use') {
      content.push({
        type: 'tool-call',
        id: block.id,
        name: block.name,
        argumentsText: toolArgumentsText(inputForServer(block.name, block.input ?? {}, context)),
      });
    }
  }
  const assistant: AssistantMessage = { role: 'assistant', content };
  const providerReplay = toAnthropicReplay(message.content);
  if (providerReplay !== undefined) assistant.providerReplay = providerReplay;
  return {
    message: assistant,
    stopReason: mapAnthropicStopReason(message.stop_reason),
    usage: mapAnthropicUsage(message.usage),
  };
}

/** The server gets the shape it declared: a wrapped root travels as `{value: …}` only to Anthropic. */
export function inputForServer(name: string, input: unknown, context: AnthropicResponseContext | undefined): unknown {
  if (!context?.wrappedTools.has(name) || input === null || typeof input !== 'object' || Array.isArray(input)) {
    return input;
  }
  return unwrapArguments(input as Record<string, unknown>, true);
}
