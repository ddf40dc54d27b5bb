import { describe, expect, it } from 'vitest';
import { createGeminiProvider } from '../../../src/providers/gemini/gemini-provider.js';
import { toGeminiRequest } from '../../../src/providers/gemini/to-gemini-request.js';
import {
  type AssistantMessage,
  type Message,
  type ModelRequest,
  ProviderError,
  type ToolDefinition,
  type ToolResult,
} from '../../../src/providers/types.js';
import { createGeminiWire } from '../../../src/testing/mock-llm/wires/gemini.js';
import type { Script } from '../../../src/testing/script-types.js';
import { type MockLlmServerHandle, unreachableBaseUrl, useMockLlmServer } from '../../helpers/mock-llm.js';

const script: Script = {
  scenarios: [
    {
      match: 'weather in (\\w+)',
      turns: [
        {
          expect: { toolsInclude: ['weather__get'] },
          text: 'Let me check.',
          toolCalls: [{ name: 'weather__get', arguments: { city: '{{match.1}}' } }],
        },
        {
          expect: { lastToolResultIncludes: 'sunny', lastToolResultIsError: false },
          text: 'It is {{lastToolResult}}.',
        },
      ],
    },
    {
      match: 'compare',
      turns: [
        {
          toolCalls: [
            { name: 'weather__get', arguments: { city: 'Paris' } },
            { name: 'weather__get', arguments: { city: 'Rome' } },
          ],
        },
        { expect: { lastToolResultIncludes: 'Paris: rain\nRome: sun' }, text: 'Rome is nicer.' },
      ],
    },
    {
      match: 'broken',
      turns: [
        { toolCalls: [{ name: 'weather__get', arguments: { city: 'Nowhere' } }] },
        { expect: { lastToolResultIsError: true, lastToolResultIncludes: 'unknown city' }, text: 'That failed.' },
      ],
    },
    {
      match: 'picture',
      turns: [
        { toolCalls: [{ name: 'camera__snap', arguments: {} }] },
        { expect: { lastToolResultIncludes: '[image: image/png]' }, text: 'Nice picture.' },
      ],
    },
    {
      match: 'shout',
      turns: [{ toolCalls: [{ name: 'echo__say', arguments: { value: 'hello' } }] }],
    },
    {
      match: 'file a ticket',
      turns: [
        {
          expect: { toolsInclude: ['tickets__file', 'tickets__tag'] },
          toolCalls: [
            { name: 'tickets__file', arguments: { title: 'Broken', labels: ['bug'] } },
            { name: 'tickets__tag', arguments: { tags: { team: 'core' } } },
          ],
        },
        { expect: { lastToolResultIncludes: 'tagged' }, text: 'Filed and tagged.' },
      ],
    },
    { match: 'busy', turns: [{ error: { status: 429, message: 'Resource has been exhausted (e.g. check quota).' } }] },
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
  { name: 'echo__say', description: 'Say something', inputSchema: { type: 'string' } },
];

/** One tool inside the subset Gemini's Schema type takes, and some outside it. */
const ticketTools: ToolDefinition[] = [
  {
    name: 'tickets__file',
    description: 'File a ticket',
    inputSchema: {
      type: 'object',
      properties: {
        title: { type: 'string', description: 'One line' },
        labels: { type: 'array', items: { type: 'string', enum: ['bug', 'idea'] } },
        due: { type: 'string', format: 'date-time' },
        estimate: { type: 'integer', minimum: 1, maximum: 40 },
      },
      required: ['title'],
    },
  },
  {
    name: 'tickets__tag',
    description: 'Tag a ticket',
    inputSchema: {
      type: 'object',
      properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } },
      required: ['tags'],
    },
  },
  {
    name: 'tickets__link',
    description: 'Link tickets',
    inputSchema: {
      type: 'object',
      properties: {
        from: { $ref: '#/$defs/ticket' },
        kind: { oneOf: [{ const: 1 }, { type: 'string' }] },
        meta: { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
      },
      $defs: { ticket: { type: 'object', properties: { id: { type: 'string' }, parent: { $ref: '#/$defs/ticket' } } } },
    },
  },
];

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

type Json = Record<string, unknown>;
type Body = { contents: { role: string; parts: Json[] }[]; tools?: Json[]; systemInstruction?: Json };

function ask(text: string): Message {
  return { role: 'user', content: [{ type: 'text', text }] };
}

