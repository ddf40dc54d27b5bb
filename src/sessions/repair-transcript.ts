/**
 * A transcript read back after a crash may end with the model's tool calls and no results (the host was killed
 * while they ran), as may one whose turn ended while its calls were still being asked about. Every provider refuses
 * that shape, so the missing results are filled in as errors saying what happened; the model then knows the calls'
 * outcome is unknown.
 */
import type { Message, ToolCallPart } from '../providers/types.js';

export function repairTranscript(messages: readonly Message[]): Message[] {
  const answers = unansweredCallResults(
    messages,
    'The host stopped before this call finished; its outcome is unknown.',
  );
  return answers === undefined ? [...messages] : [...messages, answers];
}

/**
 * Results saying `text` for the calls of the transcript's last message, when it is the model's and holds calls (none
 * of them answered, since results follow in a message of their own): what a transcript needs before it can go on.
 */
export function unansweredCallResults(messages: readonly Message[], text: string): Message | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return undefined;
  const calls = last.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
  if (calls.length === 0) return undefined;
  return {
    role: 'tool',
    results: calls.map((call) => ({
      callId: call.id,
      toolName: call.name,
      isError: true,
      content: [{ type: 'text', text }],
    })),
  };
}
