/**
 * A conversation whose calls a local OpenAI-compatible server named with ids other providers refuse
 * (`functions.shop__echo:0`, `call:1`, spaces, 100 characters), switched to Anthropic and to the Responses API: the
 * next request is one each accepts, each result still answering its own call, and the transcript keeps the ids the
 * model wrote. The mock LLM server refuses what each API refuses (Anthropic: ids outside `^[a-zA-Z0-9_-]+$`; OpenAI:
 * ids over 40 characters in Chat, 64 in Responses). A real host, the official SDKs and the shuffled-tools server.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/loop/events.js';
import { parseScript } from '../../../src/testing/index.js';
import { useMockLlmServer } from '../../helpers/mock-llm.js';
import { PROVIDER_WIRES, SERVER_NAME, startFixtureHost } from './provider-wires.js';

type Body = Record<string, unknown>;
const echo = `${SERVER_NAME}__echo`;
const foreignIds = ['functions.shop__echo:0', 'call:1', 'call 2', `call_${'a'.repeat(95)}`];

function script() {
  return parseScript({
    scenarios: [
      {
        match: '^Echo',
        turns: [
          { toolCalls: foreignIds.map((id, index) => ({ id, name: echo, arguments: { text: `echo ${index}` } })) },
          { text: 'Echoed.' },
          { text: 'Switched.' },
        ],
      },
    ],
  });
}

/** Each call id of the request and the text of the result that answers it, by id, in the request's own terms. */
function pairsOf(wire: string, body: Body): [string, string][] {
  if (wire === 'anthropic') {
    const blocks = (body.messages as Body[]).flatMap((message) =>
      Array.isArray(message.content) ? message.content : [],
    );
    const results = new Map(blocks.filter((block) => block.type === 'tool_result').map((b) => [b.tool_use_id, b]));
    return blocks
      .filter((block) => block.type === 'tool_use')
      .map((block) => [String(block.id), JSON.stringify(results.get(block.id)?.content ?? null)]);
  }
  const items = body.input as Body[];
  const outputs = new Map(items.filter((item) => item.type === 'function_call_output').map((i) => [i.call_id, i]));
  return items
    .filter((item) => item.type === 'function_call')
    .map((item) => [String(item.call_id), JSON.stringify(outputs.get(item.call_id)?.output ?? null)]);
}

describe.each([
  { target: 'anthropic:claude-test', wire: 'anthropic', valid: /^[a-zA-Z0-9_-]+$/ },
  { target: 'openai-responses:gpt-test', wire: 'openai-responses', valid: /^.{1,64}$/u },
])('a transcript with call ids another provider made up, switched to $target', ({ target, wire, valid }) => {
  const mock = useMockLlmServer({ script: script() });

  it('is sent with ids the provider accepts, each result with its own call', async () => {
    const fixture = await startFixtureHost(PROVIDER_WIRES['openai-compatible'], mock.url, {
      baseUrl: undefined,
      env: {
        OPENAI_BASE_URL: `${mock.url}/v1`,
        OPENAI_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: mock.url,
        ANTHROPIC_API_KEY: 'test-key',
      },
    });
    try {
      const conversation = await fixture.host.conversation();
      const ends: AgentEvent[] = [];
      const send = async (text: string) => {
        for await (const event of conversation.send(text)) if (event.type === 'run-end') ends.push(event);
      };
      await send('Echo four times.');
      await conversation.setModel(target);
      await send('And now?');
      expect(ends.map((event) => (event.type === 'run-end' ? [event.stopReason, event.text] : []))).toEqual([
        ['end', 'Echoed.'],
        ['end', 'Switched.'],
      ]);

      const last = mock.requests.at(-1)!;
      expect(last.wire).toBe(wire);
      const pairs = pairsOf(wire, last.body as Body);
      expect(pairs).toHaveLength(foreignIds.length);
      expect(new Set(pairs.map(([id]) => id)).size).toBe(foreignIds.length);
      for (const [index, [id, result]] of pairs.entries()) {
        expect(id).toMatch(valid);
        expect(result).toContain(`echo ${index}`);
      }
      // The transcript keeps the ids the model wrote; a request renames them where its wire needs it.
      const calls = conversation.history.flatMap((message) =>
        message.role === 'assistant' ? message.content.filter((part) => part.type === 'tool-call') : [],
      );
      expect(calls.map((call) => call.id)).toEqual(foreignIds);
    } finally {
      await fixture.close();
    }
  }, 60_000);
});
