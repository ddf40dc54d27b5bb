import { describe, expect, it } from 'vitest';
import { useMockLlmServer } from '../../helpers/mock-llm.js';

/** The wire as any HTTP client sees it (the SDK tests cover the happy paths). */
describe('the Gemini mock wire', () => {
  const server = useMockLlmServer(
    {
      script: { scenarios: [{ turns: [{ toolCalls: [{ name: 'f', arguments: { a: 1 } }] }, { text: 'done' }] }] },
    },
    { keepRequests: true },
  );

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const hello = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

  it('answers 401 in Google error shape without a key, and accepts the key as a query parameter', async () => {
    const denied = await post('/v1beta/models/m:generateContent', hello);
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    const allowed = await post('/v1beta/models/m:generateContent?key=abc', hello);
    expect(allowed.status).toBe(200);
    expect(server.requests.at(-1)?.path).toBe('/v1beta/models/m:generateContent?key=%3Credacted%3E');
  });

  it('streams whole GenerateContentResponse frames, no [DONE], ending with a blank line', async () => {
    const response = await post('/v1beta/models/m:streamGenerateContent?alt=sse', hello, { 'x-goog-api-key': 'k' });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    expect(text.endsWith('\n\n')).toBe(true);
    expect(text).not.toContain('[DONE]');
    const frames = text
      .split('\n\n')
      .filter((frame) => frame !== '')
      .map((frame) => JSON.parse(frame.replace(/^data: /, '')));
    expect(frames.at(-1)).toMatchObject({
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { id: 'call_0_0', name: 'f', args: { a: 1 } } }] },
          finishReason: 'STOP',
        },
      ],
    });
    expect(typeof frames.at(-1).candidates[0].content.parts[0].thoughtSignature).toBe('string');
  });

  it('rejects a function-call turn not answered by one functionResponse per call', async () => {
    const response = await post(
      '/v1beta/models/m:generateContent',
      {
        contents: [
          { role: 'user', parts: [{ text: 'hi' }] },
          {
            role: 'model',
            parts: [{ functionCall: { name: 'f', args: {} } }, { functionCall: { name: 'f', args: {} } }],
          },
          { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: 'x' } } }] },
        ],
      },
      { 'x-goog-api-key': 'k' },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/number of function response parts/),
      },
    });
  });

  it('answers 400 to a legacy `parameters` schema Gemini’s Schema type refuses, naming where', async () => {
    const declare = (parameters: unknown) =>
      post(
        '/v1beta/models/m:generateContent',
        { ...hello, tools: [{ functionDeclarations: [{ name: 'f', parameters }] }] },
        { 'x-goog-api-key': 'k' },
      );
    const refused = await declare({
      type: 'OBJECT',
      properties: { a: { type: 'STRING' } },
      additionalProperties: false,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: {
        status: 'INVALID_ARGUMENT',
        message:
          'Invalid JSON payload received. Unknown name "additionalProperties" at \'* GenerateContentRequest.tools[0].function_declarations[0].parameters\': Cannot find field.',
      },
    });
    expect((await declare({ type: 'OBJECT', properties: { a: { type: 'STRING' } } })).status).toBe(200);
  });
});
