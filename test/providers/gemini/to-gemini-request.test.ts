import { describe, expect, it } from 'vitest';
import { placeholderThoughtSignature, toGeminiRequest } from '../../../src/providers/gemini/to-gemini-request.js';
import { estimateTextTokens } from '../../../src/providers/token-estimate/index.js';
import { type AssistantMessage, type ModelRequest, ProviderError } from '../../../src/providers/types.js';
import { checkGeminiParameters } from '../../../src/testing/mock-llm/wires/gemini-schema-check.js';

const replayedTurn: AssistantMessage = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Looking.' },
    { type: 'tool-call', id: 'abc', name: 'files__read', argumentsText: '{"path":"/a"}' },
  ],
  providerReplay: {
    provider: 'gemini',
    data: {
      role: 'model',
      parts: [
        { text: 'Looking.', thought: false },
        { functionCall: { id: 'abc', name: 'files__read', args: { path: '/a' } }, thoughtSignature: 'c2lnbmF0dXJl' },
      ],
    },
  },
};

describe('toGeminiRequest', () => {
  it('declares tools sorted by name, schemas Gemini’s Schema type takes as `parameters`', () => {
    const { request, wrappedTools } = toGeminiRequest({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [
        { name: 'z__echo', description: '', inputSchema: { type: 'array', items: { type: 'string' } } },
        {
          name: 'a__find',
          description: 'Find things',
          inputSchema: { $schema: 'x', type: 'object', properties: { q: { type: 'string', format: 'uri' } } },
        },
      ],
      maxOutputTokens: 100,
      providerOptions: { gemini: { temperature: 0.2, tools: 'ignored' } },
    });
    expect(request.config).toEqual({
      temperature: 0.2,
      maxOutputTokens: 100,
      tools: [
        {
          functionDeclarations: [
            {
              name: 'a__find',
              description: 'Find things',
              parameters: {
                type: 'OBJECT',
                properties: { q: { type: 'STRING', description: 'Constraints: format: uri' } },
              },
            },
            {
              name: 'z__echo',
              parameters: {
                type: 'OBJECT',
                properties: { value: { type: 'ARRAY', items: { type: 'STRING' } } },
                required: ['value'],
              },
            },
          ],
        },
      ],
    });
    expect([...wrappedTools]).toEqual(['z__echo']);
  });

  it('declares a tool that takes no parameters without a schema, and keeps one that says more', () => {
    const declared = (inputSchema: Record<string, unknown>) =>
      toGeminiRequest({
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        tools: [{ name: 'clock__now', description: 'The time', inputSchema }],
      }).request.config.tools;
    const bare = [{ functionDeclarations: [{ name: 'clock__now', description: 'The time' }] }];
    expect(declared({})).toEqual(bare);
    expect(declared({ $schema: 'x', type: 'object', properties: {}, additionalProperties: false })).toEqual(bare);
    // Any keys allowed, or a note about the arguments: the schema says something, so it goes.
    const open = { type: 'object', properties: {}, additionalProperties: true };
    expect(declared(open)).toEqual([
      { functionDeclarations: [{ name: 'clock__now', description: 'The time', parametersJsonSchema: open }] },
    ]);
    const described = { type: 'object', properties: {}, description: 'No arguments needed.' };
    expect(declared(described)).toEqual([
      { functionDeclarations: [{ name: 'clock__now', description: 'The time', parametersJsonSchema: described }] },
    ]);
  });

  it('declares a schema in its fewest tokens that say the same: lengths and integer bounds as keywords', () => {
    // The inventory example's `reserve`, as zod lists it: `.min(1)`, `.int().positive()`, plus a default.
    const inputSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        sku: { type: 'string', minLength: 1, description: 'The stock-keeping unit.' },
        quantity: { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991, description: 'How many.' },
        note: { type: 'string', default: 'none', description: 'A note.' },
      },
      required: ['sku', 'quantity'],
    };
    const { request } = toGeminiRequest({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [{ name: 'inventory__reserve', description: 'Reserves stock.', inputSchema }],
    });
    const [tool] = (request.config.tools ?? []) as { functionDeclarations?: Record<string, unknown>[] }[];
    const declaration = tool?.functionDeclarations?.[0];
    expect(declaration).toEqual({
      name: 'inventory__reserve',
      description: 'Reserves stock.',
      parameters: {
        type: 'OBJECT',
        properties: {
          sku: { type: 'STRING', description: 'The stock-keeping unit.', minLength: 1 },
          quantity: { type: 'INTEGER', description: 'How many.', minimum: 1 },
          note: { type: 'STRING', description: 'A note.\nDefault none' },
        },
        required: ['sku', 'quantity'],
      },
    });
    expect(() => checkGeminiParameters(declaration?.parameters, 'parameters')).not.toThrow();
    // Fewer tokens than the listed schema with only `$schema` left out, as other clients send it.
    const { $schema: _dialect, ...listed } = inputSchema;
    const listedDeclaration = { name: 'inventory__reserve', description: 'Reserves stock.', parameters: listed };
    expect(estimateTextTokens(JSON.stringify(declaration))).toBeLessThan(
      estimateTextTokens(JSON.stringify(listedDeclaration)),
    );
  });

  it('replays the model Content exactly and answers its calls in one user Content, text after them', () => {
    const request: ModelRequest = {
      system: 'sys',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'read /a' }] },
        replayedTurn,
        {
          role: 'tool',
          results: [{ callId: 'abc', toolName: 'files__read', content: [{ type: 'text', text: 'A' }], isError: false }],
        },
        { role: 'user', content: [{ type: 'text', text: 'and summarise' }] },
      ],
      tools: [],
    };
    const { request: gemini } = toGeminiRequest(request);
    expect(gemini.config.systemInstruction).toEqual({ parts: [{ text: 'sys' }] });
    expect(gemini.contents).toEqual([
      { role: 'user', parts: [{ text: 'read /a' }] },
      replayedTurn.providerReplay?.data,
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'abc', name: 'files__read', response: { output: 'A' } } },
          { text: 'and summarise' },
        ],
      },
    ]);
    // The replay is a copy: changing the request body cannot change the stored message.
    (gemini.contents[1]?.parts?.[0] as { text: string }).text = 'changed';
    expect(replayedTurn.providerReplay?.data).toMatchObject({ parts: [{ text: 'Looking.' }, expect.anything()] });
  });

  it('rebuilds a model turn from another provider with a placeholder signature, re-wrapping wrapped tools', () => {
    const { request } = toGeminiRequest({
      messages: [
        { role: 'user', content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', id: 'toolu_1', name: 'echo__say', argumentsText: '"hi"' },
            { type: 'tool-call', id: 'toolu_2', name: 'files__read', argumentsText: '{"path":"/b"}' },
          ],
        },
        {
          role: 'tool',
          results: [
            { callId: 'toolu_1', toolName: 'echo__say', content: [{ type: 'text', text: 'hi' }], isError: false },
            { callId: 'toolu_2', toolName: 'files__read', content: [], isError: true },
          ],
        },
      ],
      tools: [{ name: 'echo__say', description: 'Say', inputSchema: { type: 'string' } }],
    });
    expect(request.contents).toEqual([
      { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'echo__say', args: { value: 'hi' } }, thoughtSignature: placeholderThoughtSignature },
          { functionCall: { name: 'files__read', args: { path: '/b' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'echo__say', response: { output: 'hi' } } },
          { functionResponse: { name: 'files__read', response: { error: '' } } },
        ],
      },
    ]);
  });

  it('refuses a tool name Gemini would reject, saying what to do', () => {
    const attempt = () =>
      toGeminiRequest({ messages: [], tools: [{ name: '1password__get', description: '', inputSchema: {} }] });
    expect(attempt).toThrow(ProviderError);
    expect(attempt).toThrow(/starts with a letter or "_".*Rename the tool or its server/);
  });
});
