/**
 * `mcp-host ui` (the built CLI, a child process) opening a large audit log: the audit page shows the latest 1,000
 * records, and the UI holds no more than those while it reads, where it kept every record of the log and then took
 * the last 1,000 (a log of 120 MB took its peak memory from about 125 MB to 250 MB).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { residentMegabytes } from '../helpers/process-memory.js';
import { temporaryDirectory } from '../helpers/project.js';
import { callUiApi, startUi } from '../helpers/web-ui-process.js';

const RECORDS = 60_000;
const FILLER = 'x'.repeat(2_000);

describe('the web UI on a large audit log', () => {
  it('shows the latest records and holds no more than those while it reads', async () => {
    const directory = await temporaryDirectory('mcp-host-ui-audit-');
    const stateDir = join(directory, 'state');
    mkdirSync(stateDir, { mode: 0o700 });
    const lines: string[] = [];
    for (let index = 0; index < RECORDS; index += 1) {
      lines.push(
        JSON.stringify({
          type: 'approval',
          time: '2026-01-01T00:00:00.000Z',
          runId: 'r1',
          server: 'fs',
          tool: `fs__tool_${index}`,
          answer: 'allow-once',
          approver: 'terminal',
          reason: FILLER,
        }),
      );
    }
    writeFileSync(join(stateDir, 'audit.jsonl'), `${lines.join('\n')}\n`);
    writeFileSync(join(directory, 'mcp-host.json'), JSON.stringify({ mcpServers: {} }));
    const ui = await startUi(['-c', join(directory, 'mcp-host.json')], { stateDir });
    try {
      const { status, body } = await callUiApi<Array<{ tool?: string }>>(ui, '/api/audit');
      expect(status).toBe(200);
      expect(body).toHaveLength(1_000);
      expect(body.at(-1)?.tool).toBe(`fs__tool_${RECORDS - 1}`);
      const { peak } = await residentMegabytes(ui.pid);
      // The log is 120 MB: held whole, its records alone went past this.
      expect(peak).toBeLessThan(190);
    } finally {
      await ui.stop();
      await rm(directory, { recursive: true, force: true });
    }
  }, 120_000);
});
