/**
 * The lifecycle the whole design follows, end to end: the real @anthropic-ai/sdk talking HTTP to
 * the mock LLM server, the real calculator over stdio, each translation asserted where it happens.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import type { AgentEvent } from '../../src/loop/events.js';
import { loadScript } from '../../src/testing/load-script.js';
import { type MockLlmServer, startMockLlmServer } from '../../src/testing/mock-llm/mock-llm-server.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { exampleServer, repoRoot, runCli, temporaryDirectory, writeConfig } from '../helpers/project.js';

let mock: MockLlmServer;

beforeAll(async () => {
  mock = await startMockLlmServer({
    script: await loadScript(join(repoRoot, 'examples/scripts/five-plus-seven.json')),
  });
});

afterAll(async () => {
  await mock?.close();
});

async function openHost(stream: boolean): Promise<Host> {
  return createHost({
    config: {
      servers: [
        {
          name: 'calculator',
          transport: 'stdio',
          command: process.execPath,
          args: [exampleServer('calculator')],
          env: {},
          cwd: repoRoot,
          trust: 'trusted',
          timeoutMs: 10_000,
          disabled: false,
          versionNegotiation: 'legacy',
        },
      ],
      permissions: { allow: [], ask: [], deny: [] },
      secrets: [],
      warnings: [],
    },
    model: 'anthropic:claude-sonnet-4-6',
    baseUrl: mock.url,
    env: { ANTHROPIC_API_KEY: 'test-key' },
    stream,
  });
}

describe.each([
  ['streaming', true],
  ['non-streaming', false],
])('five plus seven through Anthropic (%s)', (_label, stream) => {
  it('asserts every translation of the lifecycle', async () => {
    mock.requests.length = 0;
    const host = await openHost(stream);
    const events: AgentEvent[] = [];
    try {
      const result = await host.run('What is 5 plus 7?', { onEvent: (event) => events.push(event) });

      // Translation #1: the tool list the provider received.
      expect(mock.requests).toHaveLength(2);
      const first = mock.requests[0]!.body as {
        stream?: boolean;
        tools: Array<{ name: string; input_schema: Record<string, unknown> }>;
      };
      expect(Boolean(first.stream)).toBe(stream);
      const add = first.tools.find((tool) => tool.name === 'calculator__add_numbers');
      expect(add).toBeDefined();
      expect(add!.input_schema.type).toBe('object');
      expect(add!.input_schema).not.toHaveProperty('$schema');
      expect(Object.keys(add!.input_schema.properties as object).sort()).toEqual(['a', 'b']);

      // Translation #2: the tools/call sent to the calculator.
      const request = events.find((event) => event.type === 'tool-call-request');
      expect(request).toMatchObject({ server: 'calculator', tool: 'add_numbers', arguments: { a: 5, b: 7 } });
      const end = events.find((event) => event.type === 'tool-call-end');
      expect(end).toMatchObject({ outcome: 'ok', rawResult: { content: [{ type: 'text', text: '12' }] } });

      // Translation #3: one user message, tool_result first, text 12, no error flag.
      const second = mock.requests[1]!.body as { messages: Array<{ role: string; content: unknown }> };
      const last = second.messages.at(-1)!;
      expect(last.role).toBe('user');
      expect(second.messages.at(-2)!.role).toBe('assistant');
      const blocks = last.content as Array<Record<string, unknown>>;
      expect(blocks[0]).toMatchObject({ type: 'tool_result' });
      expect(blocks[0]!.is_error ?? false).toBe(false);
      const toolUse = (second.messages.at(-2)!.content as Array<Record<string, unknown>>).find(
        (block) => block.type === 'tool_use',
      );
      expect(blocks[0]!.tool_use_id).toBe(toolUse!.id);
      expect(JSON.stringify(blocks[0]!.content)).toContain('12');

      // The final answer carries the tool's result.
      expect(result.stopReason).toBe('end');
      expect(result.text).toContain('12');
      if (stream) expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    } finally {
      await host.close();
    }
  });
});

describe('five plus seven through the CLI', () => {
  it('prints the answer computed by the tool, with a trace in lifecycle order', async () => {
    const config = await writeConfig({
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' } },
    });
    const result = await runCliInProcess(
      [
        'run',
        '--config',
        config,
        '--model',
        'anthropic:claude-sonnet-4-6',
        '--base-url',
        mock.url,
        '--trace',
        'What is 5 plus 7?',
      ],
      { env: { ANTHROPIC_API_KEY: 'test-key' } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('12');
    const order = [
      'discovery',
      'translation #1',
      "the model's decision",
      'translation #2',
      '── result',
      'translation #3',
      'final answer',
    ].map((title) => result.stderr.indexOf(title));
    expect(
      order.every((position) => position >= 0),
      result.stderr,
    ).toBe(true);
    expect([...order].sort((left, right) => left - right)).toEqual(order);
  });

  it('runs the README command offline with the scripted model', async () => {
    // The command as the README gives it, in a process of its own; the other CLI runs here use the same program in
    // the test worker.
    const result = await runCli(['run', '--config', 'examples/mcp-host.json', 'What is 5 plus 7?']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\b12\b/);
    expect(result.stderr).toContain('scripted model');
    expect(result.stderr).toContain('--model');
  });

  it('answers each question of a chat, and of the chat continued, with no provider key', async () => {
    const stateDir = await temporaryDirectory('mcp-host-state-');
    // The chat as a user types it (a real process): a sum, something the script does not know, another sum.
    const chat = await runCli(['chat', '--config', 'examples/mcp-host.json'], {
      stateDir,
      input: 'What is 5 plus 7?\nHello there\nWhat is 2 plus 40?\n',
      timeoutMs: 60_000,
    });
    expect(chat.code, chat.stderr).toBe(0);
    const answers = ['5 plus 7 is 12.', 'This is the offline scripted model', '2 plus 40 is 42.'];
    const places = answers.map((answer) => chat.stdout.indexOf(answer));
    expect(
      places.every((place) => place >= 0),
      chat.stdout,
    ).toBe(true);
    expect([...places].sort((left, right) => left - right)).toEqual(places);
    // Continued, the conversation so far is sent again, and the new question is still the one answered.
    const continued = await runCliInProcess(['chat', '--continue', '--config', 'examples/mcp-host.json'], {
      stateDir,
      input: 'What is 10 plus 5?\n',
    });
    expect(continued.code, continued.stderr).toBe(0);
    expect(continued.stdout).toContain('(resumed: ');
    expect(continued.stdout).toContain('10 plus 5 is 15.');
  }, 120_000);

  it('writes the transcript as JSON with --json', async () => {
    const result = await runCliInProcess(['run', '--json', '--config', 'examples/mcp-host.json', 'What is 2 plus 40?']);
    expect(result.code, result.stderr).toBe(0);
    const transcript = JSON.parse(result.stdout) as {
      text: string;
      toolCalls: Array<{ name: string; outcome: string }>;
    };
    expect(transcript.text).toContain('42');
    expect(transcript.toolCalls).toEqual([expect.objectContaining({ name: 'calculator__add_numbers', outcome: 'ok' })]);
  });
});
