import Anthropic, { AuthenticationError, BadRequestError } from '@anthropic-ai/sdk';
import type { MessageParam, RawMessageStreamEvent, Tool } from '@anthropic-ai/sdk/resources/messages';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockLlmServer, startMockLlmServer } from '../../src/testing/mock-llm/mock-llm-server.js';
import type { Script } from '../../src/testing/script-types.js';

const script: Script = {
  scenarios: [
    {
      match: 'weather in (\\w+)',
      turns: [
        {
          expect: { toolsInclude: ['weather__get'] },
          text: 'Let me look that up for {{match.1}}.',
          toolCalls: [{ name: 'weather__get', arguments: { city: '{{match.1}}', days: 2 } }],
        },
        {
          expect: { lastToolResultIncludes: 'sunny', lastToolResultIsError: false },
          text: 'It is {{lastToolResult}} in {{match.1}}.',
        },
      ],
    },
    { match: 'ping', turns: [{ toolCalls: [{ name: 'clock__now' }] }] },
  ],
};

const tools: Tool[] = [
  {
    name: 'weather__get',
    description: 'Weather for a city',
    input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  { name: 'clock__now', description: 'The time', input_schema: { type: 'object', properties: {} } },
];

const question: MessageParam = { role: 'user', content: 'What is the weather in Paris?' };

describe('the anthropic wire, through @anthropic-ai/sdk', () => {
  let server: MockLlmServer;
  let client: Anthropic;
  beforeAll(async () => {
    server = await startMockLlmServer({ script });
    client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('answers a tool_use turn, then a final text turn from the tool_result (non-streaming)', async () => {
    const first = await client.messages.create({ model: 'claude-test', max_tokens: 256, tools, messages: [question] });
    expect(first.type).toBe('message');
    expect(first.role).toBe('assistant');
    expect(first.model).toBe('claude-test');
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([
      { type: 'text', text: 'Let me look that up for Paris.' },
      { type: 'tool_use', id: 'call_0_0', name: 'weather__get', input: { city: 'Paris', days: 2 } },
    ]);
    expect(first.usage.input_tokens).toBeGreaterThan(0);

    const toolResultMessage: MessageParam = {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'call_0_0', content: [{ type: 'text', text: 'sunny' }], is_error: false },
      ],
    };
    const second = await client.messages.create({
      model: 'claude-test',
      max_tokens: 256,
      tools,
      messages: [question, { role: 'assistant', content: first.content }, toolResultMessage],
    });
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content).toEqual([{ type: 'text', text: 'It is sunny in Paris.' }]);

    expect(server.requests).toHaveLength(2);
    const recorded = server.requests[1];
    expect(recorded?.wire).toBe('anthropic');
    expect(recorded?.path).toBe('/v1/messages');
    expect(recorded?.headers.authorization).toBe('<redacted>');
    expect(recorded?.body).toMatchObject({ tools, messages: [question, { role: 'assistant' }, toolResultMessage] });
  });

  it('streams the same turns as SSE the SDK parses: text and tool input in fragments', async () => {
    const stream = await client.messages.create({
      model: 'claude-test',
      max_tokens: 256,
      tools,
      messages: [question],
      stream: true,
    });
    const events: RawMessageStreamEvent[] = [];
    for await (const event of stream) events.push(event);

    expect(events[0]?.type).toBe('message_start');
    expect(events.at(-1)?.type).toBe('message_stop');
    expect(events.at(-2)).toMatchObject({ type: 'message_delta', delta: { stop_reason: 'tool_use' } });
    const textDeltas = events.flatMap((event) =>
      event.type === 'content_block_delta' && event.delta.type === 'text_delta' ? [event.delta.text] : [],
    );
    expect(textDeltas.length).toBeGreaterThan(1);
    expect(textDeltas.join('')).toBe('Let me look that up for Paris.');
    const start = events.find((event) => event.type === 'content_block_start' && event.index === 1);
    expect(start).toMatchObject({
      content_block: { type: 'tool_use', id: 'call_0_0', name: 'weather__get', input: {} },
    });
    const fragments = events.flatMap((event) =>
      event.type === 'content_block_delta' && event.delta.type === 'input_json_delta' ? [event.delta.partial_json] : [],
    );
    expect(fragments.length).toBeGreaterThan(1);
    expect(JSON.parse(fragments.join(''))).toEqual({ city: 'Paris', days: 2 });
    expect(events.filter((event) => event.type === 'content_block_stop')).toHaveLength(2);
  });

  it('sends frames the SDK stream helper assembles into the final message, empty input included', async () => {
    const final = await client.messages
      .stream({ model: 'claude-test', max_tokens: 64, tools, messages: [{ role: 'user', content: 'ping' }] })
      .finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content).toEqual([{ type: 'tool_use', id: 'call_0_0', name: 'clock__now', input: {} }]);
  });

  it('frames every event with an event: line and sends ping mid-stream', async () => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', max_tokens: 10, stream: true, tools, messages: [question] }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const frames = (await response.text()).split('\n\n').filter((frame) => frame !== '');
    for (const frame of frames) expect(frame).toMatch(/^event: (\w+)\ndata: \{"type":"\1"/);
    const names = frames.map((frame) => /^event: (\w+)/.exec(frame)?.[1]);
    expect(names.filter((name) => name === 'ping').length).toBeGreaterThanOrEqual(1);
    expect(names.indexOf('ping')).toBeGreaterThan(0);
    expect(names.lastIndexOf('ping')).toBeLessThan(names.indexOf('message_delta'));
  });

  it('tolerates a query string added to the path', async () => {
    const withQuery = new Anthropic({
      apiKey: 'k',
      baseURL: server.url,
      maxRetries: 0,
      defaultQuery: { beta: 'true' },
    });
    const message = await withQuery.messages.create({ model: 'm', max_tokens: 10, tools, messages: [question] });
    expect(message.stop_reason).toBe('tool_use');
    expect(server.requests[0]?.path).toBe('/v1/messages?beta=true');
  });

  it('answers 401 in Anthropic error shape when no credentials are sent, and accepts x-api-key', async () => {
    const anonymous = new Anthropic({
      apiKey: 'unused',
      baseURL: server.url,
      maxRetries: 0,
      defaultHeaders: { Authorization: null },
    });
    const error = await anonymous.messages
      .create({ model: 'm', max_tokens: 10, messages: [question] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as AuthenticationError).type).toBe('authentication_error');
    expect((error as AuthenticationError).apiMessage).toContain('x-api-key');

    const withApiKeyHeader = new Anthropic({
      apiKey: 'unused',
      baseURL: server.url,
      maxRetries: 0,
      defaultHeaders: { Authorization: null, 'x-api-key': 'k' },
    });
    const message = await withApiKeyHeader.messages.create({ model: 'm', max_tokens: 10, tools, messages: [question] });
    expect(message.stop_reason).toBe('tool_use');
  });

  it('answers a failed script expectation with a 400 the SDK reports', async () => {
    const error = await client.messages
      .create({ model: 'm', max_tokens: 10, messages: [question] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).type).toBe('invalid_request_error');
    expect((error as BadRequestError).apiMessage).toContain('weather__get');
  });

  it('rejects what the real API rejects: an unanswered tool_use, text before tool_result, too many cache breakpoints', async () => {
    const toolUse: MessageParam = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather__get', input: { city: 'Paris' } }],
    };
    const unanswered = await client.messages
      .create({ model: 'm', max_tokens: 10, tools, messages: [question, toolUse, { role: 'user', content: 'well?' }] })
      .catch((caught: BadRequestError) => caught.apiMessage);
    expect(unanswered).toContain('`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1');

    const textFirst = await client.messages
      .create({
        model: 'm',
        max_tokens: 10,
        tools,
        messages: [
          question,
          toolUse,
          {
            role: 'user',
            content: [
              { type: 'text', text: 'here' },
              { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
            ],
          },
        ],
      })
      .catch((caught: BadRequestError) => caught.apiMessage);
    expect(textFirst).toContain('tool_result blocks must come first');

    const marked = { type: 'ephemeral' as const };
    const tooMany = await client.messages
      .create({
        model: 'm',
        max_tokens: 10,
        tools: tools.map((tool) => ({ ...tool, cache_control: marked })),
        system: [{ type: 'text', text: 'sys', cache_control: marked }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'weather in Paris', cache_control: marked }] },
          { role: 'assistant', content: [{ type: 'text', text: 'ok', cache_control: marked }] },
          { role: 'user', content: [{ type: 'text', text: 'go', cache_control: marked }] },
        ],
      })
      .catch((caught: BadRequestError) => caught.apiMessage);
    expect(tooMany).toBe('A maximum of 4 blocks with cache_control may be provided. Found 6.');
  });

  it('rejects a tool_use id with characters other than letters, digits, _ and -, and takes one without', async () => {
    const exchange = (id: string): MessageParam[] => [
      question,
      { role: 'assistant', content: [{ type: 'tool_use', id, name: 'weather__get', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'sunny' }] },
    ];
    const refused = await client.messages
      .create({ model: 'm', max_tokens: 10, tools, messages: exchange('functions.weather__get:0') })
      .catch((caught: BadRequestError) => caught.apiMessage);
    expect(refused).toBe("messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'");
    const empty = await client.messages
      .create({ model: 'm', max_tokens: 10, tools, messages: exchange('') })
      .catch((caught: BadRequestError) => caught.apiMessage);
    expect(empty).toContain('tool_use.id: String should match pattern');
    const taken = await client.messages.create({ model: 'm', max_tokens: 10, tools, messages: exchange('fn_get-0') });
    expect(taken.content).toEqual([{ type: 'text', text: 'It is sunny in Paris.' }]);
  });

  it('makes up a tool_use id the conversation does not hold, though a compaction left fewer turns than ids', async () => {
    // After a compaction the turn count is lower than when the kept call was made: its id is the one the next
    // call of two turns in would be given.
    const messages: MessageParam[] = [
      question,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_2_0', name: 'weather__get', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_2_0', content: 'sunny' }] },
      { role: 'assistant', content: 'It is sunny in Paris.' },
      question,
    ];
    const answer = await client.messages.create({ model: 'm', max_tokens: 10, tools, messages });
    const ids = answer.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    expect(ids).toEqual(['call_2_0_2']);
    // The next request holds both calls, which the API takes only with ids that differ.
    const next = await client.messages.create({
      model: 'm',
      max_tokens: 10,
      tools,
      messages: [
        ...messages,
        { role: 'assistant', content: answer.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_2_0_2', content: 'sunny' }] },
      ],
    });
    expect(next.content).toEqual([{ type: 'text', text: 'It is sunny in Paris.' }]);
  });
});
