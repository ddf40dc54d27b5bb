import { describe, expect, it } from 'vitest';
import { createOpenAiChatProvider } from '../../../src/providers/openai-chat/openai-chat-provider.js';
import { type ModelRequest, ProviderError } from '../../../src/providers/types.js';
import { useMockLlmServer } from '../../helpers/mock-llm.js';
import {
  converse,
  finalText,
  png,
  prompts,
  type Scenario,
  script,
  textFields,
  tools,
} from '../openai-chat/openai-conversation-fixture.js';

type ChatBody = {
  max_tokens?: number;
  tools: { function: Record<string, unknown> }[];
  messages: {
    role: string;
    content: unknown;
    tool_call_id?: string;
    tool_calls?: { id: string; function: { arguments: string } }[];
  }[];
};

const question = (text: string): ModelRequest => ({
  tools,
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
});

describe('ollama and openai-compatible providers through the openai SDK against the mock LLM server', () => {
  const server = useMockLlmServer({ script });

  /** Ollama found through OLLAMA_HOST in `host:port` form; a path selects mock quirks. */
  const ollama = (quirks: string[] = []) =>
    createOpenAiChatProvider({
      model: 'qwen2.5',
      provider: 'ollama',
      maxRetries: 0,
      env: {
        OLLAMA_HOST: `127.0.0.1:${server.port}${quirks.length > 0 ? `/quirks/${quirks.join(',')}` : ''}`,
        OPENAI_API_KEY: 'must-not-be-used',
      },
    });

  for (const stream of [false, true]) {
    for (const scenario of Object.keys(prompts) as Scenario[]) {
      it(`ollama: ${scenario}, ${stream ? 'streamed' : 'plain'}`, async () => {
        const { first, final } = await converse(ollama(), scenario, stream);
        const calls = first.message.content.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
        expect(first.stopReason).toBe('tool-calls');
        expect(final.stopReason).toBe('end');
        expect(finalText(final)).toContain(scenario === 'error result' ? 'Error: no such city' : ':');

        expect(server.requests.map((request) => request.path)).toEqual([
          '/v1/chat/completions',
          '/v1/chat/completions',
        ]);
        const [firstBody, secondBody] = server.requests.map((request) => request.body as ChatBody) as [
          ChatBody,
          ChatBody,
        ];
        // Local servers: no strict flag at all.
        for (const tool of firstBody.tools) expect('strict' in tool.function).toBe(false);
        const toolMessages = secondBody.messages.filter((message) => message.role === 'tool');
        expect(toolMessages.map((message) => message.tool_call_id)).toEqual(calls.map((call) => call.id));
        if (scenario === 'error result') expect(toolMessages[0]?.content).toBe('Error: no such city');
        if (scenario === 'image result') {
          expect(secondBody.messages.at(-1)).toMatchObject({
            role: 'user',
            content: [{ type: 'text' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }],
          });
        }
        for (const text of textFields(server.requests.map((request) => request.body)))
          expect(text).not.toContain(png.slice(0, 24));
      });
    }
  }

  it('openai-compatible: takes the base URL given, and says to pass --base-url without one', async () => {
    const compatible = createOpenAiChatProvider({
      model: 'local-model',
      provider: 'openai-compatible',
      baseUrl: `${server.url}/v1`,
      maxRetries: 0,
      env: {},
    });
    expect(compatible.provider).toBe('openai-compatible');
    const response = await compatible.generate({ ...question('Weather in Oslo'), maxOutputTokens: 64 });
    expect(response.stopReason).toBe('tool-calls');
    expect((server.requests[0]?.body as ChatBody | undefined)?.max_tokens).toBe(64);
    expect(() => createOpenAiChatProvider({ model: 'local-model', provider: 'openai-compatible', env: {} })).toThrow(
      /--base-url/,
    );
  });

  it('notes a tool call printed as text instead of made, and does not pretend it ran', async () => {
    for (const stream of [false, true]) {
      const deltas: string[] = [];
      const response = await ollama().generate(question('print a call please'), {
        stream,
        onTextDelta: (text) => deltas.push(text),
      });
      expect(response.stopReason).toBe('end');
      expect(response.message.content.some((part) => part.type === 'tool-call')).toBe(false);
      expect(finalText(response)).toMatch(
        /^\{"name": "clock__now", "arguments": \{\}\}\n\n\[Note from the host: .*"clock__now".*not run\.\]$/,
      );
      if (stream) expect(deltas.join('')).toBe(finalText(response));
    }
  });

  it('maps a 429 from a local server to a retryable ProviderError naming the provider', async () => {
    const error = await ollama()
      .generate(question('busy'))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).details).toMatchObject({ provider: 'ollama', status: 429, retryable: true });
  });
});

