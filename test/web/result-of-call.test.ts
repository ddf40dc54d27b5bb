import { describe, expect, it } from 'vitest';
import { toAnthropicRequest } from '../../src/providers/anthropic/to-anthropic-request.js';
import { toGeminiRequest } from '../../src/providers/gemini/to-gemini-request.js';
import { toOpenAiChatRequest } from '../../src/providers/openai-chat/to-openai-chat-request.js';
import { toOpenAiResponsesRequest } from '../../src/providers/openai-responses/to-openai-responses-request.js';
import type { ModelRequest, ToolResult } from '../../src/providers/types.js';
import { resultOfCall } from '../../web/src/pages/result-of-call.js';

const result = (text: string): ToolResult => ({
  callId: 'call_0',
  toolName: 'told__say',
  content: [{ type: 'text', text }],
  isError: false,
});
const call = (text: string) => ({
  type: 'tool-call' as const,
  id: 'call_0',
  name: 'told__say',
  argumentsText: JSON.stringify({ text }),
});

// Two answers, as a local model writes them: every call `call_0`, twice in the latest answer.
const request: ModelRequest = {
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Say things' }] },
    { role: 'assistant', content: [call('earlier')] },
    { role: 'tool', results: [result('earlier result')] },
    { role: 'assistant', content: [call('first'), call('second')] },
    { role: 'tool', results: [result('first result'), result('second result')] },
  ],
  tools: [{ name: 'told__say', description: 'Says it.', inputSchema: { type: 'object' } }],
};

const bodies: [string, () => unknown][] = [
  ['the host (a scripted model)', () => request],
  ['anthropic', () => toAnthropicRequest(request, { model: 'claude-test', maxOutputTokens: 1024, stream: false })],
  ['openai-chat', () => toOpenAiChatRequest(request, { model: 'gpt-test', local: false, strictTools: true })],
  ['openai-compatible', () => toOpenAiChatRequest(request, { model: 'local', local: true, strictTools: false })],
  ['openai-responses', () => toOpenAiResponsesRequest(request, { model: 'gpt-test' })],
  ['gemini', () => toGeminiRequest(request).request],
];

describe("a call card's result as the provider got it", () => {
  it.each(bodies)('%s: is the result of the call at its place in the latest answer, alone', (_name, body) => {
    const sent = body();
    const first = JSON.stringify(resultOfCall(sent, 'call_0', 0));
    const second = JSON.stringify(resultOfCall(sent, 'call_0', 1));
    expect(first).toContain('first result');
    expect(first).not.toContain('second result');
    expect(second).toContain('second result');
    expect(second).not.toContain('first result');
  });
});