function results(message: AssistantMessage, make: (call: { id: string; name: string }, index: number) => ToolResult) {
  const calls = message.content.filter((part) => part.type === 'tool-call');
  return { role: 'tool' as const, results: calls.map((call, index) => make(call, index)) };
}

describe.each([false, true])('createGeminiProvider through @google/genai (stream: %s)', (stream) => {
  const server = useMockLlmServer({ script });
  const noIdsServer = useMockLlmServer({ script, wires: [createGeminiWire({ callIds: 'omit' })] });

  const provider = (target = server) =>
    createGeminiProvider({ model: 'gemini-2.5-flash', apiKey: 'test-key', baseUrl: target.url, maxRetries: 0 });

  async function run(request: ModelRequest, target = server) {
    const sent: unknown[] = [];
    const deltas: string[] = [];
    const response = await provider(target).generate(request, {
      stream,
      onProviderRequest: (body) => sent.push(body),
      onTextDelta: (text) => deltas.push(text),
    });
    return { response, sent, deltas };
  }

  const bodyOf = (target: MockLlmServerHandle, index: number) => target.requests[index]?.body as Body;

  it('runs one call: declarations, call, replay with the thought signature, one functionResponse', async () => {
    const first = await run({ system: 'Be brief.', messages: [ask('weather in Paris?')], tools });
    expect(first.response.stopReason).toBe('tool-calls');
    expect(first.response.message.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool-call', id: 'call_0_0', name: 'weather__get', argumentsText: '{"city":"Paris"}' },
    ]);
    if (stream) expect(first.deltas.join('')).toBe('Let me check.');
    expect(first.response.usage?.inputTokens).toBeGreaterThan(0);

    const recorded = server.requests[0];
    expect(recorded?.path).toBe(
      `/v1beta/models/gemini-2.5-flash:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    );
    expect(recorded?.headers['x-goog-api-key']).toBe('<redacted>');
    // What onProviderRequest saw is exactly the body that arrived.
    expect(first.sent).toEqual([recorded?.body]);
    const firstBody = bodyOf(server, 0);
    expect(firstBody.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(firstBody.tools).toEqual([
      {
        functionDeclarations: [
          // No parameters: declared without a schema.
          { name: 'camera__snap', description: 'Take a picture' },
          // Inside the subset Gemini's Schema type takes: `parameters`, in its spelling, as the SDK passes it on.
          {
            name: 'echo__say',
            description: 'Say something',
            parameters: { type: 'OBJECT', properties: { value: { type: 'STRING' } }, required: ['value'] },
          },
          {
            name: 'weather__get',
            description: 'Weather for a city',
            parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } },
          },
        ],
      },
    ]);
    // Host-only switches never reach the wire.
    expect(JSON.stringify(firstBody)).not.toMatch(/automatic|abortSignal|httpOptions/);

    const modelTurn = first.response.message;
    const second = await run({
      messages: [
        ask('weather in Paris?'),
        modelTurn,
        results(modelTurn, (call) => ({
          callId: call.id,
          toolName: call.name,
          content: [{ type: 'text', text: 'sunny' }],
          isError: false,
        })),
      ],
      tools,
    });
    expect(second.response.stopReason).toBe('end');
    expect(second.response.message.content).toEqual([{ type: 'text', text: 'It is sunny.' }]);
    const contents = bodyOf(server, 1).contents;
    expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    // The model's Content goes back exactly as it came: streamed text in its pieces, the call, the signature.
    expect(contents[1]).toEqual(modelTurn.providerReplay?.data);
    expect(contents[1]?.parts.filter((part) => part.text !== undefined)).toHaveLength(stream ? 3 : 1);
    const signature = contents[1]?.parts.find((part) => part.functionCall)?.thoughtSignature;
    expect(typeof signature).toBe('string');
    expect(Buffer.from(signature as string, 'base64').toString('utf8')).toBe(
      'mock-thought-signature/gemini-2.5-flash/0/weather__get/\u0000\u00ff',
    );
    expect(contents[2]?.parts).toEqual([
      { functionResponse: { id: 'call_0_0', name: 'weather__get', response: { output: 'sunny' } } },
    ]);
  });

  it('declares a schema Gemini’s Schema type takes as `parameters`, others as JSON Schema, and calls to both round-trip', async () => {
    const request: ModelRequest = { messages: [ask('file a ticket')], tools: ticketTools };
    const first = await run(request);
    const declarations = (bodyOf(server, 0).tools?.[0]?.functionDeclarations ?? []) as Json[];
    // The SDK passes every declaration on exactly as the adapter built it.
    expect(bodyOf(server, 0).tools).toEqual(toGeminiRequest(request).request.config.tools);
    expect(declarations.map((declaration) => [declaration.name, Object.keys(declaration).at(-1)])).toEqual([
      ['tickets__file', 'parameters'],
      ['tickets__link', 'parametersJsonSchema'],
      ['tickets__tag', 'parametersJsonSchema'],
    ]);
    expect(declarations[0]?.parameters).toEqual({
      type: 'OBJECT',
      properties: {
        title: { type: 'STRING', description: 'One line' },
        labels: { type: 'ARRAY', items: { type: 'STRING', enum: ['bug', 'idea'] } },
        due: { type: 'STRING', format: 'date-time' },
        estimate: { type: 'INTEGER', minimum: 1, maximum: 40 },
      },
      required: ['title'],
    });
    expect(JSON.stringify(declarations[2]?.parametersJsonSchema)).toContain('"additionalProperties":{"type":"string"}');
    expect(JSON.stringify(declarations[1]?.parametersJsonSchema)).toMatch(/"\$ref":"#\/\$defs\/ticket".*"anyOf"/);

    const calls = first.response.message.content.filter((part) => part.type === 'tool-call');
    expect(calls.map((call) => [call.name, JSON.parse(call.argumentsText)])).toEqual([
      ['tickets__file', { title: 'Broken', labels: ['bug'] }],
      ['tickets__tag', { tags: { team: 'core' } }],
    ]);
    const second = await run({
      messages: [
        ask('file a ticket'),
        first.response.message,
        results(first.response.message, (call) => ({
          callId: call.id,
          toolName: call.name,
          content: [{ type: 'text', text: call.name === 'tickets__tag' ? 'tagged' : 'filed' }],
          isError: false,
        })),
      ],
      tools: ticketTools,
    });
    expect(second.response.message.content).toEqual([{ type: 'text', text: 'Filed and tagged.' }]);
  });

  it('answers parallel calls with ONE user Content holding one functionResponse per call', async () => {
    const first = await run({ messages: [ask('compare the weather')], tools });
    expect(first.response.message.content.filter((part) => part.type === 'tool-call')).toHaveLength(2);
    const cities = ['Paris: rain', 'Rome: sun'];
    const second = await run({
      messages: [
        ask('compare the weather'),
        first.response.message,
        results(first.response.message, (call, index) => ({
          callId: call.id,
          toolName: call.name,
          content: [{ type: 'text', text: cities[index] ?? '' }],
          isError: false,
        })),
      ],
      tools,
    });
    expect(second.response.message.content).toEqual([{ type: 'text', text: 'Rome is nicer.' }]);
    const contents = bodyOf(server, 1).contents;
    expect(contents).toHaveLength(3);
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'call_0_0', name: 'weather__get', response: { output: 'Paris: rain' } } },
        { functionResponse: { id: 'call_0_1', name: 'weather__get', response: { output: 'Rome: sun' } } },
      ],
    });
  });

  it('carries a failed call as response.error', async () => {
    const first = await run({ messages: [ask('broken weather')], tools });
    const second = await run({
      messages: [
        ask('broken weather'),
        first.response.message,
        results(first.response.message, (call) => ({
          callId: call.id,
          toolName: call.name,
          content: [{ type: 'text', text: 'unknown city: Nowhere' }],
          isError: true,
        })),
      ],
      tools,
    });
    expect(second.response.message.content).toEqual([{ type: 'text', text: 'That failed.' }]);
    expect(bodyOf(server, 1).contents[2]?.parts).toEqual([
      { functionResponse: { id: 'call_0_0', name: 'weather__get', response: { error: 'unknown city: Nowhere' } } },
    ]);
  });

  it('sends an image result as functionResponse.parts inlineData, not as text', async () => {
    const first = await run({ messages: [ask('take a picture')], tools });
    const second = await run({
      messages: [
        ask('take a picture'),
        first.response.message,
        results(first.response.message, (call) => ({
          callId: call.id,
          toolName: call.name,
          content: [{ type: 'image', data: png, mimeType: 'image/png' }],
          isError: false,
        })),
      ],
      tools,
    });
    expect(second.response.message.content).toEqual([{ type: 'text', text: 'Nice picture.' }]);
    expect(bodyOf(server, 1).contents[2]?.parts).toEqual([
      {
        functionResponse: {
          id: 'call_0_0',
          name: 'camera__snap',
          response: { output: '[1 image(s) attached]' },
          parts: [{ inlineData: { mimeType: 'image/png', data: png } }],
        },
      },
    ]);
  });

  it('makes up stable ids when Gemini sends none, and sends no ids back', async () => {
    const first = await run({ messages: [ask('compare the weather')], tools }, noIdsServer);
    const calls = first.response.message.content.filter((part) => part.type === 'tool-call');
    expect(calls.map((call) => call.id)).toEqual(['gemini_call_0_0', 'gemini_call_0_1']);
    const again = await run({ messages: [ask('compare the weather')], tools }, noIdsServer);
    expect(again.response.message.content).toEqual(first.response.message.content);
    const second = await run(
      {
        messages: [
          ask('compare the weather'),
          first.response.message,
          results(first.response.message, (call, index) => ({
            callId: call.id,
            toolName: call.name,
            content: [{ type: 'text', text: ['Paris: rain', 'Rome: sun'][index] ?? '' }],
            isError: false,
          })),
        ],
        tools,
      },
      noIdsServer,
    );
    expect(second.response.message.content).toEqual([{ type: 'text', text: 'Rome is nicer.' }]);
    const contents = bodyOf(noIdsServer, 2).contents;
    expect(contents[1]?.parts.map((part) => (part.functionCall as Json).id)).toEqual([undefined, undefined]);
    expect(contents[2]?.parts).toEqual([
      { functionResponse: { name: 'weather__get', response: { output: 'Paris: rain' } } },
      { functionResponse: { name: 'weather__get', response: { output: 'Rome: sun' } } },
    ]);
  });

  it('unwraps the arguments of a tool whose schema root had to be wrapped', async () => {
    const { response } = await run({ messages: [ask('shout it')], tools });
    expect(response.message.content).toEqual([
      { type: 'tool-call', id: 'call_0_0', name: 'echo__say', argumentsText: '"hello"' },
    ]);
  });

  it('turns an API error into a ProviderError with the status and what to do', async () => {
    const failure = await run({ messages: [ask('busy now')], tools }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    const error = failure as ProviderError;
    expect(error.details).toMatchObject({ provider: 'gemini', status: 429, retryable: true });
    expect(error.message).toBe(
      'Gemini API error 429 RESOURCE_EXHAUSTED: Resource has been exhausted (e.g. check quota). Rate limited or out of quota: wait and try again, or lower the request rate.',
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe('createGeminiProvider configuration', () => {
  const server = useMockLlmServer(
    { script: { fallbackText: 'hello from the mock', scenarios: [] } },
    { keepRequests: true },
  );

  it('reads GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL from env, tolerating a trailing /v1beta', async () => {
    const provider = createGeminiProvider({
      model: 'gemini-2.5-pro',
      env: { GEMINI_API_KEY: 'from-env', GOOGLE_GEMINI_BASE_URL: `${server.url}/v1beta/` },
    });
    const response = await provider.generate({ messages: [ask('hi')], tools: [] });
    expect(response.message.content).toEqual([{ type: 'text', text: 'hello from the mock' }]);
    expect(server.requests.at(-1)?.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
  });

  it('fails early, saying what to set, when there is no API key', () => {
    expect(() => createGeminiProvider({ model: 'gemini-2.5-flash', env: {} })).toThrow(
      /set the GEMINI_API_KEY \(or GOOGLE_API_KEY\) environment variable/,
    );
  });

  it('rejects an unreachable base URL with a retryable error naming it', async () => {
    const url = await unreachableBaseUrl();
    const provider = createGeminiProvider({ model: 'm', apiKey: 'k', baseUrl: url, maxRetries: 0 });
    const failure = await provider.generate({ messages: [ask('hi')], tools: [] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).message).toMatch(new RegExp(`Cannot reach the Gemini API at ${url}`));
    expect((failure as ProviderError).message).toContain(
      'Check the network and the base URL (--base-url, else GOOGLE_GEMINI_BASE_URL).',
    );
    expect((failure as ProviderError).details.retryable).toBe(true);
  });

  it('rejects with the abort reason when the signal is aborted', async () => {
    const provider = createGeminiProvider({ model: 'm', apiKey: 'k', baseUrl: server.url });
    const controller = new AbortController();
    controller.abort(new Error('user pressed ctrl-c'));
    await expect(
      provider.generate({ messages: [ask('hi')], tools: [] }, { signal: controller.signal }),
    ).rejects.toThrow('user pressed ctrl-c');
  });
});
