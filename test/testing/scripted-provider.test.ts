import { describe, expect, it } from 'vitest';
import { type ModelRequest, type ModelResponse, ProviderError } from '../../src/providers/types.js';
import type { Script } from '../../src/testing/script-types.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';

const script: Script = {
  scenarios: [
    {
      match: 'add (\\d+) and (\\d+)',
      turns: [
        {
          text: 'Let me add those.',
          toolCalls: [{ name: 'calc__add', arguments: { a: '{{match.1}}', b: '{{match.2}}' } }],
        },
        { expect: { lastToolResultIncludes: '5' }, text: 'The answer is {{lastToolResult}}.' },
      ],
    },
    { match: 'overloaded', turns: [{ error: { status: 529, message: 'Overloaded' } }] },
  ],
};

const tools = [{ name: 'calc__add', description: 'Adds', inputSchema: { type: 'object' } }];

function firstRequest(text: string): ModelRequest {
  return { system: 'be brief', tools, messages: [{ role: 'user', content: [{ type: 'text', text }] }] };
}

describe('createScriptedProvider', () => {
  it('answers a tool turn, then a final text turn built from the tool result', async () => {
    const provider = createScriptedProvider(script, { model: 'demo' });
    expect(provider.provider).toBe('scripted');
    expect(provider.model).toBe('demo');

    const first = await provider.generate(firstRequest('add 2 and 3'));
    expect(first.stopReason).toBe('tool-calls');
    expect(first.message.content).toEqual([
      { type: 'text', text: 'Let me add those.' },
      { type: 'tool-call', id: 'call_0_0', name: 'calc__add', argumentsText: '{"a":2,"b":3}' },
    ]);

    const second = await provider.generate({
      ...firstRequest('add 2 and 3'),
      messages: [
        ...firstRequest('add 2 and 3').messages,
        first.message,
        {
          role: 'tool',
          results: [
            { callId: 'call_0_0', toolName: 'calc__add', content: [{ type: 'text', text: '5' }], isError: false },
          ],
        },
      ],
    });
    expect(second.stopReason).toBe('end');
    expect(second.message.content).toEqual([{ type: 'text', text: 'The answer is 5.' }]);
    expect(second.usage?.inputTokens).toBeGreaterThan(0);
  });

  it('streams text through onTextDelta in several chunks and reports the request it received', async () => {
    const provider = createScriptedProvider(script);
    const deltas: string[] = [];
    const pieces: string[] = [];
    const seen: unknown[] = [];
    const response = await provider.generate(firstRequest('add 2 and 3'), {
      stream: true,
      onTextDelta: (text) => deltas.push(text),
      onToolCallDelta: (piece) => {
        expect(piece).toMatchObject({ index: 0, name: 'calc__add' });
        pieces.push(piece.argumentsDelta);
      },
      onProviderRequest: (body) => seen.push(body),
    });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Let me add those.');
    expect(pieces.length).toBeGreaterThan(1);
    expect(JSON.parse(pieces.join(''))).toEqual({ a: 2, b: 3 });
    expect(response.message.content[0]).toEqual({ type: 'text', text: 'Let me add those.' });
    expect(seen).toEqual([firstRequest('add 2 and 3')]);
  });

  it('records deep copies of every request', async () => {
    const provider = createScriptedProvider(script);
    const request = firstRequest('add 2 and 3');
    await provider.generate(request);
    const sent = request.messages[0];
    if (sent?.role === 'user') sent.content = [{ type: 'text', text: 'changed afterwards' }];
    await provider.generate(firstRequest('add 1 and 1'));
    expect(provider.requests).toHaveLength(2);
    expect(provider.requests[0]?.messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'add 2 and 3' }],
    });
    expect(provider.requests[1]?.messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'add 1 and 1' }],
    });
  });

  it('keeps no requests with keepRequests: false, and still answers and reports each request', async () => {
    const provider = createScriptedProvider(script, { keepRequests: false });
    const reported: ModelRequest[] = [];
    const response = await provider.generate(firstRequest('add 2 and 3'), {
      onProviderRequest: (request) => reported.push(request as ModelRequest),
    });
    expect(response.message.content).toContainEqual(expect.objectContaining({ type: 'tool-call', name: 'calc__add' }));
    expect(provider.requests).toHaveLength(0);
    expect(reported).toHaveLength(1);
  });

  it('reports each request as it stood, though the conversation grows after it', async () => {
    const provider = createScriptedProvider(script, { keepRequests: false });
    const reported: ModelRequest[] = [];
    const request = firstRequest('add 2 and 3');
    const first = await provider.generate(request, {
      onProviderRequest: (body) => reported.push(body as ModelRequest),
    });
    request.messages.push(first.message);
    expect(reported[0]?.messages).toEqual(firstRequest('add 2 and 3').messages);
  });

  it('counts input tokens from the whole request on every turn, as its JSON length in quarters', async () => {
    const provider = createScriptedProvider(script);
    const request: ModelRequest = { ...firstRequest('add 2 and 3'), maxOutputTokens: 99 };
    const first = await provider.generate(request);
    expect(first.usage?.inputTokens).toBe(Math.ceil(JSON.stringify(request).length / 4));
    request.messages.push(first.message, {
      role: 'tool',
      results: [
        { callId: 'call_0_0', toolName: 'calc__add', content: [{ type: 'text', text: '5 "é"' }], isError: false },
      ],
    });
    const second = await provider.generate(request);
    expect(second.usage?.inputTokens).toBe(Math.ceil(JSON.stringify(request).length / 4));
    expect(second.usage?.inputTokens).toBeGreaterThan(first.usage?.inputTokens ?? Number.POSITIVE_INFINITY);
    const bare = await createScriptedProvider(script).generate({ ...firstRequest('add 2 and 3'), tools: [] });
    expect(bare.usage?.inputTokens).toBe(
      Math.ceil(JSON.stringify({ ...firstRequest('add 2 and 3'), tools: [] }).length / 4),
    );
  });

  it('throws a ProviderError for a failed expectation and for a scripted error', async () => {
    const provider = createScriptedProvider(script);
    const wrongResult: ModelRequest = {
      ...firstRequest('add 2 and 3'),
      messages: [
        ...firstRequest('add 2 and 3').messages,
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: 'calc__add', argumentsText: '{}' }] },
        {
          role: 'tool',
          results: [{ callId: 'c', toolName: 'calc__add', content: [{ type: 'text', text: 'NaN' }], isError: true }],
        },
      ],
    };
    const failed = await provider.generate(wrongResult).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ProviderError);
    expect((failed as ProviderError).details).toMatchObject({ provider: 'scripted', status: 400, retryable: false });
    expect((failed as ProviderError).message).toContain('"NaN"');

    const overloaded = await provider.generate(firstRequest('overloaded')).catch((error: unknown) => error);
    expect((overloaded as ProviderError).details).toMatchObject({ status: 529, retryable: true });
  });

  it('makes up call ids unique in the conversation: beside a fixed one, and beside a call a compaction kept', async () => {
    const provider = createScriptedProvider({
      scenarios: [
        { match: '^two', turns: [{ toolCalls: [{ name: 'calc__add' }, { name: 'calc__add', id: 'call_0_0' }] }] },
        { match: '^again', turns: [{ toolCalls: [{ name: 'calc__add' }] }] },
      ],
    });
    const ids = (response: ModelResponse) =>
      response.message.content.flatMap((part) => (part.type === 'tool-call' ? [part.id] : []));
    expect(ids(await provider.generate(firstRequest('two calls')))).toEqual(['call_0_0_2', 'call_0_0']);
    // A compacted conversation: the summary and its acknowledgement, then a kept call made when there were more turns.
    const kept: ModelRequest['messages'] = [
      { role: 'user', content: [{ type: 'text', text: 'summary' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      ...firstRequest('again').messages,
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1_0', name: 'calc__add', argumentsText: '{}' }] },
      { role: 'tool', results: [{ callId: 'call_1_0', toolName: 'calc__add', content: [], isError: false }] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      ...firstRequest('again').messages,
    ];
    expect(ids(await provider.generate({ ...firstRequest(''), messages: kept }))).toEqual(['call_3_0']);
    const collides = kept.map((message) =>
      message.role === 'assistant' && message.content[0]?.type === 'tool-call'
        ? { ...message, content: [{ ...message.content[0], id: 'call_3_0' }] }
        : message.role === 'tool'
          ? { ...message, results: [{ ...message.results[0]!, callId: 'call_3_0' }] }
          : message,
    );
    expect(ids(await provider.generate({ ...firstRequest(''), messages: collides }))).toEqual(['call_3_0_2']);
  });

  it('rejects with the abort reason when the signal is already aborted', async () => {
    const provider = createScriptedProvider(script);
    const controller = new AbortController();
    controller.abort(new Error('user pressed ctrl-c'));
    await expect(provider.generate(firstRequest('add 2 and 3'), { signal: controller.signal })).rejects.toThrow(
      'user pressed ctrl-c',
    );
  });
});
