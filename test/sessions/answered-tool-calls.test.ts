/**
 * A transcript's calls paired with their results turn by turn: a model that uses the same call id at every turn (a
 * local OpenAI-compatible server's `call_0`) still has each call shown with its own turn's result.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/providers/types.js';
import { answeredToolCalls, pairedToolCalls } from '../../src/sessions/answered-tool-calls.js';

function call(id: string, a: number): Message {
  return {
    role: 'assistant',
    content: [{ type: 'tool-call', id, name: 'calculator__add_numbers', argumentsText: JSON.stringify({ a, b: 1 }) }],
  };
}

function result(callId: string, text: string): Message {
  return {
    role: 'tool',
    results: [{ callId, toolName: 'calculator__add_numbers', isError: false, content: [{ type: 'text', text }] }],
  };
}

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
const resultText = (entry: { result: { content: readonly { type: string; text?: string }[] } }) =>
  entry.result.content[0]?.text;

describe('answeredToolCalls', () => {
  it('gives each call the result of its own turn when the id comes back at every turn', () => {
    const history = [
      user('first'),
      call('call_0', 1),
      result('call_0', 'two'),
      answer('2'),
      user('second'),
      call('call_0', 2),
      result('call_0', 'three'),
      answer('3'),
    ];
    const answered = answeredToolCalls(history);
    expect(answered.map((entry) => entry.call.argumentsText)).toEqual(['{"a":1,"b":1}', '{"a":2,"b":1}']);
    expect(answered.map(resultText)).toEqual(['two', 'three']);
  });

  it('answers the calls one answer makes with one id in the order they were made', () => {
    const history: Message[] = [
      user('twice'),
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'call_0', name: 'calculator__add_numbers', argumentsText: '{"a":1}' },
          { type: 'tool-call', id: 'call_0', name: 'calculator__add_numbers', argumentsText: '{"a":2}' },
        ],
      },
      {
        role: 'tool',
        results: [
          {
            callId: 'call_0',
            toolName: 'calculator__add_numbers',
            isError: false,
            content: [{ type: 'text', text: 'x' }],
          },
          {
            callId: 'call_0',
            toolName: 'calculator__add_numbers',
            isError: false,
            content: [{ type: 'text', text: 'y' }],
          },
        ],
      },
    ];
    expect(answeredToolCalls(history).map(resultText)).toEqual(['x', 'y']);
  });

  it('leaves a call without its result in its turn unanswered, though a later turn answers its id', () => {
    // The first turn's call has no result (a transcript cut short); the second turn's result is not its.
    const history = [user('first'), call('call_0', 1), user('second'), call('call_0', 2), result('call_0', 'three')];
    expect(answeredToolCalls(history).map((entry) => entry.call.argumentsText)).toEqual(['{"a":2,"b":1}']);
    expect(pairedToolCalls(history).map((entry) => entry.result === undefined)).toEqual([true, false]);
  });
});
