/**
 * A two-turn tool conversation shared by the OpenAI-protocol provider tests (Chat, Responses, local
 * servers): the script the mock LLM server answers from, the tools offered, and the tool results the
 * "host" sends back, so each test asserts what its adapter put on the wire.
 */
import type { LlmProvider, Message, ModelResponse, ToolDefinition, ToolResult } from '../../../src/providers/types.js';
import type { Script } from '../../../src/testing/script-types.js';

export const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export const tools: ToolDefinition[] = [
  {
    name: 'weather__get',
    description: 'Weather for a city',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    },
  },
  {
    name: 'camera__snap',
    description: 'Take a picture',
    // An open object (extra keys allowed): cannot be strict, so it goes without strict mode even when asked for.
    inputSchema: { type: 'object', properties: { zoom: { type: 'number' } }, additionalProperties: true },
  },
  { name: 'clock__now', description: 'The time', inputSchema: {} },
];

export const script: Script = {
  scenarios: [
    {
      match: 'Weather in (\\w+)',
      turns: [
        {
          expect: { toolsInclude: ['weather__get', 'camera__snap'] },
          toolCalls: [{ name: 'weather__get', arguments: { city: '{{match.1}}' } }],
        },
        {
          expect: { lastToolResultIncludes: 'sunny', lastToolResultIsError: false },
          text: 'It is {{lastToolResult}}.',
        },
      ],
    },
    {
      match: 'Compare (\\w+) and (\\w+)',
      turns: [
        {
          text: 'Checking both.',
          toolCalls: [
            { name: 'weather__get', arguments: { city: '{{match.1}}' } },
            { name: 'weather__get', arguments: { city: '{{match.2}}' } },
          ],
        },
        { expect: { lastToolResultIncludes: 'Rome: rainy' }, text: 'Both: {{lastToolResult}}' },
      ],
    },
    {
      match: 'on Mars',
      turns: [
        { toolCalls: [{ name: 'weather__get', arguments: { city: 'Mars' } }] },
        { expect: { lastToolResultIsError: true }, text: 'Failed: {{lastToolResult}}' },
      ],
    },
    {
      match: 'picture',
      turns: [
        { toolCalls: [{ name: 'camera__snap', arguments: {} }] },
        { expect: { lastToolResultIncludes: 'photo taken' }, text: 'Got it: {{lastToolResult}}' },
      ],
    },
    { match: 'print a call', turns: [{ text: '{"name": "clock__now", "arguments": {}}' }] },
    { match: 'busy', turns: [{ error: { status: 429, message: 'Rate limit reached for requests' } }] },
    { match: 'bad key', turns: [{ error: { status: 401, message: 'Incorrect API key provided' } }] },
  ],
};

export type Scenario = 'one call' | 'parallel calls' | 'error result' | 'image result';

export const prompts: Record<Scenario, string> = {
  'one call': 'Weather in Oslo?',
  'parallel calls': 'Compare Paris and Rome',
  'error result': 'Weather on Mars?',
  'image result': 'Take a picture',
};

/**
 * The model's final text per scenario. Only the image result differs between APIs: how the image that went back to
 * the model is named in the text the mock echoes.
 */
export function expectedFinalText(imageNote: string): Record<Scenario, string> {
  return {
    'one call': 'It is Oslo: sunny.',
    'parallel calls': 'Both: Paris: sunny\nRome: rainy',
    'error result': 'Failed: Error: no such city',
    'image result': `Got it: photo taken\n${imageNote}`,
  };
}

/** What the tools "returned" for the first turn's calls. */
export function resultsFor(response: ModelResponse): ToolResult[] {
  return response.message.content.flatMap((part): ToolResult[] => {
    if (part.type !== 'tool-call') return [];
    const callId = part.id;
    if (part.name === 'camera__snap') {
      return [
        {
          callId,
          toolName: part.name,
          content: [
            { type: 'text', text: 'photo taken' },
            { type: 'image', data: png, mimeType: 'image/png' },
          ],
          isError: false,
        },
      ];
    }
    const city = (JSON.parse(part.argumentsText) as { city: string }).city;
    if (city === 'Mars')
      return [{ callId, toolName: part.name, content: [{ type: 'text', text: 'no such city' }], isError: true }];
    const weather = city === 'Rome' ? 'rainy' : 'sunny';
    return [{ callId, toolName: part.name, content: [{ type: 'text', text: `${city}: ${weather}` }], isError: false }];
  });
}

export interface Conversation {
  first: ModelResponse;
  final: ModelResponse;
  deltas: string[];
  sentBodies: unknown[];
}

/** Turn 1 (the model calls tools), the results, turn 2 (the model answers). */
export async function converse(provider: LlmProvider, scenario: Scenario, stream: boolean): Promise<Conversation> {
  const deltas: string[] = [];
  const sentBodies: unknown[] = [];
  const options = {
    stream,
    onTextDelta: (text: string) => deltas.push(text),
    onProviderRequest: (body: unknown) => sentBodies.push(body),
  };
  const question: Message = { role: 'user', content: [{ type: 'text', text: prompts[scenario] }] };
  const first = await provider.generate({ system: 'Be brief.', tools, messages: [question] }, options);
  const messages: Message[] = [question, first.message, { role: 'tool', results: resultsFor(first) }];
  const final = await provider.generate({ system: 'Be brief.', tools, messages }, options);
  return { first, final, deltas, sentBodies };
}

/** Every string in a request body except image URLs: where base64 must never appear. */
export function textFields(value: unknown, key = ''): string[] {
  if (typeof value === 'string') return key === 'url' || key === 'image_url' ? [] : [value];
  if (Array.isArray(value)) return value.flatMap((item) => textFields(item, key));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([childKey, child]) => textFields(child, childKey));
  }
  return [];
}

export function finalText(response: ModelResponse): string {
  return response.message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
