import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/providers/anthropic/anthropic-provider.js';
import {
  type Message,
  type ModelRequest,
  ProviderError,
  type ToolCallDelta,
  type ToolDefinition,
} from '../../../src/providers/types.js';
import type { Script } from '../../../src/testing/script-types.js';
import { unreachableBaseUrl, useMockLlmServer } from '../../helpers/mock-llm.js';

const script: Script = {
  scenarios: [
    {
      match: 'weather in (\\w+)',
      turns: [
        {
          expect: { toolsInclude: ['weather__get', 'camera__snap'] },
          text: 'Checking {{match.1}}.',
          toolCalls: [
            { name: 'weather__get', arguments: { city: '{{match.1}}', days: 2 } },
            { name: 'camera__snap', arguments: {} },
          ],
        },
        {
          expect: { lastToolResultIncludes: 'sunny', lastToolResultIsError: true },
          text: 'It is {{lastToolResult}}.',
        },
      ],
    },
    { match: 'busy', turns: [{ error: { status: 429, message: 'Rate limit reached for requests' } }] },
  ],
};

const tools: ToolDefinition[] = [
  {
    name: 'weather__get',
    description: 'Weather for a city',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { city: { type: 'string' } },
    },
  },
  { name: 'camera__snap', description: 'Take a picture', inputSchema: { type: 'object' } },
];

const question: Message = { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] };
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

type Body = { tools: Record<string, unknown>[]; messages: { role: string; content: Record<string, unknown>[] }[] };

