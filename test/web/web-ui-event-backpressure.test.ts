/**
 * A page that stops reading its event stream (a frozen tab) must not make `mcp-host ui` keep everything published
 * meanwhile: past a few megabytes waiting, its stream is dropped, and the browser reconnects and loads afresh.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfig } from '../helpers/project.js';
import { connectAndStopReading } from '../helpers/stalled-reader.js';
import { callUiApi, type RunningUi, startUi, waitForNoTurnRunning } from '../helpers/web-ui-process.js';

// Each turn streams this much text (and the page's events carry it more than once: deltas, the run's end).
const ANSWER_CHARS = 1_200_000;
// Far past what the socket buffers of both ends and the host's limit on waiting events hold together.
const TURNS = 30;

let ui: RunningUi;

beforeAll(async () => {
  const config = await writeConfig({ model: 'scripted:script.json', mcpServers: {} });
  await writeFile(
    join(dirname(config), 'script.json'),
    JSON.stringify({ scenarios: [], fallbackText: 'x'.repeat(ANSWER_CHARS) }),
  );
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

describe('a page that stops reading its event stream', () => {
  it('has its stream dropped instead of the host keeping every event for it', async () => {
    const { host, port } = new URL(ui.base);
    const reader = await connectAndStopReading(
      Number(port),
      `GET /api/events HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${ui.token}\r\n\r\n`,
      /event: approvals/,
    );
    try {
      for (let turn = 0; turn < TURNS; turn += 1) {
        expect((await callUiApi(ui, '/api/sessions/new', {})).status).toBe(200);
        const sent = await callUiApi(ui, '/api/chat', { text: 'talk', turnId: `turn-${turn}` });
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
        await waitForNoTurnRunning(ui);
      }
      const read = await reader.readAgain(new RegExp(`"turnId":"turn-${TURNS - 1}","event":\\{"type":"turn-done"`));
      expect(read.stopSeen, `the stream carried every event to its end (${read.bytes} bytes)`).toBe(false);
      expect(read.ended).toBe(true);
      // The host still serves a page that reads.
      const { status } = await callUiApi(ui, '/api/state');
      expect(status).toBe(200);
    } finally {
      reader.close();
    }
  }, 180_000);
});
