/**
 * `mcp-host tools list --tokens` (the command line, run in the test worker): what each tool definition costs on
 * every request, per tool and per server, in the tool format of the chosen model's provider
 * (OpenAI Chat when no model is chosen), offline. The numbers must be the library's own estimate
 * for the definitions the host would send. Both configured servers are connections to one copy of
 * the shuffled-tools server over Streamable HTTP, started once for the file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaTarget } from '../../../src/providers/schema/index.js';
import { estimateToolTokens } from '../../../src/providers/token-estimate/index.js';
import type { ToolDefinition } from '../../../src/providers/types.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { writeConfig } from '../../helpers/project.js';
import {
  type HttpFixtureServer,
  PROVIDER_WIRES,
  SERVER_NAME,
  startFixtureHost,
  startShuffledToolsOverHttp,
} from './provider-wires.js';

interface TokensJson {
  format: SchemaTarget;
  model?: string;
  tools: { name: string; server: string; tool: string; tokens: number }[];
  servers: { name: string; tools: number; tokens: number }[];
  totalTokens: number;
}

describe('mcp-host tools list --tokens', () => {
  let server: HttpFixtureServer | undefined;
  let config: string;
  let definitions: ToolDefinition[];
  /** The total each `--json` run reported, by tool format. */
  const totals = new Map<SchemaTarget, number>();

  beforeAll(async () => {
    server = await startShuffledToolsOverHttp();
    config = await writeConfig({
      mcpServers: { [SERVER_NAME]: { url: server.url }, other: { url: server.url } },
    });
    // The definitions a host sends for one such server (no model is needed to list them).
    const fixture = await startFixtureHost(PROVIDER_WIRES.anthropic, 'http://127.0.0.1:9', { serverUrl: server.url });
    try {
      definitions = fixture.host.toolDefinitions();
    } finally {
      await fixture.close();
    }
  });

  afterAll(async () => {
    await server?.close();
  });

  function expected(target: SchemaTarget, server: string): Map<string, number> {
    return new Map(
      definitions.map((definition) => {
        const name = definition.name.replace(`${SERVER_NAME}__`, `${server}__`);
        return [name, estimateToolTokens({ ...definition, name }, target)];
      }),
    );
  }

  it.each([
    { label: 'no model: the OpenAI Chat format', args: [], env: {}, format: 'openai-chat', model: undefined },
    {
      label: '--model anthropic:…',
      args: ['--model', 'anthropic:claude-test'],
      env: {},
      format: 'anthropic',
      model: 'anthropic:claude-test',
    },
    {
      label: 'the model a key picks (gemini)',
      args: [],
      env: { GEMINI_API_KEY: 'test-key' },
      format: 'gemini',
      model: 'gemini:gemini-2.5-flash',
    },
    {
      label: '--model ollama:…',
      args: ['--model', 'ollama:qwen3'],
      env: {},
      format: 'openai-compatible',
      model: 'ollama:qwen3',
    },
  ] as const)('--json with $label', async ({ args, env, format, model }) => {
    const result = await runCliInProcess(['tools', 'list', '--tokens', '--json', '--config', config, ...args], {
      env: { ...env } as Record<string, string>,
    });
    expect(result.code, result.stderr).toBe(0);
    const output = JSON.parse(result.stdout) as TokensJson;
    expect(output.format).toBe(format);
    expect(output.model).toBe(model);
    expect(output.tools).toHaveLength(2 * definitions.length);
    const perTool = new Map(output.tools.map((tool) => [tool.name, tool.tokens]));
    const wanted = new Map([...expected(format, SERVER_NAME), ...expected(format, 'other')]);
    expect(perTool).toEqual(wanted);
    for (const tokens of perTool.values()) expect(tokens).toBeGreaterThan(10);
    const serverTotal = [...expected(format, SERVER_NAME).values()].reduce((sum, tokens) => sum + tokens, 0);
    expect(output.servers).toEqual([
      { name: 'other', tools: definitions.length, tokens: serverTotal },
      { name: SERVER_NAME, tools: definitions.length, tokens: serverTotal },
    ]);
    expect(output.totalTokens).toBe(2 * serverTotal);
    totals.set(format, output.totalTokens);
  });

  it('the formats really differ (Gemini describes what it cannot take, Anthropic keeps it)', () => {
    // The totals the runs above reported for the two formats.
    expect(totals.get('gemini')).toEqual(expect.any(Number));
    expect(totals.get('anthropic')).toEqual(expect.any(Number));
    expect(totals.get('gemini')).not.toBe(totals.get('anthropic'));
  });

  it('prints one line per tool, one per server and a total', async () => {
    const result = await runCliInProcess(['tools', 'list', '--tokens', '--config', config]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const wanted = expected('openai-chat', SERVER_NAME);
    const serverTotal = [...wanted.values()].reduce((sum, tokens) => sum + tokens, 0);
    for (const [name, tokens] of wanted) {
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${name}  ${tokens} tokens  `)));
    }
    expect(lines).toContain(`server ${SERVER_NAME}: ${definitions.length} tools, ${serverTotal} tokens`);
    expect(lines).toContain(`server other: ${definitions.length} tools, ${serverTotal} tokens`);
    expect(lines.at(-1)).toBe(
      `total: ${2 * definitions.length} tools, ${2 * serverTotal} tokens (estimated offline for the openai-chat tool format)`,
    );
  });
});
