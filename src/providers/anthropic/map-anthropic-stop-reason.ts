/**
 * Anthropic `stop_reason` → the neutral StopReason.
 * https://docs.anthropic.com/en/api/handling-stop-reasons
 */
import type { StopReason as AnthropicStopReason } from '@anthropic-ai/sdk/resources/messages';
import type { StopReason } from '../types.js';

export function mapAnthropicStopReason(reason: AnthropicStopReason | string | null | undefined): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'end';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max-tokens';
    case 'refusal':
      return 'refusal';
    case 'pause_turn':
      // A server tool (the tool search) ran long: the API continues the turn when the answer is sent back.
      return 'paused';
    default:
      // Reasons newer than this code.
      return 'other';
  }
}
