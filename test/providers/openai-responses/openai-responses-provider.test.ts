import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createOpenAiResponsesProvider } from '../../../src/providers/openai-responses/openai-responses-provider.js';
import { ProviderError } from '../../../src/providers/types.js';
import { useMockLlmServer } from '../../helpers/mock-llm.js';
import {
  converse,
  expectedFinalText,
  finalText,
  png,
  prompts,
  type Scenario,
  script,
  textFields,
} from '../openai-chat/openai-conversation-fixture.js';

type Item = { type?: string; role?: string; id?: string; call_id?: string; output?: unknown };
type ResponsesBody = {
  store?: boolean;
  stream?: boolean;
  instructions?: string;
  tools: { name: string; strict?: boolean }[];
  input: Item[];
};

const finalTexts = expectedFinalText('[image: image/png]');

describe('createOpenAiResponsesProvider through the openai SDK against the mock LLM server', () => {
  const server = useMockLlmServer({ script });

  const provider = (strictTools = false) =>
    createOpenAiResponsesProvider({
      model: 'gpt-4.1',
      apiKey: 'test-key',
      baseUrl: `${server.url}/v1`,
      maxRetries: 0,
      env: {},
      strictTools,
    });

  for (const stream of [false, true]) {
    for (const scenario of Object.keys(prompts) as Scenario[]) {
      it(`${scenario}, ${stream ? 'streamed' : 'plain'}`, async () => {
        // Strict mode is opt-in: the streamed runs ask for it, so both kinds of tools go through the SDK.
        const strictTools = stream;
        const { first, final, deltas, sentBodies } = await converse(provider(strictTools), scenario, stream);
        const calls = first.message.content.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
        expect(first.stopReason).toBe('tool-calls');
        expect(calls).toHaveLength(scenario === 'parallel calls' ? 2 : 1);
        expect(first.message.providerReplay?.provider).toBe('openai-responses');
        expect(final.stopReason).toBe('end');
        expect(finalText(final)).toBe(finalTexts[scenario]);
        expect(final.usage?.inputTokens).toBeGreaterThan(0);
        if (stream) expect(deltas.join('')).toBe(finalText(first) + finalText(final));

        expect(server.requests.map((request) => request.path)).toEqual(['/v1/responses', '/v1/responses']);
        const bodies = server.requests.map((request) => request.body as ResponsesBody);
        expect(bodies).toEqual(sentBodies);
        const [firstBody, secondBody] = bodies as [ResponsesBody, ResponsesBody];
        expect(firstBody.store).toBe(false);
        expect(firstBody.stream).toBe(stream ? true : undefined);
        expect(firstBody.instructions).toBe('Be brief.');
        expect(firstBody.tools.map((tool) => [tool.name, tool.strict])).toEqual([
          ['camera__snap', false],
          ['clock__now', strictTools],
          ['weather__get', strictTools],
        ]);

        // The model's function_call items replayed by call_id (no item ids without reasoning), one output per call.
        const replayedCalls = secondBody.input.filter((item) => item.type === 'function_call');
        expect(replayedCalls.map((item) => [item.call_id, item.id])).toEqual(calls.map((call) => [call.id, undefined]));
        const outputs = secondBody.input.filter((item) => item.type === 'function_call_output');
        expect(outputs.map((item) => item.call_id)).toEqual(calls.map((call) => call.id));
        if (scenario === 'error result') expect(outputs[0]?.output).toBe('Error: no such city');
        if (scenario === 'image result') {
          expect(outputs[0]?.output).toEqual([
            { type: 'input_text', text: 'photo taken' },
            { type: 'input_image', image_url: `data:image/png;base64,${png}`, detail: 'auto' },
          ]);
        }
        expect(secondBody.input.at(-1)?.type).toBe('function_call_output');
        for (const text of textFields(bodies)) expect(text).not.toContain(png.slice(0, 24));
      });
    }
  }

  it('streams events with an event: line and a sequence_number each, response.created first', async () => {
    const response = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1', stream: true, store: false, input: prompts['parallel calls'] }),
    });
    const frames = (await response.text()).split('\n\n').filter((frame) => frame.trim() !== '');
    const events = frames.map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      const data = JSON.parse(dataLine?.slice('data: '.length) ?? '') as { type: string; sequence_number: number };
      expect(eventLine).toBe(`event: ${data.type}`);
      return data;
    });
    expect(events[0]?.type).toBe('response.created');
    expect(events.at(-1)?.type).toBe('response.completed');
    expect(events.map((item) => item.sequence_number)).toEqual(events.map((_item, index) => index));
    expect(events.filter((item) => item.type === 'response.function_call_arguments.delta').length).toBeGreaterThan(2);
  });

  it('the mock rejects what the real API rejects: an output without its call, a call without its output', async () => {
    const client = new OpenAI({ apiKey: 'x', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const orphan = client.responses.create({
      model: 'gpt-4.1',
      store: false,
      input: [
        { role: 'user', content: 'Weather in Oslo' },
        { type: 'function_call_output', call_id: 'call_nowhere', output: 'sunny' },
      ],
    });
    await expect(orphan).rejects.toThrow(/No tool call found for function call output with call_id call_nowhere/);
    const unanswered = client.responses.create({
      model: 'gpt-4.1',
      store: false,
      input: [
        { role: 'user', content: 'Weather in Oslo' },
        { type: 'function_call', call_id: 'call_x', name: 'weather__get', arguments: '{}' },
        { role: 'user', content: 'and?' },
      ],
    });
    await expect(unanswered).rejects.toThrow(/No tool output found for function call call_x/);
  });

  for (const stream of [false, true]) {
    it(`maps 429 and 401 to ProviderError (${stream ? 'streamed' : 'plain'})`, async () => {
      const ask = (text: string) =>
        provider().generate({ tools: [], messages: [{ role: 'user', content: [{ type: 'text', text }] }] }, { stream });
      const busy = await ask('busy').catch((error: unknown) => error);
      expect(busy).toBeInstanceOf(ProviderError);
      expect((busy as ProviderError).details).toMatchObject({
        provider: 'openai-responses',
        status: 429,
        retryable: true,
      });
      const denied = await ask('bad key').catch((error: unknown) => error);
      expect((denied as ProviderError).details).toMatchObject({
        provider: 'openai-responses',
        status: 401,
        retryable: false,
      });
      expect((denied as Error).message).toMatch(/OPENAI_API_KEY/);
      expect(server.requests).toHaveLength(2);
    });
  }

  it('needs an API key', () => {
    expect(() => createOpenAiResponsesProvider({ model: 'gpt-4.1', env: {} })).toThrow(/OPENAI_API_KEY/);
  });
});
