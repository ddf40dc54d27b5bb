/**
 * The terminal chat numbers a turn's parallel calls in the order the model made them, as a resumed chat and the web
 * UI number the transcript's calls: the model's first call is [1] even when its line comes after the second's, and
 * `/expand N` shows the call the [N] line named, live and after `chat --resume`. Real processes in pipe mode, the
 * scripted model and the counter fixture, whose `sleep` answers after the milliseconds it is given.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_OK } from '../../src/cli/exit-codes.js';
import { fixtureServer, runCli, temporaryDirectory } from '../helpers/project.js';

let directory: string;

beforeAll(async () => {
  directory = await temporaryDirectory('mcp-host-parallel-numbers-');
  await writeFile(
    join(directory, 'script.json'),
    JSON.stringify({
      scenarios: [
        {
          match: 'Sleep twice',
          turns: [
            {
              // The first call sleeps long enough for the second to end well before it.
              toolCalls: [
                { name: 'counter__sleep', arguments: { ms: 3000 } },
                { name: 'counter__sleep', arguments: { ms: 0 } },
              ],
            },
            { text: 'Both slept.' },
          ],
        },
      ],
    }),
  );
  await writeFile(
    join(directory, 'mcp-host.json'),
    JSON.stringify({
      model: 'scripted:script.json',
      mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' } },
    }),
  );
});

afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

/**
 * The `ms` argument `/expand N` shows for call N, from its heading on: `[N] counter sleep ·` live, `[N] counter__sleep
 * ·` (the name the transcript saved) after a resume.
 */
function expandedMs(stdout: string, number: number): number | undefined {
  const at = stdout.search(new RegExp(`^\\[${number}\\] counter(?: |__)sleep ·`, 'm'));
  if (at === -1) return undefined;
  const ms = /"ms": (\d+)/.exec(stdout.slice(at));
  return ms === null ? undefined : Number(ms[1]);
}

describe('chat numbering of parallel calls', () => {
  it('numbers calls in the order the model made them, and /expand N shows the [N] line’s call, live and resumed', async () => {
    const stateDir = join(directory, 'state');
    const live = await runCli(['chat', '-c', 'mcp-host.json'], {
      cwd: directory,
      stateDir,
      input: 'Sleep twice\n/expand 1\n/expand 2\n',
    });
    expect(live.code, live.stderr).toBe(EXIT_OK);
    expect(live.stdout).toContain('Both slept.');
    const lines = [...live.stdout.matchAll(/^\[(\d+)\] ⚙ counter sleep \{"ms":(\d+)\}/gm)].map((match) => ({
      number: Number(match[1]),
      ms: Number(match[2]),
    }));
    // The second call ended first, so its line came first; each keeps the number of its place in the model's answer.
    expect(lines).toEqual([
      { number: 2, ms: 0 },
      { number: 1, ms: 3000 },
    ]);
    expect(expandedMs(live.stdout, 1)).toBe(3000);
    expect(expandedMs(live.stdout, 2)).toBe(0);

    const id = /session (\d{8}-\d{6}-[0-9a-f]{8})/.exec(live.stdout)?.[1] ?? '';
    const resumed = await runCli(['chat', '-c', 'mcp-host.json', '--resume', id], {
      cwd: directory,
      stateDir,
      input: '/expand 1\n/expand 2\n',
    });
    expect(resumed.code, resumed.stderr).toBe(EXIT_OK);
    expect(expandedMs(resumed.stdout, 1)).toBe(3000);
    expect(expandedMs(resumed.stdout, 2)).toBe(0);
  }, 60_000);
});
