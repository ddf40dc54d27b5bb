/**
 * "Arguments the model sends for a normalised schema reach the server in the shape the server
 * declared", end to end for every provider: a real host, the official SDK of the provider against
 * the mock LLM server, and a real MCP server (one process for the file, over Streamable HTTP) that
 * validates what it receives against the schema it declared. One tool's root is a union (offered wrapped as `{value: …}`); the other
 * has optional properties, which stay optional for every provider (OpenAI's strict mode, which would
 * make them required and nullable, is opt-in and the host does not ask for it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/loop/events.js';
import { parseScript } from '../../../src/testing/index.js';
import { useMockLlmServer } from '../../helpers/mock-llm.js';
import {
  type HttpFixtureServer,
  PROVIDER_WIRES,
  type ProviderWireName,
  SERVER_NAME,
  startFixtureHost,
  startShuffledToolsOverHttp,
} from './provider-wires.js';

const pick = `${SERVER_NAME}__pick`;
const search = `${SERVER_NAME}__search`;

/** What the model sends, in the shape it was offered: the union wrapped. */
const modelArguments = {
  pick: { value: { name: 'Ada Lovelace' } },
  search: { query: 'engines', exact: true },
};

/** What the server declared, so what it must receive. */
const serverArguments = { pick: { name: 'Ada Lovelace' }, search: { query: 'engines', exact: true } };

function script() {
  const sent = modelArguments;
  return parseScript({
    scenarios: [
      {
        match: 'Find Ada',
        turns: [
          {
            expect: { toolsInclude: [pick, search] },
            toolCalls: [
              { id: 'call_pick', name: pick, arguments: sent.pick },
              { id: 'call_search', name: search, arguments: sent.search },
            ],
          },
          { expect: { lastToolResultIsError: false }, text: 'Echoed: {{lastToolResult}}' },
        ],
      },
    ],
  });
}

type Body = Record<string, unknown>;

/** The tool definition a provider was sent, by name, with its schema and strict flag. */
function offeredTool(wire: ProviderWireName, body: Body, name: string): { schema: Body; strict?: boolean } {
  const tools = body.tools as Body[];
  if (wire === 'anthropic') {
    const tool = tools.find((candidate) => candidate.name === name);
    return { schema: tool?.input_schema as Body };
  }
  if (wire === 'gemini') {
    const declarations = (tools[0]?.functionDeclarations ?? []) as Body[];
    const declaration = declarations.find((candidate) => candidate.name === name);
    // A schema inside the subset Gemini's Schema type takes goes as `parameters`, the rest as JSON Schema.
    return { schema: (declaration?.parametersJsonSchema ?? declaration?.parameters) as Body };
  }
  if (wire === 'openai-responses') {
    const tool = tools.find((candidate) => candidate.name === name);
    return { schema: tool?.parameters as Body, strict: tool?.strict as boolean };
  }
  const tool = tools.find((candidate) => (candidate.function as Body).name === name)?.function as Body;
  return { schema: tool.parameters as Body, strict: tool.strict as boolean | undefined };
}

/** The arguments of the model's earlier call to `name`, as the second request replays them. */
function replayedArguments(wire: ProviderWireName, body: Body, name: string): unknown {
  if (wire === 'anthropic') {
    const blocks = (body.messages as Body[]).flatMap((message) =>
      Array.isArray(message.content) ? (message.content as Body[]) : [],
    );
    return blocks.find((block) => block.type === 'tool_use' && block.name === name)?.input;
  }
  if (wire === 'gemini') {
    const parts = (body.contents as Body[]).flatMap((content) => (content.parts ?? []) as Body[]);
    const call = parts.find((part) => (part.functionCall as Body | undefined)?.name === name)?.functionCall as
      | Body
      | undefined;
    return call?.args;
  }
  if (wire === 'openai-responses') {
    const item = (body.input as Body[]).find(
      (candidate) => candidate.type === 'function_call' && candidate.name === name,
    );
    return JSON.parse(item?.arguments as string);
  }
  const calls = (body.messages as Body[]).flatMap((message) => (message.tool_calls ?? []) as Body[]);
  const call = calls.find((candidate) => (candidate.function as Body).name === name);
  return JSON.parse(((call?.function as Body | undefined)?.arguments as string | undefined) ?? 'null');
}

let server: HttpFixtureServer | undefined;

beforeAll(async () => {
  server = await startShuffledToolsOverHttp();
});

afterAll(async () => {
  await server?.close();
});

describe.each(Object.keys(PROVIDER_WIRES) as ProviderWireName[])(
  '%s: arguments reach the server as declared',
  (name) => {
    const wire = PROVIDER_WIRES[name];
    const mock = useMockLlmServer({ script: script() });

    for (const stream of [true, false]) {
      it(stream ? 'streamed' : 'not streamed', async () => {
        const fixture = await startFixtureHost(wire, mock.url, { stream, serverUrl: server?.url });
        try {
          const events: AgentEvent[] = [];
          const result = await fixture.host.run('Find Ada and engines', { onEvent: (event) => events.push(event) });
          expect(result.stopReason, result.message).toBe('end');

          // Translation #2: what the host sent in tools/call, and what the server echoed back after
          // validating it against its own declared schema.
          const sentToServer = events.filter((event) => event.type === 'tool-call-request');
          expect(sentToServer.map((event) => [event.tool, event.arguments])).toEqual([
            ['pick', serverArguments.pick],
            ['search', serverArguments.search],
          ]);
          const ends = events.filter((event) => event.type === 'tool-call-end');
          expect(ends.map((event) => event.outcome)).toEqual(['ok', 'ok']);
          expect(ends.map((event) => JSON.parse((event.result.content[0] as { text: string }).text))).toEqual([
            serverArguments.pick,
            serverArguments.search,
          ]);
          expect(result.text).toContain(JSON.stringify(serverArguments.pick));

          // What went over the wire: the wrapped schema, no strict mode, then the calls replayed in
          // the shape the model sent them.
          expect(mock.requests).toHaveLength(2);
          for (const request of mock.requests) expect(request.path.split('?')[0]).toMatch(wire.route);
          const [first, second] = mock.requests.map((request) => request.body as Body) as [Body, Body];
          const pickTool = offeredTool(name, first, pick);
          expect(pickTool.schema).toMatchObject({ type: 'object', required: ['value'] });
          expect(Object.keys(pickTool.schema.properties as Body)).toEqual(['value']);
          const searchTool = offeredTool(name, first, search);
          expect(pickTool.strict ?? false).toBe(false);
          expect(searchTool.strict ?? false).toBe(false);
          expect(searchTool.schema.required).toEqual(['query']);
          expect(replayedArguments(name, second, pick)).toEqual(modelArguments.pick);
        } finally {
          await fixture.close();
        }
      });
    }
  },
);
