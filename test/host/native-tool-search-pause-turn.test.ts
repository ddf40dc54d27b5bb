/**
 * A paused server-side turn (Anthropic's `pause_turn`): the official SDK talks HTTP to the mock LLM server, whose
 * script pauses the turn after the native tool search. The host sends the conversation back with the paused answer
 * as it came, without running anything, and the model goes on to call the tool it found — a real MCP server over
 * stdio runs it, through consent and into the audit. A provider that keeps pausing ends the run with an error after
 * MAX_PAUSED_TURN_CONTINUATIONS continuations in a row.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProvider } from '../../src/host/create-provider.js';
import * as library from '../../src/index.js';
import { MAX_PAUSED_TURN_CONTINUATIONS } from '../../src/loop/run-agent.js';
import type { Script, ScriptTurn } from '../../src/testing/script-types.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { useMockLlmServer } from '../helpers/mock-llm.js';
import { repoRoot } from '../helpers/project.js';
import { recordingApprover } from '../helpers/recording-approver.js';

const catalogServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'discovery', 'catalog-server.mjs'));
const TARGET = 'catalog__github_create_issue';

const keepsPausing: ScriptTurn = { toolSearch: { query: 'github issue' }, pauseTurn: true };

const script: Script = {
  scenarios: [
    {
      match: 'pauses once',
      turns: [
        { toolSearch: { query: 'github create issue' }, pauseTurn: true },
        { toolCalls: [{ name: TARGET, arguments: { owner: 'octo', repo: 'demo', title: 'Found after a pause' } }] },
        { text: 'Done: {{lastToolResult}}' },
      ],
    },
    {
      match: 'keeps pausing',
      turns: [...Array.from({ length: MAX_PAUSED_TURN_CONTINUATIONS + 1 }, () => keepsPausing), { text: 'never' }],
    },
  ],
};

type Body = Record<string, unknown>;

describe("a paused turn of Anthropic's native tool search", () => {
  const mock = useMockLlmServer({ script });

  async function hostFor(stream: boolean, maxTurns?: number) {
    const sink = library.createMemoryAuditSink();
    const { approver, asked } = recordingApprover('allow-once');
    const provider = await createProvider('anthropic:claude-sonnet-4-6', {
      baseUrl: mock.url,
      env: { ANTHROPIC_API_KEY: 'test-key' },
      cwd: repoRoot,
      maxRetries: 0,
    });
    const host = await library.createHost({
      config: hostConfig([stdioServer('catalog', [catalogServer])], { toolDiscovery: 'auto' }),
      provider,
      approver,
      auditSink: sink,
      trustStore: library.TrustStore.inMemory(),
      stream,
      ...(maxTurns === undefined ? {} : { maxTurns }),
    });
    return { host, sink, asked };
  }

  function messageBodies(): Body[] {
    return mock.requests.filter((request) => /^\/v1\/messages/.test(request.path)).map((r) => r.body as Body);
  }

  const blockTypes = (message: Body) => (message.content as Body[]).map((block) => block.type);

  for (const stream of [true, false]) {
    it(`sends the paused answer back as it came and goes on to the call (${stream ? 'streamed' : 'whole'})`, async () => {
      // Two turns at most: the continuation must not count, or the run would stop after the call.
      const { host, sink, asked } = await hostFor(stream, 2);
      try {
        const events: library.AgentEvent[] = [];
        const result = await host.run('This search pauses once', { onEvent: (event) => events.push(event) });

        expect(result.stopReason).toBe('end');
        expect(result.text).toContain('Found after a pause');
        expect(result.turns).toBe(3);
        const responses = events.filter((event) => event.type === 'model-response');
        expect(responses.map((event) => event.stopReason)).toEqual(['paused', 'tool-calls', 'end']);
        // Nothing ran on the paused turn; the one call ran on the next, through consent and into the audit.
        const started = events.filter((event) => event.type === 'tool-call-start');
        expect(started.map((event) => [event.turn, event.name])).toEqual([[2, TARGET]]);
        expect(asked).toEqual([TARGET]);
        const calls = sink.records.filter((record) => record.type === 'tool-call');
        expect(calls).toEqual([expect.objectContaining({ tool: TARGET, decision: 'allow', outcome: 'ok' })]);

        const [, continued, afterCall] = messageBodies();
        // The continuation request ends with the paused answer, its search blocks in place.
        const continuedMessages = continued!.messages as Body[];
        expect(continuedMessages.map((message) => message.role)).toEqual(['user', 'assistant']);
        expect(blockTypes(continuedMessages[1]!)).toEqual(['server_tool_use', 'tool_search_tool_result']);
        const [search, found] = continuedMessages[1]!.content as Body[];
        expect(search!.input).toEqual({ query: 'github create issue' });
        expect(found!.tool_use_id).toBe(search!.id);
        const references = ((found!.content as Body).tool_references as Body[]).map((entry) => entry.tool_name);
        expect(references).toContain(TARGET);
        // The paused answer and its continuation stay two assistant messages (the API joins them), then the result.
        const afterCallMessages = afterCall!.messages as Body[];
        expect(afterCallMessages.map((message) => message.role)).toEqual(['user', 'assistant', 'assistant', 'user']);
        expect(afterCallMessages[1]).toEqual(continuedMessages[1]);
        expect(blockTypes(afterCallMessages[2]!)).toEqual(['tool_use']);
        expect(blockTypes(afterCallMessages[3]!)).toEqual(['tool_result']);
      } finally {
        await host.close();
      }
    }, 60_000);
  }

  it(`ends the run with an error when the turn is paused more than ${MAX_PAUSED_TURN_CONTINUATIONS} times in a row`, async () => {
    const { host, sink } = await hostFor(true);
    try {
      await expect(host.run('This search keeps pausing')).rejects.toThrow(
        `anthropic paused its turn ${MAX_PAUSED_TURN_CONTINUATIONS + 1} times in a row (a server-side tool kept running); the host continues a paused turn at most ${MAX_PAUSED_TURN_CONTINUATIONS} times in a row`,
      );
      const bodies = messageBodies();
      expect(bodies).toHaveLength(MAX_PAUSED_TURN_CONTINUATIONS + 1);
      // Each continuation sent every paused answer before it back.
      expect((bodies.at(-1)!.messages as Body[]).map((message) => message.role)).toEqual([
        'user',
        ...Array.from({ length: MAX_PAUSED_TURN_CONTINUATIONS }, () => 'assistant'),
      ]);
      expect(sink.records.filter((record) => record.type === 'tool-call')).toEqual([]);
    } finally {
      await host.close();
    }
  }, 60_000);
});
