/**
 * The "may reach systems outside this machine" warning: once per tool per run (not once per call, not twice with
 * `--trace`), not at all for a tool that declares `openWorldHint: false`, nor for a tool the user calls with
 * `tools call`. Runs the built CLI with a scripted model.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixtures, startHttpFixtures } from '../consent/http-fixtures.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { runCli, temporaryDirectory } from '../helpers/project.js';

// The server is served over Streamable HTTP from this process: the warning is the CLI's, whatever the transport.
let servers: HttpFixtures;
beforeAll(async () => {
  servers = await startHttpFixtures();
});
afterAll(() => servers.close());

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('open-world warning', () => {
  it('is printed once per tool per run, also with --trace, and never for openWorldHint: false nor tools call', async () => {
    const directory = await temporaryDirectory('mcp-host-open-world-');
    const script = join(directory, 'script.json');
    await writeFile(
      join(directory, 'mcp-host.json'),
      JSON.stringify({
        mcpServers: {
          web: {
            url: servers.toolSet('web', [
              { name: 'fetch', reply: 'fetched' },
              { name: 'local_note', reply: 'noted', annotations: { openWorldHint: false } },
            ]).url,
          },
        },
      }),
    );
    const call = (id: string, name: string) => ({ id, name, arguments: {} });
    await writeFile(
      script,
      JSON.stringify({
        scenarios: [
          {
            turns: [
              { toolCalls: [call('a1', 'web__fetch'), call('a2', 'web__fetch'), call('n1', 'web__local_note')] },
              { toolCalls: [call('a3', 'web__fetch'), call('n2', 'web__local_note')] },
              { text: 'done' },
            ],
          },
        ],
      }),
    );
    for (const extra of [[], ['--trace']]) {
      // The warning is the command's; the second run, with --trace, runs it in this process.
      const run = extra.length === 0 ? runCli : runCliInProcess;
      const result = await run(
        ['run', '--yes', ...extra, '--config', join(directory, 'mcp-host.json'), '--model', `scripted:${script}`, 'go'],
        {
          cwd: directory,
          timeoutMs: 60_000,
        },
      );
      expect(result.stdout).toContain('done');
      expect(count(result.stderr, 'web__fetch may reach systems outside this machine')).toBe(1);
      expect(result.stderr).not.toContain('web__local_note may reach systems outside this machine');
    }
    // A tool the user calls directly is the user's own choice: nothing warns them of it.
    const called = await runCliInProcess(
      ['tools', 'call', 'web__fetch', '--config', join(directory, 'mcp-host.json')],
      {
        cwd: directory,
        timeoutMs: 60_000,
      },
    );
    expect({ code: called.code, stdout: called.stdout, stderr: called.stderr }).toEqual({
      code: 0,
      stdout: 'fetched\n',
      stderr: '',
    });
  }, 120_000);
});
