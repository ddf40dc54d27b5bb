import { describe, expect, it } from 'vitest';
import { fromGeminiResponse } from '../../../src/providers/gemini/from-gemini-response.js';
import { GeminiStreamAccumulator, readGeminiStream } from '../../../src/providers/gemini/gemini-stream-accumulator.js';
import { mapGeminiFinishReason } from '../../../src/providers/gemini/map-gemini-finish-reason.js';
import { ProviderError } from '../../../src/providers/types.js';

const context = { turnIndex: 2, wrappedTools: new Set(['echo__say']) };

describe('fromGeminiResponse', () => {
  it('finds calls in the parts although finishReason is STOP, makes up missing ids, skips thoughts', () => {
    const content = {
      role: 'model',
      parts: [
        { text: 'thinking…', thought: true },
        { text: 'Two ' },
        { text: 'calls.' },
        { functionCall: { name: 'files__read', args: { path: '/a' } }, thoughtSignature: 'c2ln' },
        { functionCall: { id: 'real-id', name: 'files__read', args: { path: '/b' } } },
        { functionCall: { name: 'echo__say', args: { value: [1, 2] } } },
      ],
    };
    const response = fromGeminiResponse(
      {
        candidates: [{ content, finishReason: 'STOP' as never }],
        usageMetadata: {
          promptTokenCount: 10,
          candidatesTokenCount: 5,
          thoughtsTokenCount: 7,
          cachedContentTokenCount: 4,
        },
      },
      context,
    );
    expect(response.stopReason).toBe('tool-calls');
    expect(response.message.content).toEqual([
      { type: 'text', text: 'Two calls.' },
      { type: 'tool-call', id: 'gemini_call_2_0', name: 'files__read', argumentsText: '{"path":"/a"}' },
      { type: 'tool-call', id: 'real-id', name: 'files__read', argumentsText: '{"path":"/b"}' },
      { type: 'tool-call', id: 'gemini_call_2_2', name: 'echo__say', argumentsText: '[1,2]' },
    ]);
    expect(response.message.providerReplay).toEqual({ provider: 'gemini', data: content });
    expect(response.usage).toEqual({ inputTokens: 10, outputTokens: 12, cacheReadTokens: 4 });
  });

  it('reads a call without args (a tool declared without parameters) as an empty object', () => {
    const content = { role: 'model', parts: [{ functionCall: { name: 'clock__now' } }] };
    const response = fromGeminiResponse({ candidates: [{ content, finishReason: 'STOP' as never }] }, context);
    expect(response.message.content).toEqual([
      { type: 'tool-call', id: 'gemini_call_2_0', name: 'clock__now', argumentsText: '{}' },
    ]);
  });

  it('maps finish reasons and a blocked prompt', () => {
    expect(mapGeminiFinishReason('STOP')).toBe('end');
    expect(mapGeminiFinishReason('MAX_TOKENS')).toBe('max-tokens');
    expect(mapGeminiFinishReason('SAFETY')).toBe('refusal');
    expect(mapGeminiFinishReason('MALFORMED_FUNCTION_CALL')).toBe('other');
    const blocked = fromGeminiResponse({ promptFeedback: { blockReason: 'SAFETY' as never } }, context);
    expect(blocked).toEqual({ message: { role: 'assistant', content: [] }, stopReason: 'refusal' });
  });
});

describe('GeminiStreamAccumulator', () => {
  it('appends the parts of every frame, reports text as it comes, keeps the last usage', async () => {
    const deltas: string[] = [];
    async function* frames() {
      yield { candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] } }] };
      yield { candidates: [{ content: { role: 'model', parts: [{ text: 'lo', thought: true }, { text: 'lo' }] } }] };
      yield {
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: 'AA==' }] },
            finishReason: 'STOP' as never,
          },
        ],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2 },
      };
    }
    const response = await readGeminiStream(frames(), context, (text) => deltas.push(text));
    expect(deltas).toEqual(['Hel', 'lo']);
    expect(response.message.content).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'tool-call', id: 'gemini_call_2_0', name: 'f', argumentsText: '{}' },
    ]);
    expect(response.message.providerReplay?.data).toEqual({
      role: 'model',
      parts: [
        { text: 'Hel' },
        { text: 'lo', thought: true },
        { text: 'lo' },
        { functionCall: { name: 'f', args: {} }, thoughtSignature: 'AA==' },
      ],
    });
    expect(response.usage).toEqual({ inputTokens: 3, outputTokens: 2 });
  });

  it('fails a stream that ends before any frame says why the model stopped', () => {
    const accumulator = new GeminiStreamAccumulator();
    accumulator.add({ candidates: [{ content: { role: 'model', parts: [{ text: 'partial' }] } }] });
    expect(() => accumulator.finish(context)).toThrow(ProviderError);
    expect(() => accumulator.finish(context)).toThrow(/ended before the model finished/);
  });
});
