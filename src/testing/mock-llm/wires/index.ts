/**
 * The registry of provider wires the mock LLM server speaks. A new wire is registered here: import
 * it and add it to the list (routes must not overlap; the first wire whose `matches` is true wins).
 */
import type { MockWire } from '../wire.js';
import { anthropicWire } from './anthropic.js';
import { geminiWire } from './gemini.js';
import { openAiChatWire } from './openai-chat.js';
import { openAiResponsesWire } from './openai-responses.js';

export function defaultWires(): MockWire[] {
  return [anthropicWire, openAiChatWire, openAiResponsesWire, geminiWire];
}
