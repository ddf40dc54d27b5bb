/**
 * Call ids as a wire accepts them: a call whose id the wire refuses, or whose id an earlier call in scope has, is
 * renamed, with the results of its own turn that answer it, and the same transcript is always renamed the same way
 * (its prefix keeps its bytes).
 */
import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_CALL_IDS,
  OPENAI_CHAT_CALL_IDS,
  OPENAI_RESPONSES_CALL_IDS,
} from '../../src/providers/call-id-rules.js';
import type { Message } from '../../src/providers/types.js';
import { withWireCallIds } from '../../src/providers/wire-call-ids.js';

const withUniqueCallIds = (messages: readonly Message[]) => withWireCallIds(messages, ANTHROPIC_CALL_IDS);

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

describe('withWireCallIds: ids that repeat', () => {
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

const long = (length: number) => 'x'.repeat(length);

describe('withWireCallIds: ids a wire refuses', () => {
  it('gives Anthropic ids of letters, digits, _ and -, each result with its own call, none colliding', () => {
    const ids = ['functions.shop__echo:0', 'call:1', 'call_1', 'an id', '', 'ünï', 'call_1_2'];
    const unique = withWireCallIds(turn(...ids), ANTHROPIC_CALL_IDS);
    expect(pairs(unique)).toEqual([
      'functions_shop__echo_0={"n":0}:0',
      'call_1={"n":1}:1',
      'call_1_2={"n":2}:2',
      'an_id={"n":3}:3',
      'call={"n":4}:4',
      '_n_={"n":5}:5',
      'call_1_2_2={"n":6}:6',
    ]);
    for (const id of pairs(unique).map((pair) => pair.split('=')[0])) expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
  });

  it('renames an id the same way at every later request, and leaves ids the wire accepts as they are', () => {
    const messages = [...turn('toolu_01A'), ...turn('functions.echo:0'), ...turn('functions.echo:0')];
    const unique = withWireCallIds(messages, ANTHROPIC_CALL_IDS);
    expect(unique[1]).toBe(messages[1]);
    expect(pairs(unique)).toEqual([
      'toolu_01A={"n":0}:0',
      'functions_echo_0={"n":0}:0',
      'functions_echo_0_2={"n":0}:0',
    ]);
    expect(withWireCallIds(messages.slice(0, 6), ANTHROPIC_CALL_IDS)).toEqual(unique.slice(0, 6));
  });

  it('cuts ids longer than OpenAI takes, keeping two that share their start apart and within the limit', () => {
    const ids = [`${long(60)}a`, `${long(60)}b`, 'call:1'];
    const chat = pairs(withWireCallIds(turn(...ids), OPENAI_CHAT_CALL_IDS));
    expect(chat).toEqual([`${long(40)}={"n":0}:0`, `${long(38)}_2={"n":1}:1`, 'call:1={"n":2}:2']);
    const responses = pairs(withWireCallIds(turn(...ids), OPENAI_RESPONSES_CALL_IDS));
    expect(responses).toEqual([`${long(60)}a={"n":0}:0`, `${long(60)}b={"n":1}:1`, 'call:1={"n":2}:2']);
    const longer = pairs(withWireCallIds(turn(long(70), long(80)), OPENAI_RESPONSES_CALL_IDS));
    expect(longer).toEqual([`${long(64)}={"n":0}:0`, `${long(62)}_2={"n":1}:1`]);
  });

  it('lets OpenAI Chat ids repeat across turns, where a result answers the message just before it', () => {
    const messages = [...turn('call_0'), ...turn('call_0')];
    const chat = withWireCallIds(messages, OPENAI_CHAT_CALL_IDS);
    chat.forEach((message, index) => {
      expect(message).toBe(messages[index]);
    });
  });

  it('cuts without splitting a character made of two UTF-16 units', () => {
    const [id] = pairs(withWireCallIds(turn(`${long(39)}😀😀`), OPENAI_CHAT_CALL_IDS));
    expect(id).toBe(`${long(39)}😀={"n":0}:0`);
  });

  it('gives a result that answers no call of the answer before an id the wire accepts', () => {
    const orphan: Message = {
      role: 'tool',
      results: [{ callId: 'call:9', toolName: 'echo', isError: false, content: [{ type: 'text', text: '9' }] }],
    };
    const [, result] = withWireCallIds([user, orphan], ANTHROPIC_CALL_IDS);
    expect(result?.role === 'tool' ? result.results[0]?.callId : undefined).toBe('call_9');
  });
});
