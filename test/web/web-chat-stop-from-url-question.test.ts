/**
 * A server's URL elicitation during a call the web UI's chat turn made is marked as the turn's, as its sampling
 * requests and forms are, by the call it came with (not by the context it is read in): its dialog, which covers the
 * chat's Stop, offers Stop the turn, and stopping from it declines the question and cancels the turn. So is the URL a
 * server refused the turn's call for (-32042), by the call it refused; the same refusal of a call made from the Tools
 * page is no turn's.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/web/api-types.js';
import { fixtureServer, repoRoot, writeConfig } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { callUiApi, type RunningUi, startUi, waitForNoTurnRunning } from '../helpers/web-ui-process.js';

let ui: RunningUi | undefined;

beforeAll(async () => {
  const config = await writeConfig({
    model: 'scripted:script.json',
    mcpServers: {
      url: { command: process.execPath, args: [fixtureServer('url-elicitation.mjs')], trust: 'trusted' },
      required: {
        command: process.execPath,
        args: [join(repoRoot, 'test', 'client-features', 'fixtures', 'url-required-server.mjs')],
        trust: 'trusted',
      },
    },
    permissions: { allow: ['url__*', 'required__*'] },
  });
  await writeFile(
    join(dirname(config), 'script.json'),
    JSON.stringify({
      scenarios: [
        {
          match: '^sign in',
          turns: [{ toolCalls: [{ name: 'url__ask', arguments: { id: 'sign-in-1' } }] }, { text: 'Heard it.' }],
        },
        {
          match: '^who',
          turns: [{ toolCalls: [{ name: 'required__whoami', arguments: {} }] }, { text: 'Heard it.' }],
        },
      ],
    }),
  );
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

describe("a server's URL elicitation during a chat turn's call", () => {
  it('is the turn’s, and the turn can be stopped from it', async () => {
    const running = ui!;
    const sent = await callUiApi(running, '/api/chat', { text: 'sign in please' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    let pending: PendingApproval[] = [];
    await waitUntil(async () => {
      pending = (await callUiApi<PendingApproval[]>(running, '/api/approvals')).body;
      return pending.length === 1;
    }, 'the URL elicitation to wait');
    expect(pending[0]?.kind).toBe('elicit-url');
    expect(pending[0]?.chatTurn).toBe(sent.body.turnId);
    const stopped = await callUiApi(running, '/api/chat/stop', { approval: pending[0]!.id });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    await waitForNoTurnRunning(running);
  }, 60_000);

  it('is the turn’s when the server refused the turn’s call for it (-32042), and no turn’s for a call by hand', async () => {
    const running = ui!;
    // A conversation of its own: the one before stopped with its scenario's answer still to play.
    expect((await callUiApi(running, '/api/sessions/new', {})).status).toBe(200);
    const sent = await callUiApi(running, '/api/chat', { text: 'who am i' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    let pending: PendingApproval[] = [];
    await waitUntil(async () => {
      pending = (await callUiApi<PendingApproval[]>(running, '/api/approvals')).body;
      return pending.length === 1;
    }, 'the URL the server requires to be asked about');
    expect(pending[0]?.kind).toBe('elicit-url');
    expect(pending[0]?.chatTurn).toBe(sent.body.turnId);
    const stopped = await callUiApi(running, '/api/chat/stop', { approval: pending[0]!.id });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    await waitForNoTurnRunning(running);

    const call = callUiApi(running, '/api/tools/call', { name: 'required__whoami', arguments: {} });
    await waitUntil(async () => {
      pending = (await callUiApi<PendingApproval[]>(running, '/api/approvals')).body;
      return pending.length === 1;
    }, 'the URL the server requires of the call by hand to be asked about');
    expect(pending[0]?.kind).toBe('elicit-url');
    expect(pending[0]?.chatTurn).toBeUndefined();
    expect((await callUiApi(running, '/api/chat/stop', { approval: pending[0]!.id })).status).toBe(409);
    const declined = await callUiApi(running, `/api/approvals/${pending[0]!.id}`, { answer: 'decline' });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect((await call).status).toBe(200);
  }, 60_000);
});
