/**
 * Compaction: a 200-turn conversation with a scripted model stays under the configured window; older turns become
 * the model's summary, older long tool results become stored references the model can read back, and the system
 * prompt, the tools array and the kept turns are byte-identical in the requests before and after.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/parse-config.js';
import { estimateTokens } from '../../src/content/linear-token-estimate.js';
import { createHost, type Host } from '../../src/host/create-host.js';
import type { LlmProvider, Message, ModelRequest } from '../../src/providers/types.js';
import { isSummary } from '../../src/sessions/compact-transcript.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { fixtureServer, temporaryDirectory } from '../helpers/project.js';

const WINDOW = 6_000;

// The scripted model answers from the current turn only (the script engine picks its answer by the number of
// assistant messages, which compaction changes); the provider-request events still carry the whole request.
const scripted = createScriptedProvider({
  fallbackText: 'Noted.',
  scenarios: [
    { match: '^Summarise the conversation', turns: [{ text: 'The user sent numbered notes and fetched results.' }] },
    {
      match: '^fetch',
      turns: [{ toolCalls: [{ name: 'big__big_text', arguments: { megabytes: 0.0025 } }] }, { text: 'Fetched it.' }],
    },
  ],
});
const model: LlmProvider = {
  provider: 'scripted',
  model: 'window-test',
  generate(request, options = {}) {
    let start = request.messages.length - 1;
    while (start > 0 && request.messages[start]!.role !== 'user') start -= 1;
    return scripted.generate(
      { ...request, messages: request.messages.slice(start) },
      { ...options, onProviderRequest: () => options.onProviderRequest?.(structuredClone(request)) },
    );
  },
};

let stateDir: string;
let host: Host;

beforeAll(async () => {
  stateDir = await temporaryDirectory();
  host = await createHost({
    config: hostConfig([stdioServer('big', [fixtureServer('big-result.mjs')])], {
      permissions: { allow: ['big__*'], ask: [], deny: [] },
      contextTokens: WINDOW,
    }),
    provider: model,
    system: 'You are a patient note taker.',
    stateDir,
    auditSink: false,
  });
});

afterAll(async () => {
  await host?.close();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

describe('a long conversation', () => {
  it('stays under the window, and compaction keeps system prompt, tools and last turns byte-stable', async () => {
    const conversation = await host.conversation();
    const bodies: ModelRequest[] = [];
    let compactions = 0;
    for (let index = 1; index <= 200; index += 1) {
      const before = JSON.stringify(conversation.history);
      const beforeSummary = conversation.history[0];
      const text = index % 10 === 0 ? `fetch result ${index}` : `note ${index}: ${'some words of the note '.repeat(8)}`;
      for await (const event of conversation.send(text)) {
        if (event.type === 'provider-request') bodies.push(event.body as ModelRequest);
        if (event.type === 'run-end') expect(event.stopReason).toBe('end');
      }
      const history = conversation.history;
      if (isSummary(history[0]!) && history[0] !== beforeSummary) {
        compactions += 1;
        // The kept turns are exactly the last turns of the transcript before: same bytes.
        const kept = history.slice(
          2,
          history.findLastIndex((message) => message.role === 'user'),
        );
        expect(before.endsWith(`${JSON.stringify(kept).slice(1, -1)}]`)).toBe(true);
      }
    }
    expect(compactions).toBeGreaterThanOrEqual(3);
    for (const body of bodies) expect(estimateTokens(JSON.stringify(body))).toBeLessThanOrEqual(WINDOW);
    // One system prompt and one tools array, in every request of the 200 turns, compactions or not.
    expect(new Set(bodies.map((body) => body.system)).size).toBe(1);
    expect(new Set(bodies.map((body) => JSON.stringify(body.tools))).size).toBe(1);
    expect(bodies[0]!.tools.map((tool) => tool.name)).toContain('mcp-host__read_stored_result');

    // Older long tool results are stored references in the summary, readable through the host's tool.
    const summaryText = (conversation.history[0] as Extract<Message, { role: 'user' }>).content[0]!;
    const reference = /(res_[A-Za-z0-9_-]{24}): result of big__big_text/.exec(
      summaryText.type === 'text' ? summaryText.text : '',
    );
    expect(reference).not.toBeNull();
    const read = await host.callTool('mcp-host__read_stored_result', { id: reference![1], offset: 0, length: 40 });
    expect(JSON.stringify(read.result.content)).toContain('BEGIN big result');

    // On demand, and saved: a resumed session has the compacted transcript.
    const forced = await conversation.compact();
    expect(forced.afterTokens).toBeLessThan(forced.beforeTokens);
    const resumed = await host.conversation({ sessionId: conversation.id });
    expect(resumed.history).toEqual(conversation.history);
  }, 120_000);
});

describe('contextTokens in the config', () => {
  it('is read as a positive count of tokens, and refused otherwise', () => {
    expect(validateConfig({ mcpServers: {}, contextTokens: 32000 }).contextTokens).toBe(32000);
    expect(() => validateConfig({ mcpServers: {}, contextTokens: 0 })).toThrow(/contextTokens/);
  });
});
