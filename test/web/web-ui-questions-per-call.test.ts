/**
 * A server with more calls in flight than the web UI holds questions of one server may have one question held for
 * each, as the host lets it: each of ten calls made at once asks one form, and every form is put to the user, one at a
 * time, none declined without being asked. Over the UI's own HTTP API, with a real server behind it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitUntil } from '../helpers/gateway-process.js';
import { fixtureServer, writeConfig } from '../helpers/project.js';
import { callUiApi, type RunningUi, startUi } from '../helpers/web-ui-process.js';

/** More than the 8 questions of one server held at once when it has fewer calls in flight. */
const CALLS = 10;

let ui: RunningUi;

beforeAll(async () => {
  const config = await writeConfig({
    mcpServers: { fwd: { command: process.execPath, args: [fixtureServer('forwarding.mjs')], trust: 'trusted' } },
    permissions: { allow: ['fwd__*'], ask: [], deny: [] },
  });
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

it('puts to the user the one question of each of its calls in flight, past the 8 held otherwise', async () => {
  const texts: string[] = [];
  const calls = Array.from({ length: CALLS }, (_, index) =>
    callUiApi<{ content: Array<{ text: string }> }>(ui, '/api/tools/call', {
      name: 'fwd__ask_user',
      arguments: { question: `Question ${index + 1}` },
    }).then((answer) => texts.push(answer.body.content[0]?.text ?? JSON.stringify(answer.body))),
  );
  // Each question shown is answered; a question declined without being asked ends its call with `decline`.
  let accepted = 0;
  while (texts.length < CALLS) {
    await waitUntil(
      async () =>
        texts.length === CALLS || (await callUiApi<Array<{ id: string }>>(ui, '/api/approvals')).body.length > 0,
      'a question shown, or every call answered',
    );
    const [shown] = (await callUiApi<Array<{ id: string }>>(ui, '/api/approvals')).body;
    if (shown === undefined) continue;
    const answered = await callUiApi(ui, `/api/approvals/${shown.id}`, {
      answer: 'accept',
      content: { answer: 'yes' },
    });
    expect(answered.status).toBe(200);
    accepted += 1;
  }
  await Promise.all(calls);
  expect(texts.filter((text) => text.includes('"decline"'))).toEqual([]);
  expect(accepted).toBe(CALLS);
}, 90_000);
