/**
 * A paused turn (a provider's server tool ran long): the loop runs nothing, sends the conversation back with the
 * paused answer, and goes on — without counting the continuation against `maxTurns`, and at most
 * MAX_PAUSED_TURN_CONTINUATIONS times in a row. The scripted provider pauses as the script says.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/loop/events.js';
import { MAX_PAUSED_TURN_CONTINUATIONS, runAgent } from '../../src/loop/run-agent.js';
import type { ToolCallPart } from '../../src/providers/types.js';
import type { ScriptTurn } from '../../src/testing/script-types.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';

const paused: ScriptTurn = { text: 'Searching…', pauseTurn: true };

function run(turns: ScriptTurn[], maxTurns?: number) {
  const provider = createScriptedProvider({ scenarios: [{ turns }] });
  const executed: { call: ToolCallPart; turn: number }[] = [];
  const events: AgentEvent[] = [];
  const result = runAgent({
    runId: 'paused-turn',
    provider,
    tools: () => [{ name: 'notes__add', description: 'Adds a note', inputSchema: { type: 'object' } }],
    executeToolCall: async (call, context) => {
      executed.push({ call, turn: context.turn });
      return {
        outcome: 'ok',
        result: { callId: call.id, toolName: call.name, content: [{ type: 'text', text: 'added' }], isError: false },
      };
    },
    messages: [{ role: 'user', content: [{ type: 'text', text: 'add a note' }] }],
    ...(maxTurns === undefined ? {} : { maxTurns }),
    emit: (event) => events.push(event),
  });
  return { provider, executed, events, result };
}

describe('a paused turn', () => {
  it('is continued with the paused answer sent back, runs nothing, and does not count against maxTurns', async () => {
    const { provider, executed, result } = run(
      [paused, paused, { toolCalls: [{ name: 'notes__add' }] }, { text: 'ok' }],
      2,
    );
    const finished = await result;
    expect(finished.stopReason).toBe('end');
    expect(finished.turns).toBe(4);
    expect(executed.map((entry) => entry.turn)).toEqual([3]);
    // The second request ends with the first paused answer, as it came.
    expect(provider.requests[1]!.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(provider.requests[1]!.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Searching…' }],
    });
    expect(provider.requests[3]!.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'assistant',
      'assistant',
      'tool',
    ]);
  });

  it(`ends the run with an error naming the provider after ${MAX_PAUSED_TURN_CONTINUATIONS} continuations in a row`, async () => {
    const turns = Array.from({ length: MAX_PAUSED_TURN_CONTINUATIONS + 1 }, () => paused);
    const { provider, executed, events, result } = run([...turns, { text: 'never' }]);
    await expect(result).rejects.toThrow(
      `scripted paused its turn ${MAX_PAUSED_TURN_CONTINUATIONS + 1} times in a row (a server-side tool kept running); the host continues a paused turn at most ${MAX_PAUSED_TURN_CONTINUATIONS} times in a row`,
    );
    expect(provider.requests).toHaveLength(MAX_PAUSED_TURN_CONTINUATIONS + 1);
    expect(executed).toEqual([]);
    expect(events.filter((event) => event.type === 'run-end')).toEqual([]);
  });

  it('counts only pauses in a row: a tool turn between them starts the count again', async () => {
    const pauses = Array.from({ length: MAX_PAUSED_TURN_CONTINUATIONS }, () => paused);
    const { executed, result } = run([...pauses, { toolCalls: [{ name: 'notes__add' }] }, ...pauses, { text: 'ok' }]);
    const finished = await result;
    expect(finished.stopReason).toBe('end');
    expect(executed.map((entry) => entry.turn)).toEqual([MAX_PAUSED_TURN_CONTINUATIONS + 1]);
  });
});
