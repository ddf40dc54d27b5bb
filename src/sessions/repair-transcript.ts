/**
 * A transcript read back after a crash may end with the model's tool calls and no results (the host was killed
 * while they ran). Every provider refuses that shape, so the missing results are filled in as errors saying what
 * happened; the model then knows the calls' outcome is unknown.
 */
import type { Message, ToolCallPart } from '../providers/types.js';

export function repairTranscript(messages: readonly Message[]): Message[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return [...messages];
  const calls = last.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
  if (calls.length === 0) return [...messages];
  return [
    ...messages,
    {
      role: 'tool',
      results: calls.map((call) => ({
        callId: call.id,
        toolName: call.name,
        isError: true,
        content: [{ type: 'text', text: 'The host stopped before this call finished; its outcome is unknown.' }],
      })),
    },
  ];
}
