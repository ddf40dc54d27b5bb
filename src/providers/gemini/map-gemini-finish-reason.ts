/**
 * Gemini `finishReason` → neutral StopReason. Gemini says `STOP` even when it calls functions, so
 * the caller decides "tool-calls" by looking for function-call parts first; this maps the rest.
 * https://ai.google.dev/api/generate-content#FinishReason
 */

import type { StopReason } from '../types.js';

const refusals = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/** `blockReason` is set (and there is no candidate) when the prompt itself was blocked. */
export function mapGeminiFinishReason(finishReason: string | undefined, blockReason?: string): StopReason {
  if (blockReason !== undefined && blockReason !== '') return 'refusal';
  if (finishReason === undefined || finishReason === 'STOP') return 'end';
  if (finishReason === 'MAX_TOKENS') return 'max-tokens';
  if (refusals.has(finishReason)) return 'refusal';
  return 'other';
}
