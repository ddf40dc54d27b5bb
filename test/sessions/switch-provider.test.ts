/**
 * `setModel()` mid-conversation: the neutral transcript, tool call and result included, is translated by the new
 * provider's adapter. Two providers of the mock LLM server through their official SDKs (Anthropic, then OpenAI).
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import type { AgentEvent } from '../../src/loop/events.js';
import { openSessionStore } from '../../src/sessions/session-store.js';
import { type MockLlmServer, parseScript, startMockLlmServer } from '../../src/testing/index.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { repoRoot, temporaryDirectory } from '../helpers/project.js';

const recorder = bundledFixture(join(repoRoot, 'test', 'fixtures', 'faults', 'recorder.mjs'));
type Body = Record<string, unknown>;

let mock: MockLlmServer;
let host: Host;
let stateDir: string;

beforeAll(async () => {
  mock = await startMockLlmServer({
    script: parseScript({
      scenarios: [
        {
          turns: [
            { toolCalls: [{ id: 'toolu_ping', name: 'rec__ping', arguments: {} }] },
            { text: 'anthropic saw {{lastToolResult}}' },
            { text: 'openai answered' },
          ],
        },
      ],
    }),
  });
  stateDir = await temporaryDirectory();
  host = await createHost({
    config: hostConfig([stdioServer('rec', [recorder])], { permissions: { allow: ['rec__*'], ask: [], deny: [] } }),
    model: 'anthropic:claude-test',
    env: {
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: mock.url,
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: `${mock.url}/v1`,
    },
    stateDir,
    auditSink: false,
  });
});

afterAll(async () => {
  await host?.close();
  await mock?.close();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

async function finalText(stream: AsyncIterable<AgentEvent>): Promise<string | undefined> {
  let text: string | undefined;
  for await (const event of stream) if (event.type === 'run-end') text = event.text;
  return text;
}

describe('switching the model mid-conversation', () => {
  it('sends the whole transcript to the new provider in its own wire format', async () => {
    const conversation = await host.conversation();
    expect(conversation.model()).toBe('anthropic:claude-test');
    expect(await finalText(conversation.send('ping the server'))).toMatch(/^anthropic saw pong \d+$/);
    expect(mock.requests.map((request) => request.wire)).toEqual(['anthropic', 'anthropic']);

    const listedModel = () =>
      openSessionStore(stateDir)
        .list()
        .find((summary) => summary.id === conversation.id)?.model;
    expect(listedModel()).toBe('anthropic:claude-test');
    await conversation.setModel('openai:gpt-test');
    expect(conversation.model()).toBe('openai:gpt-test');
    expect(listedModel()).toBe('openai:gpt-test');
    expect(await finalText(conversation.send('and now?'))).toBe('openai answered');

    const last = mock.requests.at(-1)!;
    expect(last.wire).toBe('openai-chat');
    const messages = (last.body as Body).messages as Body[];
    // user, assistant with the tool call, the tool's answer, assistant's text, the new user text.
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    const call = (messages[1]!.tool_calls as Body[])[0]!;
    expect(call).toMatchObject({ id: 'toolu_ping', type: 'function', function: { name: 'rec__ping' } });
    expect(messages[2]).toMatchObject({ tool_call_id: 'toolu_ping' });
    expect(JSON.stringify(messages[2]!.content)).toMatch(/pong \d+/);

    // Each answer on file names the model that wrote it, so a listing need not replay the file to know the model.
    const answers = readFileSync(openSessionStore(stateDir).fileOf(conversation.id), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"role":"assistant"'))
      .map((line) => JSON.parse(line).model);
    expect(answers).toEqual(['anthropic:claude-test', 'anthropic:claude-test', 'openai:gpt-test']);
    expect(listedModel()).toBe('openai:gpt-test');

    // The switch is on file: a resumed session knows which model it last used.
    const resumed = await host.conversation({ sessionId: conversation.id });
    expect(resumed.history).toEqual(conversation.history);
  });
});
