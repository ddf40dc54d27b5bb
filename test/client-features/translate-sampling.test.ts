/** A server's sampling request → the model's request, the model's answer → the server's result, and which model. */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { chooseSamplingModel } from '../../src/client-features/choose-sampling-model.js';
import {
  modelResponseToSamplingResult,
  samplingToModelRequest,
  samplingUsesTools,
} from '../../src/client-features/translate-sampling.js';

describe('samplingToModelRequest', () => {
  it('keeps the system prompt, text and images, and the token limit', () => {
    const params: CreateMessageRequestParams = {
      systemPrompt: 'You are terse.',
      maxTokens: 50,
      messages: [
        { role: 'user', content: { type: 'text', text: 'What is in this picture?' } },
        { role: 'user', content: { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' } },
        { role: 'assistant', content: { type: 'text', text: 'A cat.' } },
        { role: 'user', content: [{ type: 'audio', data: 'aGVsbG8=', mimeType: 'audio/wav' }] },
      ],
    };
    expect(samplingToModelRequest(params)).toEqual({
      system: 'You are terse.',
      maxOutputTokens: 50,
      tools: [],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'A cat.' }] },
        { role: 'user', content: [{ type: 'text', text: expect.stringMatching(/^\[audio: audio\/wav/) }] },
      ],
    });
  });

  it('maps tools, tool use and tool results; toolChoice none offers no tools', () => {
    const params: CreateMessageRequestParams = {
      maxTokens: 100,
      tools: [{ name: 'weather', description: 'Weather for a city', inputSchema: { type: 'object', properties: {} } }],
      messages: [
        { role: 'user', content: { type: 'text', text: 'Weather in Oslo?' } },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'weather', input: { city: 'Oslo' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolUseId: 'c1', content: [{ type: 'text', text: '-3 °C' }], isError: false },
          ],
        },
      ],
    };
    expect(samplingUsesTools(params)).toBe(true);
    const request = samplingToModelRequest(params);
    expect(request.tools).toEqual([
      { name: 'weather', description: 'Weather for a city', inputSchema: { type: 'object', properties: {} } },
    ]);
    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'tool-call', id: 'c1', name: 'weather', argumentsText: '{"city":"Oslo"}' }],
      },
      {
        role: 'tool',
        results: [{ callId: 'c1', toolName: 'weather', content: [{ type: 'text', text: '-3 °C' }], isError: false }],
      },
    ]);
    expect(samplingToModelRequest({ ...params, toolChoice: { mode: 'none' } }).tools).toEqual([]);
  });
});

describe('modelResponseToSamplingResult', () => {
  it('answers one text block without tools and a list with tool_use blocks with tools', () => {
    const response = {
      message: {
        role: 'assistant' as const,
        content: [
          { type: 'text' as const, text: 'Let me check.' },
          { type: 'tool-call' as const, id: 'c2', name: 'weather', argumentsText: '{"city":"Bergen"}' },
        ],
      },
      stopReason: 'tool-calls' as const,
    };
    expect(modelResponseToSamplingResult(response, { model: 'm1' }, false)).toEqual({
      role: 'assistant',
      model: 'm1',
      stopReason: 'toolUse',
      content: { type: 'text', text: 'Let me check.' },
    });
    expect(modelResponseToSamplingResult(response, { model: 'm1' }, true)).toEqual({
      role: 'assistant',
      model: 'm1',
      stopReason: 'toolUse',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'c2', name: 'weather', input: { city: 'Bergen' } },
      ],
    });
    const ended = { message: { role: 'assistant' as const, content: [] }, stopReason: 'max-tokens' as const };
    expect(modelResponseToSamplingResult(ended, { model: 'm1' }, false)).toMatchObject({ stopReason: 'maxTokens' });
  });
});

describe('chooseSamplingModel', () => {
  const settings = {
    model: 'openai:gpt-5-mini',
    servers: { fast: 'anthropic:claude-haiku-4-5' },
    hints: { claude: 'anthropic:claude-sonnet-4-6', 'claude-3-haiku': 'anthropic:claude-haiku-4-5' },
    tools: true,
  };

  it('prefers the server mapping, then the first hint that matches, then the sampling model', () => {
    expect(chooseSamplingModel(undefined, 'any', ['claude'])).toBeUndefined();
    expect(chooseSamplingModel(settings, 'fast', ['claude'])).toBe('anthropic:claude-haiku-4-5');
    expect(chooseSamplingModel(settings, 'other', ['gemini', 'claude-3-haiku-20240307'])).toBe(
      'anthropic:claude-haiku-4-5',
    );
    expect(chooseSamplingModel(settings, 'other', ['claude-3-sonnet'])).toBe('anthropic:claude-sonnet-4-6');
    expect(chooseSamplingModel(settings, 'other', ['haiku'])).toBe('anthropic:claude-haiku-4-5');
    expect(chooseSamplingModel(settings, 'other', ['gemini'])).toBe('openai:gpt-5-mini');
  });
});
