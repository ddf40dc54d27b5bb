/**
 * A conversation whose turn is cancelled while a call waits for the person's answer (the approval dialog of the web
 * UI, the question of the terminal chat): the approver gives up with the abort, the call is never made, and the
 * transcript still answers it, saved, so the next turn's request holds a result for every call.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import type { Approver } from '../../src/policy/approver.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { repoRoot, temporaryDirectory } from '../helpers/project.js';

const recorder = bundledFixture(join(repoRoot, 'test', 'fixtures', 'faults', 'recorder.mjs'));

const provider = createScriptedProvider({
  fallbackText: 'fallback',
  scenarios: [
    {
      turns: [{ toolCalls: [{ id: 'ping-1', name: 'rec__ping', arguments: {} }] }, { text: 'carried on' }],
    },
  ],
});

/** Asks nobody: it waits until the run is cancelled, and then rejects as every approver does. */
let asked: () => void;
const askedOnce = new Promise<void>((resolve) => {
  asked = resolve;
});
const waitingApprover: Approver = {
  kind: 'test',
  approveToolCall: (_request, signal) =>
    new Promise((_resolve, reject) => {
      asked();
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    }),
  approveToolDefinition: async () => 'approve',
  approveServer: async () => 'approve',
};

let stateDir: string;
let host: Host;

beforeAll(async () => {
  stateDir = await temporaryDirectory();
  host = await createHost({
    config: hostConfig([stdioServer('rec', [recorder])], {
      permissions: { allow: [], ask: ['rec__ping'], deny: [] },
      file: join(stateDir, 'mcp-host.json'),
    }),
    provider,
    approver: waitingApprover,
    stateDir,
    auditSink: false,
  });
});

afterAll(async () => {
  await host?.close();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

describe('a turn cancelled while a call is being asked about', () => {
  it('answers the call in the transcript and on file, so the next turn sends a result for it', async () => {
    const conversation = await host.conversation();
    const consuming = (async () => {
      for await (const _event of conversation.send('ping it')) {
        // Only the end matters here.
      }
    })().catch(() => undefined);
    await askedOnce;
    await conversation.cancel();
    await consuming;

    const last = conversation.history.at(-1)!;
    expect(last.role).toBe('tool');
    expect(last.role === 'tool' && last.results).toEqual([
      {
        callId: 'ping-1',
        toolName: 'rec__ping',
        isError: true,
        content: [{ type: 'text', text: 'The turn was cancelled before this call finished; its outcome is unknown.' }],
      },
    ]);
    const saved = readFileSync(join(stateDir, 'sessions', `${conversation.id}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { message?: unknown });
    expect(saved.at(-1)?.message).toEqual(last);

    for await (const _event of conversation.send('carry on')) {
      // Run to its end.
    }
    const request = provider.requests.at(-1)!;
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
  });
});
