/**
 * "Tools array hash identical across 10 reconnects while the servers answer tools/list in shuffled
 * order": providers cache prompts by exact prefix (tools, then system), so a host that sends its
 * tools in the order a server happened to list them pays for the whole prompt on every request.
 * Each test starts a host 10 times against a real stdio server that shuffles its tools (and their
 * keys) on every tools/list, runs once through the provider's official SDK against the mock LLM
 * server, and hashes the tools and system parts of every request body the mock recorded.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockLlmServer, parseScript, startMockLlmServer } from '../../../src/testing/index.js';
import { temporaryDirectory } from '../../helpers/project.js';
import { hashJson, PROVIDER_WIRES, SERVER_NAME, startFixtureHost } from './provider-wires.js';

const RECONNECTS = 10;

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

describe('the tools prefix is byte-identical whatever order the server lists its tools in', () => {
  let mock: MockLlmServer;
  let logDirectory: string;

  beforeAll(async () => {
    mock = await startMockLlmServer({ script });
    logDirectory = await temporaryDirectory('mcp-host-shuffle-log-');
  });

  afterAll(async () => {
    await mock?.close();
    if (logDirectory) await rm(logDirectory, { recursive: true, force: true });
  });

  for (const name of ['anthropic', 'openai-chat', 'openai-responses', 'gemini'] as const) {
    it(`${name}: ${RECONNECTS} hosts, one run each`, { timeout: 180_000 }, async () => {
      const wire = PROVIDER_WIRES[name];
      mock.requests.length = 0;
      const shuffleLog = join(logDirectory, `${name}.jsonl`);
      for (let attempt = 0; attempt < RECONNECTS; attempt += 1) {
        const fixture = await startFixtureHost(wire, mock.url, { shuffleLog });
        try {
          const result = await fixture.host.run(`Echo hello${attempt}`);
          expect(result.stopReason, result.message).toBe('end');
          // The fixture echoes the arguments it received.
          expect(result.text).toBe(`It said {"text":"hello${attempt}"}.`);
        } finally {
          await fixture.close();
        }
      }

      // The server really did answer in different orders.
      const orders = (await readFile(shuffleLog, 'utf8')).trim().split('\n');
      expect(orders.length).toBeGreaterThanOrEqual(RECONNECTS);
      expect(new Set(orders).size).toBeGreaterThan(1);

      // Two requests per run (the call, then the answer), all through the provider's own route.
      expect(mock.requests).toHaveLength(RECONNECTS * 2);
      for (const request of mock.requests) expect(request.path.split('?')[0]).toMatch(wire.route);
      const bodies = mock.requests.map((request) => request.body as Record<string, unknown>);
      const toolHashes = new Set(bodies.map((body) => hashJson(wire.toolsOf(body))));
      const systemHashes = new Set(bodies.map((body) => hashJson(wire.systemOf(body))));
      expect(toolHashes.size).toBe(1);
      expect(systemHashes.size).toBe(1);
      // Not vacuous: every tool of the server was offered, and the system prompt was sent.
      const toolsText = JSON.stringify(wire.toolsOf(bodies[0] ?? {}));
      for (const tool of ['add', 'echo', 'move', 'pick', 'ping', 'search', 'tag']) {
        expect(toolsText).toContain(`"${SERVER_NAME}__${tool}"`);
      }
      expect(JSON.stringify(wire.systemOf(bodies[0] ?? {}))).toContain('You help with the shop.');
    });
  }
});
