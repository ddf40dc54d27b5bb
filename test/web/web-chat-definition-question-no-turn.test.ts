/**
 * A changed tool definition is no chat turn's question, even when the turn's own call started its server again: the
 * web UI marks no turn for it (so its dialog offers no Stop the turn) and `POST /api/chat/stop` refuses it while the
 * turn runs. Both ways the change comes: found when the server started again during the turn's call is listed, and
 * said later by the server started again (`notifications/tools/list_changed`, read from it while the turn runs).
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/web/api-types.js';
import { fixtureServer, temporaryDirectory, writeScriptedConfig } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { callUiApi, type RunningUi, startUi, waitForNoTurnRunning } from '../helpers/web-ui-process.js';

let ui: RunningUi | undefined;

beforeAll(async () => {
  const directory = await temporaryDirectory('mcp-host-ui-definition-turn-');
  // Each exits during its first call, which the host sends once more (safe to retry) after starting it again.
  const crashing = (name: string, env: Record<string, string> = {}) => ({
    command: process.execPath,
    args: [fixtureServer('crash-mid-call.mjs')],
    env: { EXITED_ONCE_FILE: join(directory, `${name}-exited-once`), ...env },
    trust: 'trusted',
  });
  const config = await writeScriptedConfig(
    'mcp-host-ui-definition-turn-',
    {
      scenarios: [
        {
          match: '^restart',
          turns: [
            { toolCalls: [{ name: 'restarted__read_once_exits', arguments: {} }] },
            { toolCalls: [{ name: 'waits__hang', arguments: {} }] },
            { text: 'done' },
          ],
        },
        {
          match: '^change',
          turns: [
            { toolCalls: [{ name: 'told__read_once_exits', arguments: {} }] },
            { toolCalls: [{ name: 'told__change_ping', arguments: {} }] },
            { toolCalls: [{ name: 'waits__hang', arguments: {} }] },
            { text: 'done' },
          ],
        },
      ],
    },
    {
      mcpServers: {
        restarted: crashing('restarted', { CHANGED_AFTER_EXIT: '1' }),
        told: crashing('told'),
        waits: { command: process.execPath, args: [fixtureServer('hang.mjs')], trust: 'trusted' },
      },
      permissions: { allow: ['restarted__*', 'told__*', 'waits__*'] },
    },
  );
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

// A test that failed half-way leaves neither its turn running nor its question waiting for the next.
afterEach(async () => {
  const running = ui!;
  await callUiApi(running, '/api/chat/cancel', {});
  await waitForNoTurnRunning(running);
  for (const question of (await callUiApi<PendingApproval[]>(running, '/api/approvals')).body) {
    await callUiApi(running, `/api/approvals/${question.id}`, { answer: 'reject' });
  }
});

/** Sends `prompt` as a new conversation's turn, and checks the definition question it leads to is no turn's. */
async function checkDefinitionQuestionDuring(prompt: string, server: string): Promise<void> {
  const running = ui!;
  expect((await callUiApi(running, '/api/sessions/new', {})).status).toBe(200);
  const sent = await callUiApi<{ turnId: string }>(running, '/api/chat', { text: prompt });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  let question: PendingApproval | undefined;
  await waitUntil(async () => {
    const pending = (await callUiApi<PendingApproval[]>(running, '/api/approvals')).body;
    question = pending.find((approval) => approval.kind === 'tool-definition' && approval.server === server);
    return question !== undefined;
  }, `the changed definition of ${server}'s ping to be asked about`);
  expect(question!.tool).toBe(`${server}__ping`);
  // The turn still runs (its last call never answers), and the question is not its own.
  expect((await callUiApi<{ running?: { turnId: string } }>(running, '/api/chat')).body.running?.turnId).toBe(
    sent.body.turnId,
  );
  expect(question!.chatTurn).toBeUndefined();
  const refused = await callUiApi(running, '/api/chat/stop', { approval: question!.id });
  expect(refused.status, JSON.stringify(refused.body)).toBe(409);
  expect((await callUiApi<{ running?: { turnId: string } }>(running, '/api/chat')).body.running?.turnId).toBe(
    sent.body.turnId,
  );
  // Refusing the question stops nothing; the turn is stopped as the page's own Stop does.
  const answered = await callUiApi(running, `/api/approvals/${question!.id}`, { answer: 'reject' });
  expect(answered.status, JSON.stringify(answered.body)).toBe(200);
  expect((await callUiApi(running, '/api/chat')).body.running).toBeDefined();
}

describe('a changed definition of a server the chat turn started again', () => {
  it('is no turn’s when found as the server started again is listed', async () => {
    await checkDefinitionQuestionDuring('restart it', 'restarted');
  }, 60_000);

  it('is no turn’s when the server started again says so later', async () => {
    await checkDefinitionQuestionDuring('change it', 'told');
  }, 60_000);
});
