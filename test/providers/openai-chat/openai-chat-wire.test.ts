import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { toChatTools } from '../../../src/providers/openai-chat/to-openai-chat-request.js';
import { useMockLlmServer } from '../../helpers/mock-llm.js';
import { script } from './openai-conversation-fixture.js';

describe('the openai-chat wire of the mock LLM server', () => {
  const server = useMockLlmServer({ script }, { keepRequests: true });
  let client: OpenAI;
  beforeAll(() => {
    client = new OpenAI({ apiKey: 'x', baseURL: `${server.url}/v1`, maxRetries: 0 });
  });

  it('answers a request without Bearer auth with 401 in OpenAI’s error shape', async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: { message: string; type: string; code: string; param: null } };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key', param: null });
    expect(body.error.message).toMatch(/Authorization header using Bearer/);
  });

  it('rejects what OpenAI rejects: a call id without its tool message, an image in a tool message', async () => {
    const unanswered = client.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'user', content: 'Weather in Oslo' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather__get', arguments: '{}' } },
            { id: 'call_2', type: 'function', function: { name: 'weather__get', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
    });
    await expect(unanswered).rejects.toThrow(/did not have response messages: call_2/);
    const imageInTool = client.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'user', content: 'Weather in Oslo' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'x', arguments: '{}' } }],
        },
        {
          role: 'tool',
          tool_call_id: 'call_1',
          content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] as never,
        },
      ],
    });
    await expect(imageInTool).rejects.toThrow(/Image URLs are only allowed for messages with role 'user'/);
  });

  it('strict fallback: a schema that cannot be strict goes without strict mode, which the API accepts as it is', async () => {
    const open = {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: true,
    };
    const [tool] = toChatTools([{ name: 'files__read', description: 'Read a file', inputSchema: open }], {
      local: false,
      strictTools: true,
    });
    expect(tool).toEqual({
      type: 'function',
      function: { name: 'files__read', description: 'Read a file', parameters: open },
    });
    const messages = [{ role: 'user' as const, content: 'Read a file' }];
    await expect(
      client.chat.completions.create({ model: 'm', messages, tools: tool ? [tool] : [] }),
    ).resolves.toBeDefined();
    // The same schema sent as strict is what OpenAI answers with 400.
    const forcedStrict = {
      type: 'function' as const,
      function: { name: 'files__read', parameters: open, strict: true },
    };
    await expect(client.chat.completions.create({ model: 'm', messages, tools: [forcedStrict] })).rejects.toThrow(
      /'additionalProperties' is required to be supplied and to be false/,
    );
    const noProperties = {
      type: 'function' as const,
      function: { name: 'clock__now', parameters: { type: 'object' } },
    };
    await expect(client.chat.completions.create({ model: 'm', messages, tools: [noProperties] })).rejects.toThrow(
      /object schema missing properties/,
    );
  });

  it('names the quirks it knows when given one it does not', async () => {
    const quirky = new OpenAI({ apiKey: 'x', baseURL: `${server.url}/quirks/no-such-thing/v1`, maxRetries: 0 });
    await expect(
      quirky.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toThrow(/Unknown mock quirk "no-such-thing".*no-ids/);
  });
});
