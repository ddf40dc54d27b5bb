/**
 * A model that names its call `call_0` at every turn, as local OpenAI-compatible servers do: the conversation's next
 * request is one each provider accepts, and each result still answers its own turn's call. The mock LLM server
 * refuses what each API refuses (Anthropic: `tool_use` ids that repeat in a request; Responses: a `call_id` given to
 * two calls of its one flat input). A real host, the official SDKs and the shuffled-tools server over stdio.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/loop/events.js';
import { parseScript } from '../../../src/testing/index.js';
import { useMockLlmServer } from '../../helpers/mock-llm.js';
import { PROVIDER_WIRES, type ProviderWireName, SERVER_NAME, startFixtureHost } from './provider-wires.js';

const echo = `${SERVER_NAME}__echo`;

const echoTurn = (text: string) => [
  { toolCalls: [{ id: 'call_0', name: echo, arguments: { text } }] },
  { text: 'Echoed {{lastToolResult}}.' },
];

function script() {
  return parseScript({
    scenarios: [
      { match: '^First', turns: echoTurn('one') },
      { match: '^Second', turns: echoTurn('two') },
    ],
  });
}

describe.each(Object.keys(PROVIDER_WIRES) as ProviderWireName[])('%s: a call id repeated across turns', (name) => {
  const wire = PROVIDER_WIRES[name];
  const mock = useMockLlmServer({ script: script() });

  it('is sent in a request the provider accepts, each result with its own turn’s call', async () => {
    const fixture = await startFixtureHost(wire, mock.url);
    try {
      const conversation = await fixture.host.conversation();
      const ends: AgentEvent[] = [];
      for (const text of ['First, echo.', 'Second, echo.']) {
        for await (const event of conversation.send(text)) if (event.type === 'run-end') ends.push(event);
      }
      expect(ends.map((event) => (event.type === 'run-end' ? [event.stopReason, event.text] : []))).toEqual([
        ['end', 'Echoed {"text":"one"}.'],
        ['end', 'Echoed {"text":"two"}.'],
      ]);
      const calls = conversation.history.flatMap((message) =>
        message.role === 'assistant' ? message.content.filter((part) => part.type === 'tool-call') : [],
      );
      // The transcript keeps the ids the model wrote; a request renames them where its wire needs it.
      expect(calls.map((call) => call.id)).toEqual(['call_0', 'call_0']);
    } finally {
      await fixture.close();
    }
  }, 60_000);
});
