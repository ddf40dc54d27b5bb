/**
 * A model stand-in whose turns are functions of the request, for tests where the next call depends on what
 * the host sent (an id in a budget notice) or where the model must send what a script cannot (arguments that
 * are not JSON). It records every request it received, as it was at the time.
 */
import type { AssistantPart, LlmProvider, ModelRequest, ModelResponse, ToolResult } from '../../src/providers/types.js';

export type Turn = (request: ModelRequest) => AssistantPart[];

export interface TurnProvider extends LlmProvider {
  readonly requests: ModelRequest[];
}

export function createTurnProvider(turns: Turn[]): TurnProvider {
  const requests: ModelRequest[] = [];
  return {
    provider: 'test-turns',
    model: 'turns',
    requests,
    async generate(request, options = {}): Promise<ModelResponse> {
      options.signal?.throwIfAborted();
      requests.push(structuredClone(request));
      const turn = turns[requests.length - 1];
      const content = turn ? turn(request) : [{ type: 'text' as const, text: 'out of turns' }];
      const calls = content.some((part) => part.type === 'tool-call');
      return { message: { role: 'assistant', content }, stopReason: calls ? 'tool-calls' : 'end' };
    },
  };
}

export function toolCall(id: string, name: string, args: unknown): AssistantPart {
  return { type: 'tool-call', id, name, argumentsText: typeof args === 'string' ? args : JSON.stringify(args) };
}

/** The results of the last tool turn in a request. */
export function lastToolResults(request: ModelRequest): ToolResult[] {
  const message = request.messages.findLast((candidate) => candidate.role === 'tool');
  return message?.role === 'tool' ? message.results : [];
}
