/**
 * "Tools array hash identical across 10 reconnects while the servers answer tools/list in shuffled
 * order": providers cache prompts by exact prefix (tools, then system), so a host that sends its
 * tools in the order a server happened to list them pays for the whole prompt on every request.
 * A host is started 10 times against a real MCP server (one process, over Streamable HTTP, each host
 * a new connection) that shuffles its tools (and their keys) on every tools/list; each of those hosts
 * runs once through every provider's official SDK against the mock LLM server (so every provider sees
 * all 10 listings), and each provider's test hashes the tools and system parts of the request bodies
 * the mock recorded on its route.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../../src/host/create-provider.js';
import type { LlmProvider } from '../../../src/providers/types.js';
import {
  type MockLlmServer,
  parseScript,
  type RecordedRequest,
  startMockLlmServer,
} from '../../../src/testing/index.js';
import { repoRoot, temporaryDirectory } from '../../helpers/project.js';
import {
  type HttpFixtureServer,
  hashJson,
  PROVIDER_WIRES,
  SERVER_NAME,
  startFixtureHost,
  startShuffledToolsOverHttp,
} from './provider-wires.js';

const RECONNECTS = 10;
const WIRES = ['anthropic', 'openai-chat', 'openai-responses', 'gemini'] as const;

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
  let server: HttpFixtureServer | undefined;
  let logDirectory: string;
  let shuffleLog: string;
  /** Per provider: what each of its runs ended with, and the requests it sent. */
  const runs = new Map<string, { stopReason: string; text: string; message?: string }[]>();
  const requests = new Map<string, RecordedRequest[]>();

  beforeAll(async () => {
    mock = await startMockLlmServer({ script });
    logDirectory = await temporaryDirectory('mcp-host-shuffle-log-');
    shuffleLog = join(logDirectory, 'orders.jsonl');
    server = await startShuffledToolsOverHttp({ SHUFFLE_LOG: shuffleLog });
    const providers = new Map<string, LlmProvider>();
    for (const name of WIRES) {
      const wire = PROVIDER_WIRES[name];
      providers.set(
        name,
        await createProvider(wire.model, { baseUrl: wire.baseUrl(mock.url), env: { ...wire.env }, cwd: repoRoot }),
      );
      runs.set(name, []);
      requests.set(name, []);
    }
    for (let attempt = 0; attempt < RECONNECTS; attempt += 1) {
      const fixture = await startFixtureHost(PROVIDER_WIRES.anthropic, mock.url, { serverUrl: server.url });
      try {
        for (const name of WIRES) {
          mock.requests.length = 0;
          const result = await fixture.host.run(`Echo hello${attempt}`, { provider: providers.get(name) });
          runs.get(name)?.push({ stopReason: result.stopReason, text: result.text, message: result.message });
          requests.get(name)?.push(...mock.requests);
        }
      } finally {
        await fixture.close();
      }
    }
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    await mock?.close();
    if (logDirectory) await rm(logDirectory, { recursive: true, force: true });
  });

  it('the server really did answer in different orders', async () => {
    const orders = (await readFile(shuffleLog, 'utf8')).trim().split('\n');
    expect(orders.length).toBeGreaterThanOrEqual(RECONNECTS);
    expect(new Set(orders).size).toBeGreaterThan(1);
  });

  for (const name of WIRES) {
    it(`${name}: ${RECONNECTS} hosts, one run each`, () => {
      const wire = PROVIDER_WIRES[name];
      runs.get(name)?.forEach((result, attempt) => {
        expect(result.stopReason, result.message).toBe('end');
        // The fixture echoes the arguments it received.
        expect(result.text).toBe(`It said {"text":"hello${attempt}"}.`);
      });
      expect(runs.get(name)).toHaveLength(RECONNECTS);

      // Two requests per run (the call, then the answer), all through the provider's own route.
      const recorded = requests.get(name) ?? [];
      expect(recorded).toHaveLength(RECONNECTS * 2);
      for (const request of recorded) expect(request.path.split('?')[0]).toMatch(wire.route);
      const bodies = recorded.map((request) => request.body as Record<string, unknown>);
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
