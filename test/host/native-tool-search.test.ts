/**
 * Native deferred tool loading: with a catalog above the discovery threshold (300+ tools of real servers' published
 * lists, served by a real MCP server over stdio), a model whose provider searches deferred tools itself gets every
 * definition with `defer_loading` plus the provider's search tool instead of the host's meta-tools. The official
 * SDKs talk HTTP to the mock LLM server, which runs the search, answers with its wire's search blocks or items, and
 * refuses a later request that does not send them back. The found tool is called by its own name, through consent
 * and into the audit. Gemini and OpenAI-compatible servers keep the meta-tools.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProvider } from '../../src/host/create-provider.js';
import * as library from '../../src/index.js';
import type { Script } from '../../src/testing/script-types.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { useMockLlmServer } from '../helpers/mock-llm.js';
import { repoRoot } from '../helpers/project.js';
import { recordingApprover } from '../helpers/recording-approver.js';

const catalogServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'discovery', 'catalog-server.mjs'));
const TARGET = 'catalog__github_create_issue';

const script: Script = {
  scenarios: [
    {
      match: 'native',
      turns: [
        {
          toolSearch: { query: 'github create issue' },
          toolCalls: [{ name: TARGET, arguments: { owner: 'octo', repo: 'demo', title: 'Found natively' } }],
        },
        { text: 'Done: {{lastToolResult}}' },
      ],
    },
    {
      match: 'meta',
      turns: [
        { toolCalls: [{ name: 'search_tools', arguments: { query: 'create an issue in a github repository' } }] },
        { text: 'Found: {{lastToolResult}}' },
      ],
    },
  ],
};

type Body = Record<string, unknown>;

describe('native tool search for large catalogs', () => {
  const mock = useMockLlmServer({ script });

  async function hostFor(spec: string, baseUrl: string, extra: Partial<library.HostConfig> = {}, stream = true) {
    const sink = library.createMemoryAuditSink();
    const { approver, asked } = recordingApprover('allow-once');
    const provider = await createProvider(spec, {
      baseUrl,
      env: { ANTHROPIC_API_KEY: 'test-key', OPENAI_API_KEY: 'test-key', GEMINI_API_KEY: 'test-key' },
      cwd: repoRoot,
      maxRetries: 0,
    });
    const host = await library.createHost({
      config: hostConfig([stdioServer('catalog', [catalogServer])], { toolDiscovery: 'auto', ...extra }),
      provider,
      approver,
      auditSink: sink,
      trustStore: library.TrustStore.inMemory(),
      stream,
    });
    return { host, sink, asked };
  }

  function bodies(route: RegExp): Body[] {
    return mock.requests.filter((request) => route.test(request.path)).map((request) => request.body as Body);
  }

  function expectCalledThroughTheHost(
    result: library.RunResult,
    sink: ReturnType<typeof library.createMemoryAuditSink>,
    asked: string[],
  ): void {
    expect(result.text).toContain('Found natively');
    expect(result.text).toContain('github_create_issue');
    expect(asked).toEqual([TARGET]);
    const calls = sink.records.filter((record) => record.type === 'tool-call');
    expect(calls).toEqual([expect.objectContaining({ tool: TARGET, decision: 'allow', outcome: 'ok' })]);
  }

  for (const stream of [true, false]) {
    it(`Anthropic (${stream ? 'streamed' : 'whole'}): deferred definitions, the server-side search, its blocks sent back`, async () => {
      const { host, sink, asked } = await hostFor('anthropic:claude-sonnet-4-6', mock.url, {}, stream);
      try {
        const result = await host.run('Use the native search to file an issue');
        expectCalledThroughTheHost(result, sink, asked);
        const [first, second] = bodies(/^\/v1\/messages/);
        const tools = first!.tools as Body[];
        expect(tools.length).toBeGreaterThan(300);
        expect(tools.at(-1)).toEqual(
          expect.objectContaining({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }),
        );
        expect(tools.at(-1)).not.toHaveProperty('defer_loading');
        expect(tools.slice(0, -1).every((tool) => tool.defer_loading === true)).toBe(true);
        expect(tools.map((tool) => tool.name)).not.toContain('search_tools');
        // The same bytes on every turn, for the prompt cache.
        expect(JSON.stringify(second!.tools)).toBe(JSON.stringify(first!.tools));
        const assistant = (second!.messages as Body[]).find((message) => message.role === 'assistant');
        const types = (assistant!.content as Body[]).map((block) => block.type);
        expect(types).toEqual(['server_tool_use', 'tool_search_tool_result', 'tool_use']);
        const found = (assistant!.content as Body[])[1]!.content as Body;
        expect((found.tool_references as Body[]).map((reference) => reference.tool_name)).toContain(TARGET);
      } finally {
        await host.close();
      }
    }, 60_000);
  }

  it('OpenAI Responses: deferred functions, the hosted tool_search, its items sent back', async () => {
    const { host, sink, asked } = await hostFor('openai-responses:gpt-5.4', `${mock.url}/v1`);
    try {
      const result = await host.run('Use the native search to file an issue');
      expectCalledThroughTheHost(result, sink, asked);
      const [first, second] = bodies(/^\/v1\/responses$/);
      const tools = first!.tools as Body[];
      expect(tools.at(-1)).toEqual({ type: 'tool_search' });
      expect(tools.slice(0, -1).every((tool) => tool.type === 'function' && tool.defer_loading === true)).toBe(true);
      expect(JSON.stringify(second!.tools)).toBe(JSON.stringify(first!.tools));
      const types = (second!.input as Body[]).map((item) => item.type);
      expect(types).toEqual([
        'message',
        'tool_search_call',
        'tool_search_output',
        'function_call',
        'function_call_output',
      ]);
      const output = (second!.input as Body[])[2]!;
      expect((output.tools as Body[]).map((tool) => tool.name)).toContain(TARGET);
    } finally {
      await host.close();
    }
  }, 60_000);

  const metaToolCases: [string, string, (url: string) => string, Partial<library.HostConfig>, RegExp][] = [
    ['Gemini', 'gemini:gemini-2.5-flash', (url) => url, {}, /generateContent/i],
    ['an OpenAI-compatible server', 'openai-compatible:local-model', (url) => `${url}/v1`, {}, /chat\/completions/],
    [
      'Claude with nativeToolSearch "never"',
      'anthropic:claude-sonnet-4-6',
      (url) => url,
      { nativeToolSearch: 'never' },
      /messages/,
    ],
    ['a Claude model without tool search', 'anthropic:claude-opus-4-1', (url) => url, {}, /messages/],
  ];
  for (const [label, spec, baseUrl, extra, route] of metaToolCases) {
    it(`${label} keeps the host's meta-tools`, async () => {
      const { host } = await hostFor(spec, baseUrl(mock.url), extra);
      try {
        const result = await host.run('Use the meta tools to file an issue');
        expect(result.text).toContain('github_create_issue');
        const sent = JSON.stringify(bodies(route)[0]);
        for (const name of ['search_tools', 'describe_tool', 'call_tool']) expect(sent).toContain(`"${name}"`);
        expect(sent).not.toContain('defer_loading');
        expect(sent).not.toContain(TARGET);
      } finally {
        await host.close();
      }
    }, 60_000);
  }
});
