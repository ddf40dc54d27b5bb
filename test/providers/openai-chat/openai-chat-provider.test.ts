import { describe, expect, it } from 'vitest';
import { createOpenAiChatProvider } from '../../../src/providers/openai-chat/openai-chat-provider.js';
import { ProviderError } from '../../../src/providers/types.js';
import { unreachableBaseUrl, useMockLlmServer } from '../../helpers/mock-llm.js';
import {
  converse,
  expectedFinalText,
  finalText,
  png,
  prompts,
  type Scenario,
  script,
  textFields,
  tools,
} from './openai-conversation-fixture.js';

type ChatBody = {
  stream?: boolean;
  stream_options?: unknown;
  tools: { type: string; function: { name: string; strict?: boolean; parameters: Record<string, unknown> } }[];
  messages: { role: string; content: unknown; tool_call_id?: string; tool_calls?: { id: string }[] }[];
};

const finalTexts = expectedFinalText('[image returned; see the next message]');

describe('createOpenAiChatProvider through the openai SDK against the mock LLM server', () => {
  const server = useMockLlmServer({ script });

  const provider = (overrides: { baseUrl?: string; strictTools?: boolean } = {}) =>
    createOpenAiChatProvider({
      model: 'gpt-test',
      apiKey: 'test-key',
      baseUrl: `${server.url}/v1`,
      maxRetries: 0,
      env: {},
      ...overrides,
    });

  for (const stream of [false, true]) {
    for (const scenario of Object.keys(prompts) as Scenario[]) {
      it(`${scenario}, ${stream ? 'streamed' : 'plain'}`, async () => {
        // Strict mode is opt-in: the streamed runs ask for it, so both kinds of tools go through the SDK.
        const strictTools = stream;
        const { first, final, deltas, sentBodies } = await converse(provider({ strictTools }), scenario, stream);
        const calls = first.message.content.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
        expect(first.stopReason).toBe('tool-calls');
        expect(calls).toHaveLength(scenario === 'parallel calls' ? 2 : 1);
        expect(final.stopReason).toBe('end');
        expect(finalText(final)).toBe(finalTexts[scenario]);
        expect(final.usage?.inputTokens).toBeGreaterThan(0);
        if (stream) expect(deltas.join('')).toBe(finalText(first) + finalText(final));
        else expect(deltas).toEqual([]);

        // What the mock received is exactly what the adapter reported sending.
        expect(server.requests.map((request) => request.path)).toEqual([
          '/v1/chat/completions',
          '/v1/chat/completions',
        ]);
        const bodies = server.requests.map((request) => request.body as ChatBody);
        expect(bodies).toEqual(sentBodies);
        const [firstBody, secondBody] = bodies as [ChatBody, ChatBody];
        expect(firstBody.stream).toBe(stream ? true : undefined);
        expect(firstBody.stream_options).toEqual(stream ? { include_usage: true } : undefined);
        expect(firstBody.tools.map((tool) => [tool.function.name, tool.function.strict])).toEqual([
          ['camera__snap', undefined],
          ['clock__now', strictTools ? true : undefined],
          ['weather__get', strictTools ? true : undefined],
        ]);

        // The assistant turn replayed with its calls, then one tool message per call id.
        const assistant = secondBody.messages[2];
        expect(assistant?.role).toBe('assistant');
        expect(assistant?.tool_calls?.map((call) => call.id)).toEqual(calls.map((call) => call.id));
        const toolMessages = secondBody.messages.filter((message) => message.role === 'tool');
        expect(toolMessages.map((message) => message.tool_call_id)).toEqual(calls.map((call) => call.id));
        expect(secondBody.messages.slice(3, 3 + calls.length).every((message) => message.role === 'tool')).toBe(true);

        if (scenario === 'error result') expect(toolMessages[0]?.content).toBe('Error: no such city');
        if (scenario === 'image result') {
          expect(toolMessages[0]?.content).toBe('photo taken\n[image returned; see the next message]');
          const imageMessage = secondBody.messages.at(-1);
          expect(imageMessage?.role).toBe('user');
          expect(imageMessage?.content).toEqual([
            { type: 'text', text: `The tool call ${calls[0]?.id} (camera__snap) returned an image:` },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
          ]);
        } else {
          expect(secondBody.messages.at(-1)?.role).toBe('tool');
        }
        for (const text of textFields(bodies)) expect(text).not.toContain(png.slice(0, 24));
      });
    }
  }

  it('reads the key and the base URL from OPENAI_API_KEY and OPENAI_BASE_URL (a base URL without /v1 works too)', async () => {
    const openai = createOpenAiChatProvider({
      model: 'gpt-test',
      maxRetries: 0,
      env: { OPENAI_API_KEY: 'env-key', OPENAI_BASE_URL: server.url },
    });
    const response = await openai.generate({
      tools,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Oslo' }] }],
    });
    expect(response.stopReason).toBe('tool-calls');
    expect(server.requests[0]?.path).toBe('/chat/completions');
    expect(server.requests[0]?.headers.authorization).toBe('<redacted>');
    expect(openai.provider).toBe('openai');
    expect(() => createOpenAiChatProvider({ model: 'gpt-test', env: {} })).toThrow(/OPENAI_API_KEY/);
  });

  for (const stream of [false, true]) {
    it(`maps 429 and 401 to ProviderError with status and retryability (${stream ? 'streamed' : 'plain'})`, async () => {
      const ask = (text: string) =>
        provider().generate({ tools: [], messages: [{ role: 'user', content: [{ type: 'text', text }] }] }, { stream });
      const busy = await ask('busy now').catch((error: unknown) => error);
      expect(busy).toBeInstanceOf(ProviderError);
      expect((busy as ProviderError).details).toMatchObject({ provider: 'openai', status: 429, retryable: true });
      expect((busy as Error).message).toMatch(/HTTP 429: Rate limit reached for requests/);
      const denied = await ask('bad key').catch((error: unknown) => error);
      expect(denied).toBeInstanceOf(ProviderError);
      expect((denied as ProviderError).details).toMatchObject({ provider: 'openai', status: 401, retryable: false });
      expect((denied as Error).message).toMatch(/Incorrect API key provided.*OPENAI_API_KEY/);
      expect(server.requests).toHaveLength(2); // maxRetries 0: no second attempt
    });
  }

  it('names the base URL when nothing listens there', async () => {
    const url = `${await unreachableBaseUrl()}/v1`;
    const error = await provider({ baseUrl: url })
      .generate({ tools: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).details.retryable).toBe(true);
    expect((error as Error).message).toContain(`could not connect to ${url}`);
  });

  it('rejects with the signal reason when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user pressed Ctrl-C'));
    await expect(
      provider().generate(
        { tools: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
        { signal: controller.signal },
      ),
    ).rejects.toThrow('user pressed Ctrl-C');
  });
});
