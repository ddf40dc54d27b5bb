/**
 * Call ids made unique across one request: a call whose id an earlier call has is renamed, with the results of its
 * own turn that answer it, and the same transcript is always renamed the same way (its prefix keeps its bytes).
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/providers/types.js';
import { withUniqueCallIds } from '../../src/providers/unique-call-ids.js';

const user: Message = { role: 'user', content: [{ type: 'text', text: 'go' }] };

function turn(...ids: string[]): Message[] {
  return [
    user,
    {
      role: 'assistant',
      content: ids.map((id, index) => ({ type: 'tool-call', id, name: 'echo', argumentsText: `{"n":${index}}` })),
    },
    {
      role: 'tool',
      results: ids.map((id, index) => ({
        callId: id,
        toolName: 'echo',
        isError: false,
        content: [{ type: 'text', text: `${index}` }],
      })),
    },
  ];
}

/** Each call's id and the text of the result paired with it in the next message, by id. */
function pairs(messages: readonly Message[]): string[] {
  const out: string[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    const next = messages[index + 1];
    for (const part of message.content) {
      if (part.type !== 'tool-call') continue;
      const result = next?.role === 'tool' ? next.results.find((candidate) => candidate.callId === part.id) : undefined;
      const text = result?.content[0]?.type === 'text' ? result.content[0].text : '?';
      out.push(`${part.id}=${part.argumentsText}:${text}`);
    }
  }
  return out;
}

describe('withUniqueCallIds', () => {
  it('renames a call id of a later turn that an earlier turn used, and the result that answers it', () => {
    const messages = [...turn('call_0'), ...turn('call_0', 'call_1'), ...turn('call_0_2')];
    const unique = withUniqueCallIds(messages);
    expect(pairs(unique)).toEqual([
      'call_0={"n":0}:0',
      'call_0_2={"n":0}:0',
      'call_1={"n":1}:1',
      'call_0_2_2={"n":0}:0',
    ]);
    // The first turn is sent as it was; a later request renames the same way.
    expect(unique[1]).toBe(messages[1]);
    expect(withUniqueCallIds(messages.slice(0, 6))).toEqual(unique.slice(0, 6));
  });

  it('renames the second of two calls of one answer with one id, and its result, in order', () => {
    const unique = withUniqueCallIds(turn('call_0', 'call_0'));
    const calls = unique[1]?.role === 'assistant' ? unique[1].content : [];
    const results = unique[2]?.role === 'tool' ? unique[2].results : [];
    expect(calls.map((part) => (part.type === 'tool-call' ? [part.id, part.argumentsText] : []))).toEqual([
      ['call_0', '{"n":0}'],
      ['call_0_2', '{"n":1}'],
    ]);
    expect(results.map((result) => [result.callId, result.content[0]])).toEqual([
      ['call_0', { type: 'text', text: '0' }],
      ['call_0_2', { type: 'text', text: '1' }],
    ]);
  });

  it('leaves a transcript whose ids are unique as it is', () => {
    const messages = [...turn('a'), ...turn('b', 'c')];
    const unique = withUniqueCallIds(messages);
    unique.forEach((message, index) => {
      expect(message).toBe(messages[index]);
    });
  });
});
