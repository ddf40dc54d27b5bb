/**
 * Builds a ModelResponse from the frames of `generateContentStream`. Each frame is a whole
 * GenerateContentResponse holding the next parts (a function call always arrives whole), so the
 * accumulator appends parts in order and keeps the last finish reason and usage. It reads the
 * frames' fields itself instead of the SDK's convenience getters, which throw or warn on shapes
 * real streams contain. A stream that ends before any frame carries a finish reason is an error,
 * never a silently truncated answer.
 */

import type {
  BlockedReason,
  FinishReason,
  GenerateContentResponse,
  GenerateContentResponseUsageMetadata,
  Part,
} from '@google/genai';
import { type ModelResponse, ProviderError } from '../types.js';
import { fromGeminiResponse, type GeminiResponseContext } from './from-gemini-response.js';

/** What one frame needs to hold; the SDK yields GenerateContentResponse objects. */
export type GeminiStreamFrame = Pick<GenerateContentResponse, 'candidates' | 'usageMetadata' | 'promptFeedback'>;

export class GeminiStreamAccumulator {
  readonly #parts: Part[] = [];
  #role: string | undefined;
  #finishReason: FinishReason | undefined;
  #blockReason: BlockedReason | undefined;
  #usage: GenerateContentResponseUsageMetadata | undefined;

  constructor(private readonly onTextDelta?: (text: string) => void) {}

  /** True once a frame has said why the model stopped (or that the prompt was blocked). */
  get finished(): boolean {
    return this.#finishReason !== undefined || this.#blockReason !== undefined;
  }

  add(frame: GeminiStreamFrame): void {
    const candidate = frame.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      this.#parts.push(structuredClone(part));
      if (typeof part.text === 'string' && part.text !== '' && part.thought !== true) this.onTextDelta?.(part.text);
    }
    if (candidate?.content?.role) this.#role = candidate.content.role;
    if (candidate?.finishReason) this.#finishReason = candidate.finishReason;
    if (frame.promptFeedback?.blockReason) this.#blockReason = frame.promptFeedback.blockReason;
    // Each frame's usage covers the whole response so far: the last one is the total.
    if (frame.usageMetadata) this.#usage = frame.usageMetadata;
  }

  finish(context: GeminiResponseContext): ModelResponse {
    if (!this.finished) {
      throw new ProviderError(
        'The Gemini stream ended before the model finished (no frame carried a finishReason). Try again.',
        { provider: 'gemini', retryable: true },
      );
    }
    return fromGeminiResponse(
      {
        candidates: [
          {
            content: { role: this.#role ?? 'model', parts: this.#parts },
            ...(this.#finishReason !== undefined && { finishReason: this.#finishReason }),
          },
        ],
        ...(this.#usage && { usageMetadata: this.#usage }),
        ...(this.#blockReason !== undefined && { promptFeedback: { blockReason: this.#blockReason } }),
      },
      context,
    );
  }
}

export async function readGeminiStream(
  frames: AsyncIterable<GeminiStreamFrame>,
  context: GeminiResponseContext,
  onTextDelta?: (text: string) => void,
): Promise<ModelResponse> {
  const accumulator = new GeminiStreamAccumulator(onTextDelta);
  for await (const frame of frames) accumulator.add(frame);
  return accumulator.finish(context);
}