describe('createAnthropicProvider against the mock LLM server', () => {
  const server = useMockLlmServer({ script });

  function provider(overrides: { maxRetries?: number } = {}) {
    return createAnthropicProvider({
      model: 'claude-test',
      apiKey: 'test-key',
      baseUrl: server.url,
      maxRetries: 0,
      ...overrides,
    });
  }

  for (const stream of [false, true]) {
    it(`runs a tool turn and a final turn (${stream ? 'streaming' : 'non-streaming'})`, async () => {
      const anthropic = provider();
      const sentBodies: unknown[] = [];
      const deltas: string[] = [];
      const argumentPieces: ToolCallDelta[] = [];
      const options = {
        stream,
        onTextDelta: (text: string) => deltas.push(text),
        onToolCallDelta: (delta: ToolCallDelta) => argumentPieces.push(delta),
        onProviderRequest: (body: unknown) => sentBodies.push(body),
      };
      const first = await anthropic.generate({ system: 'Be brief.', tools, messages: [question] }, options);

      expect(first.stopReason).toBe('tool-calls');
      const [text, weatherCall, cameraCall] = first.message.content;
      expect(text).toEqual({ type: 'text', text: 'Checking Paris.' });
      expect(weatherCall).toMatchObject({ type: 'tool-call', id: 'call_0_0', name: 'weather__get' });
      expect(weatherCall?.type === 'tool-call' && JSON.parse(weatherCall.argumentsText)).toEqual({
        city: 'Paris',
        days: 2,
      });
      expect(cameraCall).toEqual({ type: 'tool-call', id: 'call_0_1', name: 'camera__snap', argumentsText: '{}' });
      expect(first.usage?.inputTokens).toBeGreaterThan(0);
      if (stream) expect(deltas.join('')).toBe('Checking Paris.');
      else expect(deltas).toEqual([]);
      // The arguments as they streamed, in more than one piece, joining up to the call's (the empty one sends none).
      if (stream) {
        expect(argumentPieces.length).toBeGreaterThan(1);
        expect(new Set(argumentPieces.map((piece) => `${piece.index}:${piece.name}`))).toEqual(
          new Set(['0:weather__get']),
        );
        expect(JSON.parse(argumentPieces.map((piece) => piece.argumentsDelta).join(''))).toEqual({
          city: 'Paris',
          days: 2,
        });
      } else expect(argumentPieces).toEqual([]);

      const second: ModelRequest = {
        system: 'Be brief.',
        tools,
        messages: [
          question,
          first.message,
          {
            role: 'tool',
            results: [
              {
                callId: 'call_0_0',
                toolName: 'weather__get',
                content: [{ type: 'text', text: 'sunny' }],
                isError: false,
              },
              {
                callId: 'call_0_1',
                toolName: 'camera__snap',
                content: [
                  { type: 'image', data: png, mimeType: 'image/png' },
                  { type: 'text', text: 'lens dirty' },
                ],
                isError: true,
              },
            ],
          },
        ],
      };
      const final = await anthropic.generate(second, options);
      expect(final.stopReason).toBe('end');
      expect(final.message.content).toEqual([{ type: 'text', text: 'It is sunny\n[image: image/png]\nlens dirty.' }]);

      // What went over the wire, as the mock recorded it.
      expect(server.requests).toHaveLength(2);
      const [firstBody, secondBody] = server.requests.map((request) => request.body as Body);
      expect(sentBodies).toEqual([firstBody, secondBody]);
      expect((firstBody as unknown as { stream?: boolean }).stream).toBe(stream ? true : undefined);
      const resultsMessage = secondBody?.messages.at(-1);
      expect(secondBody?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
      expect(resultsMessage?.content.map((block) => [block.type, block.tool_use_id, block.is_error])).toEqual([
        ['tool_result', 'call_0_0', false],
        ['tool_result', 'call_0_1', true],
      ]);
      expect(resultsMessage?.content[1]?.content).toEqual([
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
        { type: 'text', text: 'lens dirty' },
      ]);
      expect(secondBody?.messages[1]?.content.filter((block) => block.type === 'tool_use')).toEqual([
        { type: 'tool_use', id: 'call_0_0', name: 'weather__get', input: { city: 'Paris', days: 2 } },
        { type: 'tool_use', id: 'call_0_1', name: 'camera__snap', input: {} },
      ]);

      // Prompt caching: at most 4 breakpoints, one on the last tool, and a byte-identical tools prefix.
      for (const body of [firstBody, secondBody]) {
        expect(JSON.stringify(body).match(/"cache_control"/g)?.length).toBeLessThanOrEqual(4);
        expect(body?.tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
        expect(body?.tools[0]).not.toHaveProperty('cache_control');
        expect(body?.tools[0]?.input_schema).toEqual({ type: 'object', properties: { city: { type: 'string' } } });
      }
      expect(JSON.stringify(secondBody?.tools)).toBe(JSON.stringify(firstBody?.tools));
    });
  }

  it('maps a scripted 429 to a retryable ProviderError, without retrying when maxRetries is 0', async () => {
    const busy: ModelRequest = { tools, messages: [{ role: 'user', content: [{ type: 'text', text: 'busy?' }] }] };
    const error = await provider()
      .generate(busy)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).details).toMatchObject({ provider: 'anthropic', status: 429, retryable: true });
    expect((error as ProviderError).message).toContain('Rate limit reached for requests');
    expect(server.requests).toHaveLength(1);

    const streamed = await provider()
      .generate(busy, { stream: true })
      .catch((caught: unknown) => caught);
    expect((streamed as ProviderError).details).toMatchObject({ status: 429, retryable: true });
  });

  it('maps a failed script expectation (400) to a ProviderError that is not retryable', async () => {
    const error = await provider()
      .generate({ tools: tools.slice(0, 1), messages: [question] })
      .catch((caught: unknown) => caught);
    expect((error as ProviderError).details).toMatchObject({ status: 400, retryable: false });
    expect((error as ProviderError).message).toContain('camera__snap');
  });

  it('reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from env (a trailing /v1 tolerated); options win', async () => {
    const fromEnv = createAnthropicProvider({
      model: 'claude-test',
      maxRetries: 0,
      env: { ANTHROPIC_API_KEY: 'env-key', ANTHROPIC_BASE_URL: `${server.url}/v1/` },
    });
    expect(fromEnv.provider).toBe('anthropic');
    expect(fromEnv.model).toBe('claude-test');
    const response = await fromEnv.generate({ tools, messages: [question] });
    expect(response.stopReason).toBe('tool-calls');
    expect(server.requests[0]?.path).toBe('/v1/messages');

    const optionWins = createAnthropicProvider({
      model: 'claude-test',
      maxRetries: 0,
      baseUrl: server.url,
      env: { ANTHROPIC_API_KEY: 'env-key', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect((await optionWins.generate({ tools, messages: [question] })).stopReason).toBe('tool-calls');
  });

  it('refuses to start without a key, naming ANTHROPIC_API_KEY', () => {
    expect(() => createAnthropicProvider({ model: 'claude-test', env: {} })).toThrow(ProviderError);
    expect(() => createAnthropicProvider({ model: 'claude-test', env: {} })).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => createAnthropicProvider({ model: 'm', apiKey: 'k', baseUrl: 'not a url' })).toThrow(/not a valid URL/);
  });

  it('sends max_tokens 4096 by default, or the configured or requested value', async () => {
    const bodies: { max_tokens: number }[] = [];
    const collect = { onProviderRequest: (body: unknown) => bodies.push(body as { max_tokens: number }) };
    await provider().generate({ tools, messages: [question] }, collect);
    await createAnthropicProvider({
      model: 'claude-test',
      apiKey: 'k',
      baseUrl: server.url,
      maxOutputTokens: 1000,
    }).generate({ tools, messages: [question] }, collect);
    await provider().generate({ tools, messages: [question], maxOutputTokens: 55 }, collect);
    expect(bodies.map((body) => body.max_tokens)).toEqual([4096, 1000, 55]);
  });

  it('rejects with the abort reason and sends nothing when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped by the user'));
    await expect(provider().generate({ tools, messages: [question] }, { signal: controller.signal })).rejects.toThrow(
      'stopped by the user',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('reports an unreachable server as a retryable ProviderError naming the URL', async () => {
    const url = await unreachableBaseUrl();
    const unreachable = createAnthropicProvider({ model: 'm', apiKey: 'k', baseUrl: url, maxRetries: 0 });
    const error = await unreachable.generate({ tools, messages: [question] }).catch((caught: unknown) => caught);
    expect((error as ProviderError).details).toMatchObject({ provider: 'anthropic', retryable: true });
    expect((error as ProviderError).message).toContain(url);
    // Where the address came from is either place: the flag as well as the variable.
    expect((error as ProviderError).message).toContain(
      'Check the network and the base URL (--base-url, else ANTHROPIC_BASE_URL).',
    );
  });
});
