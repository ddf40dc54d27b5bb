/**
 * The public test stand-ins export every provider wire of the mock LLM server, so users can serve
 * just the wires they test (and Gemini's id-less variant, and the OpenAI Chat quirks); the
 * `mock-llm` command's help says where each provider's SDK must be pointed.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anthropicWire,
  createGeminiWire,
  defaultWires,
  geminiWire,
  type MockLlmServer,
  openAiChatQuirks,
  openAiChatWire,
  openAiResponsesWire,
  parseScript,
  startMockLlmServer,
} from '../../../src/testing/index.js';
import { runCli } from '../../helpers/project.js';

const script = parseScript({
  scenarios: [{ turns: [{ toolCalls: [{ id: 'call_1', name: 'shop__ping', arguments: {} }] }] }],
});

describe('src/testing exports every wire', () => {
  let server: MockLlmServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('the exported wires are the ones the server speaks by default', () => {
    expect(defaultWires()).toEqual([anthropicWire, openAiChatWire, openAiResponsesWire, geminiWire]);
    expect(openAiChatQuirks).toContain('no-ids');
    expect(createGeminiWire({ callIds: 'omit' }).name).toBe('gemini');
  });

  it('a server given only the OpenAI Chat wire answers Chat, with quirks, and nothing else', async () => {
    server = await startMockLlmServer({ script, wires: [openAiChatWire] });
    const tools = [
      { type: 'function' as const, function: { name: 'shop__ping', parameters: { type: 'object', properties: {} } } },
    ];
    const messages = [{ role: 'user' as const, content: 'ping' }];
    const quirky = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/quirks/no-ids/v1`, maxRetries: 0 });
    const completion = await quirky.chat.completions.create({ model: 'm', messages, tools });
    const [call] = completion.choices[0]?.message.tool_calls ?? [];
    expect(call && 'function' in call ? call.function.name : undefined).toBe('shop__ping');
    expect(call?.id).toBeUndefined();

    const anthropic = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    await expect(
      anthropic.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'ping' }] }),
    ).rejects.toThrow(/no route for POST \/v1\/messages.*chat\/completions/);
  });

  it('mock-llm --help names each provider’s route and base URL, and the quirks prefix', async () => {
    const result = await runCli(['mock-llm', '--help']);
    expect(result.code).toBe(0);
    for (const text of [
      'POST /v1/messages',
      'POST /v1/chat/completions',
      'POST /v1/responses',
      'POST /v1beta/models/MODEL:generateContent',
      ':streamGenerateContent?alt=sse',
      'URL/quirks/',
      '--base-url URL/v1',
      '/_mock/requests',
      ...openAiChatQuirks,
    ]) {
      expect(result.stdout).toContain(text);
    }
    for (const provider of ['anthropic', 'openai', 'openai-responses', 'gemini', 'ollama', 'openai-compatible']) {
      expect(result.stdout).toMatch(new RegExp(`^  ${provider} +POST `, 'm'));
    }
  });
});