describe('local-server stream quirks, each seen on the wire and survived by the adapter', () => {
  const server = useMockLlmServer({ script });

  const ollama = (quirks: string[]) =>
    createOpenAiChatProvider({
      model: 'qwen2.5',
      provider: 'ollama',
      maxRetries: 0,
      env: { OLLAMA_HOST: `http://127.0.0.1:${server.port}${quirks.length > 0 ? `/quirks/${quirks.join(',')}` : ''}` },
    });

  /** The raw SSE `data:` payloads the mock sends for the parallel-calls prompt with these quirks. */
  async function rawStream(quirks: string[]): Promise<string[]> {
    const prefix = quirks.length > 0 ? `/quirks/${quirks.join(',')}` : '';
    const response = await fetch(`${server.url}${prefix}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'm',
        stream: true,
        messages: [{ role: 'user', content: prompts['parallel calls'] }],
      }),
    });
    const text = await response.text();
    return text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice('data: '.length));
  }

  function toolCallDeltas(payloads: string[]): Record<string, unknown>[] {
    return payloads
      .filter((payload) => payload !== '[DONE]')
      .flatMap(
        (payload) =>
          (JSON.parse(payload) as { choices: { delta: { tool_calls?: Record<string, unknown>[] } }[] }).choices,
      )
      .flatMap((choice) => choice.delta.tool_calls ?? []);
  }

  /** Runs the parallel-calls conversation streamed; checks both calls and that the replay pairs every id. */
  async function survives(quirks: string[]) {
    const { first, final } = await converse(ollama(quirks), 'parallel calls', true);
    const calls = first.message.content.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
    expect(first.stopReason).toBe('tool-calls');
    expect(calls.map((call) => [call.name, JSON.parse(call.argumentsText)])).toEqual([
      ['weather__get', { city: 'Paris' }],
      ['weather__get', { city: 'Rome' }],
    ]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    expect(finalText(final)).toBe('Both: Paris: sunny\nRome: rainy');
    const secondBody = server.requests.at(-1)?.body as ChatBody;
    expect(
      secondBody.messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id),
    ).toEqual(calls.map((call) => call.id));
    return { first, calls };
  }

  it('split calls: an opening chunk per call, then argument fragments keyed by index', async () => {
    const deltas = toolCallDeltas(await rawStream([]));
    expect(deltas.filter((delta) => delta.id !== undefined)).toHaveLength(2);
    expect(deltas.length).toBeGreaterThan(4);
    await survives([]);
  });

  it('whole calls: each call in one chunk', async () => {
    const deltas = toolCallDeltas(await rawStream(['whole-calls']));
    expect(deltas).toHaveLength(2);
    expect(deltas[0]).toMatchObject({
      index: 0,
      id: 'call_0_0',
      function: { name: 'weather__get', arguments: '{"city":"Paris"}' },
    });
    await survives(['whole-calls']);
  });

  it('missing ids: made up, distinct, and used for the tool messages', async () => {
    const deltas = toolCallDeltas(await rawStream(['no-ids']));
    expect(deltas.every((delta) => !('id' in delta))).toBe(true);
    const { calls } = await survives(['no-ids']);
    for (const call of calls) expect(call.id).toMatch(/^call_[0-9a-f]{12}_\d$/);
  });

  it('missing type', async () => {
    const deltas = toolCallDeltas(await rawStream(['no-type']));
    expect(deltas.every((delta) => !('type' in delta))).toBe(true);
    await survives(['no-type']);
  });

  it('missing [DONE]', async () => {
    const payloads = await rawStream(['no-done']);
    expect(payloads).not.toContain('[DONE]');
    expect(await rawStream([])).toContain('[DONE]');
    await survives(['no-done']);
  });

  it('text before calls: the text part comes first and is streamed', async () => {
    const payloads = await rawStream([]);
    const firstCall = payloads.findIndex((payload) => payload.includes('tool_calls'));
    const firstText = payloads.findIndex((payload) => payload.includes('"content":"Che'));
    expect(firstText).toBeGreaterThan(-1);
    expect(firstText).toBeLessThan(firstCall);
    const { first } = await survives([]);
    expect(first.message.content[0]).toEqual({ type: 'text', text: 'Checking both.' });
  });

  it('no index on deltas', async () => {
    const deltas = toolCallDeltas(await rawStream(['no-index']));
    expect(deltas.every((delta) => !('index' in delta))).toBe(true);
    await survives(['no-index']);
  });

  it('every call numbered 0', async () => {
    const deltas = toolCallDeltas(await rawStream(['index-zero']));
    expect(deltas.every((delta) => delta.index === 0)).toBe(true);
    await survives(['index-zero']);
  });

  it('arguments as an object', async () => {
    const deltas = toolCallDeltas(await rawStream(['arguments-object']));
    expect(deltas[0]).toMatchObject({ function: { arguments: { city: 'Paris' } } });
    await survives(['arguments-object']);
    // Replayed as JSON text, which OpenAI-protocol servers expect.
    const secondBody = server.requests.at(-1)?.body as ChatBody;
    expect(secondBody.messages[2]?.tool_calls?.[0]?.function.arguments).toBe('{"city":"Paris"}');
  });

  it('finish_reason stop although calls were made', async () => {
    const payloads = await rawStream(['stop-finish']);
    expect(payloads.some((payload) => payload.includes('"finish_reason":"stop"'))).toBe(true);
    expect(payloads.some((payload) => payload.includes('"finish_reason":"tool_calls"'))).toBe(false);
    await survives(['stop-finish']);
  });

  /**
   * The calls as their streamed pieces place them (each piece at the index its delta names) beside the calls of the
   * answer, for the parallel-calls prompt with these quirks.
   */
  async function streamedBesideAnswer(quirks: string[]) {
    const streamed: { name: string; argumentsText: string }[] = [];
    const response = await ollama(quirks).generate(question(prompts['parallel calls']), {
      stream: true,
      onToolCallDelta: ({ index, name, argumentsDelta }) => {
        streamed[index] ??= { name, argumentsText: '' };
        streamed[index].argumentsText += argumentsDelta;
      },
    });
    const calls = response.message.content.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
    return { streamed, answered: calls.map(({ name, argumentsText }) => ({ name, argumentsText })) };
  }

  it('an empty call slot before the calls: left out, and each call streamed at its place in the answer', async () => {
    const deltas = toolCallDeltas(await rawStream(['empty-slot']));
    expect(deltas[0]).toEqual({ index: 0, function: { arguments: '' } });
    expect(deltas.filter((delta) => delta.id !== undefined).map((delta) => delta.index)).toEqual([1, 2]);
    await survives(['empty-slot']);
    const { streamed, answered } = await streamedBesideAnswer(['empty-slot']);
    expect(streamed).toEqual(answered);
  });

  it('a first call that fills its empty slot after the other calls streamed: each call streamed at its place in the answer', async () => {
    const deltas = toolCallDeltas(await rawStream(['late-first-call']));
    expect(deltas[0]).toEqual({ index: 0, function: { arguments: '' } });
    expect(deltas.filter((delta) => delta.id !== undefined).map((delta) => delta.index)).toEqual([1, 0]);
    const { streamed, answered } = await streamedBesideAnswer(['late-first-call']);
    // The answer lists its calls in the order they started, as their pieces were streamed.
    expect(answered.map((call) => JSON.parse(call.argumentsText))).toEqual([{ city: 'Rome' }, { city: 'Paris' }]);
    expect(streamed).toEqual(answered);
    const { first, final } = await converse(ollama(['late-first-call']), 'parallel calls', true);
    const calls = first.message.content.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
    const secondBody = server.requests.at(-1)?.body as ChatBody;
    expect(
      secondBody.messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id),
    ).toEqual(calls.map((call) => call.id));
    expect(finalText(final)).toBe('Both: Rome: rainy\nParis: sunny');
  });

  it('a call whose first piece of arguments comes before its name: that piece is streamed with the name', async () => {
    const deltas = toolCallDeltas(await rawStream(['name-after-arguments']));
    const opening = deltas.find((delta) => delta.id !== undefined)?.function as Record<string, unknown> | undefined;
    expect(opening?.name).toBeUndefined();
    expect(opening?.arguments).not.toBe('');
    const { streamed, answered } = await streamedBesideAnswer(['name-after-arguments']);
    expect(answered.map((call) => JSON.parse(call.argumentsText))).toEqual([{ city: 'Paris' }, { city: 'Rome' }]);
    expect(streamed).toEqual(answered);
  });

  it('all of them at once, also without streaming', async () => {
    const all = ['no-ids', 'no-type', 'no-done', 'whole-calls', 'stop-finish'];
    await survives(all);
    const { first } = await converse(
      ollama(['no-ids', 'no-type', 'arguments-object', 'stop-finish']),
      'parallel calls',
      false,
    );
    expect(first.stopReason).toBe('tool-calls');
    expect(first.message.content.filter((part) => part.type === 'tool-call')).toHaveLength(2);
  });
});
