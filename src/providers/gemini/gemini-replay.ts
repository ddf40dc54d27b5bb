/**
 * The model's own `Content`, kept on the AssistantMessage so the next request can send it back
 * exactly. Gemini requires this: a thought signature on a function-call part must come back on the
 * same part, byte for byte, or thinking models lose their reasoning (Gemini 3 rejects the request).
 */

import type { Content } from '@google/genai';
import { exceedsJsonDepth } from '../../json/json-depth.js';
import type { AssistantMessage } from '../types.js';

export const geminiProviderId = 'gemini';

/**
 * Undefined for content nested deeper than the host accepts (copying it would overflow the stack): its calls are
 * refused as too deep anyway, and the history then sends the turn rebuilt from its parts.
 */
export function geminiReplay(content: Content): AssistantMessage['providerReplay'] {
  if (exceedsJsonDepth(content)) return undefined;
  return { provider: geminiProviderId, data: structuredClone(content) };
}

/** The Content a Gemini turn came back with, or undefined when the message came from elsewhere. */
export function replayedGeminiContent(message: AssistantMessage): Content | undefined {
  const replay = message.providerReplay;
  if (replay?.provider !== geminiProviderId) return undefined;
  const data = replay.data;
  if (data === null || typeof data !== 'object' || !Array.isArray((data as Content).parts)) return undefined;
  const content = structuredClone(data as Content);
  return content.role === undefined ? { ...content, role: 'model' } : content;
}
