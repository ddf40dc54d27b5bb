/**
 * Gemini GenerateContentResponse → provider-neutral response. Function calls are found by looking
 * at the parts (Gemini's `finishReason` stays `STOP` when it calls tools); calls without an `id` get
 * one made up from the turn and the call's position, so the same response always yields the same
 * ids. The candidate's Content is kept whole for replay, thought signatures included.
 */

import type { Content, GenerateContentResponse, GenerateContentResponseUsageMetadata } from '@google/genai';
import { unwrapArguments } from '../schema/index.js';
import { toolArgumentsText } from '../tool-arguments-text.js';
import type { AssistantPart, ModelResponse, Usage } from '../types.js';
import { geminiReplay } from './gemini-replay.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

export interface GeminiResponseContext {
  /** Assistant turns already in the conversation: part of made-up call ids, so they stay unique. */
  turnIndex: number;
  /** Tools whose schema was wrapped as `{value: …}` (see `toGeminiRequest`). */
  wrappedTools: ReadonlySet<string>;
}

/** The fields read here; a whole response or one accumulated from stream frames. */
type GeminiResponseFields = Pick<GenerateContentResponse, 'candidates' | 'usageMetadata' | 'promptFeedback'>;

/** The id for the `index`-th function call of turn `turnIndex` when Gemini sent none. */
export function madeUpCallId(turnIndex: number, index: number): string {
  return `gemini_call_${turnIndex}_${index}`;
}

export function fromGeminiResponse(response: GeminiResponseFields, context: GeminiResponseContext): ModelResponse {
  const candidate = response.candidates?.[0];
  const content: Content | undefined = candidate?.content;
  const parts: AssistantPart[] = [];
  let callCount = 0;
  for (const part of content?.parts ?? []) {
    const call = part.functionCall;
    if (call) {
      const name = call.name ?? '';
      const args = call.args ?? {};
      // The server gets the shape it declared: a wrapped root travels as `{value: …}` only to Gemini.
      const value = context.wrappedTools.has(name) ? unwrapArguments(args, true) : args;
      parts.push({
        type: 'tool-call',
        id: call.id || madeUpCallId(context.turnIndex, callCount),
        name,
        argumentsText: toolArgumentsText(value),
      });
      callCount += 1;
    } else if (typeof part.text === 'string' && part.text !== '' && part.thought !== true) {
      const previous = parts.at(-1);
      if (previous?.type === 'text') previous.text += part.text;
      else parts.push({ type: 'text', text: part.text });
    }
  }
  const replay = content?.parts && content.parts.length > 0 ? geminiReplay(content) : undefined;
  const result: ModelResponse = {
    message: {
      role: 'assistant',
      content: parts,
      ...(replay && { providerReplay: replay }),
    },
    stopReason:
      callCount > 0
        ? 'tool-calls'
        : mapGeminiFinishReason(candidate?.finishReason, response.promptFeedback?.blockReason),
  };
  const usage = mapGeminiUsage(response.usageMetadata);
  if (usage) result.usage = usage;
  return result;
}

/** `inputTokens` is the whole prompt (cached part included); thinking counts as output, as it is billed. */
export function mapGeminiUsage(usage: GenerateContentResponseUsageMetadata | undefined): Usage | undefined {
  if (!usage) return undefined;
  const result: Usage = {
    inputTokens: usage.promptTokenCount ?? 0,
    outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
  };
  if (usage.cachedContentTokenCount !== undefined) result.cacheReadTokens = usage.cachedContentTokenCount;
  return result;
}
