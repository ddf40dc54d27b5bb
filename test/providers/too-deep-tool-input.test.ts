/**
 * Tool input a model sends as a parsed value, nested 10,000 levels deep: every adapter that writes it back as text
 * must not overflow the stack (which would end the run), and the loop must refuse the call as too deep.
 */
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../src/loop/parse-tool-arguments.js';
import {
  AnthropicStreamAccumulator,
  type AnthropicStreamEvent,
} from '../../src/providers/anthropic/anthropic-stream-accumulator.js';
import { fromAnthropicResponse } from '../../src/providers/anthropic/from-anthropic-response.js';
import { fromGeminiResponse } from '../../src/providers/gemini/from-gemini-response.js';
import { argumentsAsText } from '../../src/providers/openai-chat/from-openai-chat-response.js';
import type { AssistantPart } from '../../src/providers/types.js';

const DEPTH = 10_000;

function deepInput(): Record<string, unknown> {
  let value: unknown = 1;
  for (let level = 0; level < DEPTH; level++) value = [value];
  return { value };
}

function refusedAsTooDeep(argumentsText: string): void {
  const parsed = parseToolArguments(argumentsText);
  expect(parsed.ok).toBe(false);
  expect(parsed.ok === false && parsed.error).toMatch(/^The arguments are nested deeper than 128 levels\./);
}

function onlyCall(parts: AssistantPart[]): string {
  const call = parts.find((part) => part.type === 'tool-call');
  if (call?.type !== 'tool-call') throw new Error('no tool call');
  return call.argumentsText;
}

describe('tool input nested 10,000 levels deep', () => {
  it('from Anthropic (plain and wrapped root) is refused by the loop instead of overflowing the stack', () => {
    for (const wrapped of [false, true]) {
      const input = wrapped ? { value: deepInput() } : deepInput();
      const response = fromAnthropicResponse(
        {
          content: [{ type: 'tool_use', id: 't', name: 'x__deep', input }],
          stop_reason: 'tool_use',
          usage: { input_tokens: 1, output_tokens: 1 },
        } as unknown as Message,
        { wrappedTools: new Set(wrapped ? ['x__deep'] : []) },
      );
      refusedAsTooDeep(onlyCall(response.message.content));
    }
  });

  it('streamed from Anthropic, whole in content_block_start or as deltas for a wrapped tool', () => {
    const deepText = JSON.stringify({ value: 0 }).replace('0', `${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)}`);
    for (const [startInput, deltas] of [
      [deepInput(), []],
      [{}, [deepText]],
    ] as const) {
      const accumulator = new AnthropicStreamAccumulator(undefined, { wrappedTools: new Set(['x__deep']) });
      const events = [
        { type: 'message_start', message: { content: [], usage: { input_tokens: 1, output_tokens: 0 } } },
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 't', name: 'x__deep', input: startInput },
        },
        ...deltas.map((partial) => ({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: partial },
        })),
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 1 } },
        { type: 'message_stop' },
      ];
      for (const event of events) accumulator.add(event as unknown as AnthropicStreamEvent);
      refusedAsTooDeep(onlyCall(accumulator.result().message.content));
    }
  });

  it('from Gemini and from a local server that sends OpenAI arguments as an object', () => {
    const response = fromGeminiResponse(
      {
        candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'x__deep', args: deepInput() } }] } }],
      },
      { turnIndex: 0, wrappedTools: new Set() },
    );
    refusedAsTooDeep(onlyCall(response.message.content));
    refusedAsTooDeep(argumentsAsText(deepInput()));
  });

  it('input within the limit is written out unchanged', () => {
    expect(argumentsAsText({ a: [[1]] })).toBe('{"a":[[1]]}');
  });
});
