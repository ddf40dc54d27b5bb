/**
 * `host.conversation()`: turns over one transcript through the host's own loop, saved after every message, resumed
 * by id or as the newest of this config, cancelled mid-call (the server sees `notifications/cancelled`).
 */
import { appendFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import type { AgentEvent } from '../../src/loop/events.js';
import type { Conversation } from '../../src/sessions/conversation-types.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { repoRoot, temporaryDirectory } from '../helpers/project.js';

const recorder = bundledFixture(join(repoRoot, 'test', 'fixtures', 'faults', 'recorder.mjs'));

// The script's turn is picked by the number of assistant messages so far: one script serves the whole conversation.
const provider = createScriptedProvider({
  fallbackText: 'fallback',
  scenarios: [
    {
      turns: [
        { text: 'first answer' },
        { toolCalls: [{ id: 'ping-1', name: 'rec__ping', arguments: {} }] },
        { text: 'pinged: {{lastToolResult}}' },
        { toolCalls: [{ id: 'hang-1', name: 'rec__hang', arguments: {} }] },
        { text: 'after the cancel' },
      ],
    },
  ],
});

let stateDir: string;
let eventLog: string;
let host: Host;

beforeAll(async () => {
  stateDir = await temporaryDirectory();
  eventLog = join(stateDir, 'events.log');
  host = await createHost({
    config: hostConfig([stdioServer('rec', [recorder], { env: { EVENT_LOG: eventLog } })], {
      permissions: { allow: ['rec__*'], ask: [], deny: [] },
      file: join(stateDir, 'mcp-host.json'),
    }),
    provider,
    stateDir,
    auditSink: false,
  });
});

afterAll(async () => {
  await host?.close();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

async function collect(stream: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function readLog(): string {
  try {
    return readFileSync(eventLog, 'utf8');
  } catch {
    return '';
  }
}

function savedLines(conversation: Conversation): Record<string, unknown>[] {
  const text = readFileSync(join(stateDir, 'sessions', `${conversation.id}.jsonl`), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('a conversation', () => {
  let conversation: Conversation;

  it('carries the transcript from turn to turn and saves every message as it goes', async () => {
    conversation = await host.conversation();
    expect(conversation.history).toEqual([]);
    expect(conversation.model()).toBe(`scripted:${provider.model}`);

    const first = await collect(conversation.send('Hello \u001b[31mthere\u001b[0m'));
    expect(first.at(-1)).toMatchObject({ type: 'run-end', stopReason: 'end', text: 'first answer' });
    const second = await collect(conversation.send('ping it'));
    expect(second.map((event) => event.type)).toContain('tool-call-end');
    expect(second.at(-1)).toMatchObject({ type: 'run-end', text: expect.stringMatching(/^pinged: pong \d+$/) });

    expect(conversation.history.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    // The second turn's request held the whole first turn: the host's run got the history.
    const secondRequest = provider.requests.at(-2)!;
    expect(secondRequest.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);

    const lines = savedLines(conversation);
    expect(lines[0]).toMatchObject({
      type: 'session',
      id: conversation.id,
      config: join(stateDir, 'mcp-host.json'),
      model: conversation.model(),
      title: 'Hello there',
    });
    expect(lines.slice(1).map((line) => line.type)).toEqual(Array(6).fill('message'));
    expect(lines.slice(1).map((line) => line.message)).toEqual(conversation.history);
    expect(statSync(join(stateDir, 'sessions', `${conversation.id}.jsonl`)).mode & 0o777).toBe(0o600);
    expect(statSync(join(stateDir, 'sessions')).mode & 0o777).toBe(0o700);

    const usage = conversation.usage();
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
    await conversation.save();
  });

  it('cancels a turn mid-call: the server is told, the transcript keeps the completed messages', async () => {
    const events: AgentEvent[] = [];
    const consuming = (async () => {
      for await (const event of conversation.send('hang please')) events.push(event);
    })();
    // Cancelled once the server has the call, so there is a request for it to be told about.
    await expect.poll(() => readLog(), { timeout: 10_000 }).toMatch(/^call \S+ hang /m);
    await conversation.cancel();
    await consuming;

    expect(events.at(-1)).toMatchObject({ type: 'run-end', stopReason: 'aborted' });
    expect(events.find((event) => event.type === 'tool-call-end')).toMatchObject({ outcome: 'cancelled' });
    await expect.poll(() => readLog(), { timeout: 10_000 }).toMatch(/^cancelled \S+$/m);
    const last = conversation.history.at(-1)!;
    expect(last.role).toBe('tool');
    expect(last.role === 'tool' && last.results[0]).toMatchObject({ callId: 'hang-1', isError: true });
    expect(savedLines(conversation).at(-1)?.message).toEqual(last);

    // The conversation goes on after a cancelled turn.
    const next = await collect(conversation.send('carry on'));
    expect(next.at(-1)).toMatchObject({ type: 'run-end', text: 'after the cancel' });
  });

  it('resumes by id and as the newest of this config, with any torn last line ignored', async () => {
    const file = join(stateDir, 'sessions', `${conversation.id}.jsonl`);
    appendFileSync(file, '{"type":"message","at":"2026-01-01T00:00:00.000Z","message":{"role":"user","con');
    const diagnostics: string[] = [];
    const resumingHost = await createHost({
      config: hostConfig([], { file: join(stateDir, 'mcp-host.json') }),
      provider,
      stateDir,
      auditSink: false,
      onDiagnostic: (message) => diagnostics.push(message),
    });
    try {
      const byId = await resumingHost.conversation({ sessionId: conversation.id });
      expect(byId.id).toBe(conversation.id);
      expect(byId.history).toEqual(conversation.history);
      expect(diagnostics.join('\n')).toContain('torn last line');

      // A newer session file that cannot be read is passed over, and said to be.
      const unreadable = join(stateDir, 'sessions', '29991231-000000-0000ffff.jsonl');
      writeFileSync(unreadable, 'no header\n');
      const newest = await resumingHost.conversation({ continueLast: true });
      expect(newest.id).toBe(conversation.id);
      expect(diagnostics).toContain(`skipped a session: ${unreadable} does not start with a session header`);
      rmSync(unreadable);
      // A record after the torn line starts a line of its own.
      await collect(newest.send('one more'));
      const again = await resumingHost.conversation({ sessionId: conversation.id });
      // The scenario played all its turns before this message: the message is matched anew, from its first turn.
      expect(again.history.at(-1)).toMatchObject({
        role: 'assistant',
        content: [{ type: 'text', text: 'first answer' }],
      });
      expect(again.history.length).toBe(conversation.history.length + 2);

      await expect(resumingHost.conversation({ sessionId: '20260101-000000-00000000' })).rejects.toThrow(
        /no saved session "20260101-000000-00000000"/,
      );
      await expect(resumingHost.conversation({ sessionId: '../etc/passwd' })).rejects.toThrow(/not a session id/);
    } finally {
      await resumingHost.close();
    }
  });

  it('starts afresh with clear(), and a config with no sessions continues into a new one', async () => {
    const before = conversation.id;
    conversation.clear();
    expect(conversation.id).not.toBe(before);
    expect(conversation.history).toEqual([]);
    expect(conversation.usage()).toEqual({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });

    const otherHost = await createHost({
      config: hostConfig([], { file: join(stateDir, 'other.json') }),
      provider,
      stateDir,
      auditSink: false,
    });
    try {
      const fresh = await otherHost.conversation({ continueLast: true });
      expect(fresh.history).toEqual([]);
      expect(fresh.id).not.toBe(before);
    } finally {
      await otherHost.close();
    }
  });
});
