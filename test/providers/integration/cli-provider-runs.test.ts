/**
 * The `mcp-host` command line, run in the test worker, against the mock LLM server.
 * With no --model and no model in the config, the provider is picked by the key in the
 * environment, and the run really goes through that provider's SDK and wire; with no key at all,
 * the run is a usage error (exit 2). `run --json` carries the usage the provider reported. The
 * runs share one copy of the shuffled-tools server, over Streamable HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockLlmServer, parseScript, startMockLlmServer } from '../../../src/testing/index.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { writeConfig } from '../../helpers/project.js';
import { type HttpFixtureServer, SERVER_NAME, startShuffledToolsOverHttp } from './provider-wires.js';

const script = parseScript({
  scenarios: [
    {
      match: 'Echo (\\w+)',
      turns: [
        { toolCalls: [{ name: `${SERVER_NAME}__echo`, arguments: { text: '{{match.1}}' } }] },
        { expect: { lastToolResultIsError: false }, text: 'It said {{lastToolResult}}.' },
      ],
    },
  ],
});

interface RunJson {
  model: string;
  stopReason: string;
  text: string;
  turns: number;
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number };
}

const keyCases = [
  {
    key: 'ANTHROPIC_API_KEY',
    model: 'anthropic:claude-sonnet-4-6',
    baseUrl: (url: string) => url,
    route: /^\/v1\/messages$/,
  },
  {
    key: 'OPENAI_API_KEY',
    model: 'openai:gpt-5',
    baseUrl: (url: string) => `${url}/v1`,
    route: /^\/v1\/chat\/completions$/,
  },
  {
    key: 'GEMINI_API_KEY',
    model: 'gemini:gemini-2.5-flash',
    baseUrl: (url: string) => url,
    route: /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent$/,
  },
  {
    key: 'GOOGLE_API_KEY',
    model: 'gemini:gemini-2.5-flash',
    baseUrl: (url: string) => url,
    route: /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent$/,
  },
];

describe('mcp-host run: the model picked from the key in the environment, usage in --json', () => {
  let mock: MockLlmServer;
  let server: HttpFixtureServer | undefined;
  let config: string;

  beforeAll(async () => {
    mock = await startMockLlmServer({ script });
    server = await startShuffledToolsOverHttp();
    config = await writeConfig({
      mcpServers: { [SERVER_NAME]: { url: server.url, trust: 'trusted' } },
      permissions: { allow: [`${SERVER_NAME}__*`] },
    });
  });

  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  beforeEach(() => {
    mock.requests.length = 0;
  });

  for (const { key, model, baseUrl, route } of keyCases) {
    it(`${key} alone picks ${model}`, async () => {
      const result = await runCliInProcess(
        ['run', 'Echo hello', '--json', '--config', config, '--base-url', baseUrl(mock.url)],
        {
          env: { [key]: 'test-key' },
        },
      );
      expect(result.code, result.stderr).toBe(0);
      const output = JSON.parse(result.stdout) as RunJson;
      expect(output.model).toBe(model);
      expect(output.stopReason).toBe('end');
      expect(output.turns).toBe(2);
      expect(output.text).toBe('It said {"text":"hello"}.');
      // The run went through that provider's wire: two requests (the call, then the answer).
      expect(mock.requests.map((request) => request.path.split('?')[0])).toEqual([
        expect.stringMatching(route),
        expect.stringMatching(route),
      ]);
      // The usage the mock wire reported for both turns, added up.
      expect(output.usage.inputTokens).toBeGreaterThanOrEqual(2);
      expect(output.usage.outputTokens).toBeGreaterThanOrEqual(2);
      expect(Number.isInteger(output.usage.inputTokens)).toBe(true);
      if (key === 'ANTHROPIC_API_KEY') {
        // The Anthropic wire reports ceil(prompt length / 4) + 20 per tool + 40 per earlier assistant
        // turn as input: (3 + 7 × 20) for the first request, (3 + 7 × 20 + 40) for the second.
        expect(output.usage).toEqual({
          inputTokens: 143 + 183,
          outputTokens: expect.any(Number),
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        });
      }
    });
  }

  it('the first key in the documented order wins when several are set', async () => {
    const result = await runCliInProcess(
      ['run', 'Echo both', '--json', '--config', config, '--base-url', `${mock.url}/v1`],
      {
        env: { OPENAI_API_KEY: 'test-key', GEMINI_API_KEY: 'test-key' },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as RunJson).model).toBe('openai:gpt-5');
    expect(mock.requests).toHaveLength(2);
  });

  it('with no key and no model: exit 2, naming the ways to configure one, and nothing sent', async () => {
    const result = await runCliInProcess(['run', 'Echo nobody', '--json', '--config', config, '--base-url', mock.url]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('no model is configured');
    for (const way of ['--model', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY', 'ollama', 'scripted']) {
      expect(result.stderr).toContain(way);
    }
    expect(mock.requests).toHaveLength(0);
  });

  // The config's strictTools reaches each OpenAI adapter: strict mode and its schema rewrite only when set.
  for (const { model, route } of [
    { model: 'openai:gpt-5', route: '/v1/chat/completions' },
    { model: 'openai-responses:gpt-5', route: '/v1/responses' },
  ]) {
    it(`${model}: "strictTools": true asks for strict tools, and only then`, async () => {
      const searchToolOf = async (strictTools: boolean | undefined) => {
        const strictConfig = await writeConfig({
          mcpServers: { [SERVER_NAME]: { url: server?.url, trust: 'trusted' } },
          permissions: { allow: [`${SERVER_NAME}__*`] },
          ...(strictTools === undefined ? {} : { strictTools }),
        });
        mock.requests.length = 0;
        const result = await runCliInProcess(
          ['run', 'Echo strict', '--model', model, '--config', strictConfig, '--base-url', `${mock.url}/v1`],
          { env: { OPENAI_API_KEY: 'test-key' } },
        );
        expect(result.code, result.stderr).toBe(0);
        const first = mock.requests[0];
        if (first === undefined) throw new Error(`${model} sent nothing`);
        expect(first.path).toBe(route);
        const tools = (first.body as { tools: Array<Record<string, unknown>> }).tools;
        // Chat nests the definition under `function`; Responses has it flat.
        const definitions = tools.map((tool) => (tool.function ?? tool) as Record<string, unknown>);
        return definitions.find((tool) => tool.name === `${SERVER_NAME}__search`) as {
          strict?: boolean;
          parameters: { required?: string[]; additionalProperties?: boolean };
        };
      };

      const strict = await searchToolOf(true);
      expect(strict.strict).toBe(true);
      // The strict rewrite: the object closed, every optional property required (and nullable).
      expect(strict.parameters.additionalProperties).toBe(false);
      expect([...(strict.parameters.required ?? [])].sort()).toEqual(['exact', 'limit', 'query']);

      for (const setting of [undefined, false]) {
        const plain = await searchToolOf(setting);
        expect(plain.strict === undefined || plain.strict === false, JSON.stringify(plain)).toBe(true);
        expect(plain.parameters.required).toEqual(['query']);
      }
    });
  }
});
