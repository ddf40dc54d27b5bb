/**
 * After `/compact` replaces earlier turns with a summary, a resumed chat numbers the calls as the live chat did: the
 * calls the summary stands for keep their numbers (and `/expand` says they are not kept), the later ones keep theirs,
 * and a new call follows them. Real processes in pipe mode, the scripted model (which also writes the summary) and the
 * counter fixture.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_OK } from '../../src/cli/exit-codes.js';
import { fixtureServer, runCli, temporaryDirectory } from '../helpers/project.js';

let directory: string;

const sleepTurn = (ms: number) => [
  { toolCalls: [{ name: 'counter__sleep', arguments: { ms } }] },
  { text: `Slept ${ms}.` },
];

beforeAll(async () => {
  directory = await temporaryDirectory('mcp-host-compact-numbers-');
  await writeFile(
    join(directory, 'script.json'),
    JSON.stringify({
      // The summary request matches no scenario: this is the summary.
      fallbackText: 'The user asked for sleeps.',
      scenarios: [
        { match: '^First', turns: sleepTurn(11) },
        { match: '^Second', turns: sleepTurn(22) },
        { match: '^Third', turns: sleepTurn(33) },
        { match: '^Fourth', turns: sleepTurn(44) },
      ],
    }),
  );
  await writeFile(
    join(directory, 'mcp-host.json'),
    JSON.stringify({
      model: 'scripted:script.json',
      // Small enough that /compact keeps only the long second turn, large enough that no turn compacts by itself.
      contextTokens: 2000,
      mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' } },
    }),
  );
});

afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

/** What `/expand N` printed for call N: its lines from its heading to the next call's heading or line. */
function expanded(stdout: string, number: number): string {
  const at = stdout.search(new RegExp(`^\\[${number}\\] counter(?: |__)sleep ·`, 'm'));
  if (at === -1) return '';
  const rest = stdout.slice(at + 1);
  const end = rest.search(/^\[\d+\] /m);
  return rest.slice(0, end === -1 ? undefined : end);
}

/** The numbered call lines of a chat's output: number and `ms` argument. */
function callLines(stdout: string): { number: number; ms: number }[] {
  return [...stdout.matchAll(/^\[(\d+)\] ⚙ counter sleep \{"ms":(\d+)\}/gm)].map((match) => ({
    number: Number(match[1]),
    ms: Number(match[2]),
  }));
}

describe('chat numbering after /compact', () => {
  it('numbers a resumed transcript’s calls as the live chat did after a compaction', async () => {
    const stateDir = join(directory, 'state');
    const live = await runCli(['chat', '-c', 'mcp-host.json'], {
      cwd: directory,
      stateDir,
      input: `First, sleep.\nSecond, sleep. ${'x'.repeat(2400)}\n/compact\nThird, sleep.\n`,
    });
    expect(live.code, live.stderr).toBe(EXIT_OK);
    expect(live.stdout).toMatch(/^compacted: about \d+ → \d+ tokens$/m);
    expect(callLines(live.stdout)).toEqual([
      { number: 1, ms: 11 },
      { number: 2, ms: 22 },
      { number: 3, ms: 33 },
    ]);

    const id = /session (\d{8}-\d{6}-[0-9a-f]{8})/.exec(live.stdout)?.[1] ?? '';
    const resumed = await runCli(['chat', '-c', 'mcp-host.json', '--resume', id], {
      cwd: directory,
      stateDir,
      input: '/expand 1\n/expand 2\n/expand 3\nFourth, sleep.\n',
    });
    expect(resumed.code, resumed.stderr).toBe(EXIT_OK);
    // The first turn is only in the summary now; its call keeps its number.
    expect(resumed.stdout).toContain('tool call [1] is from before the resume and is not kept');
    expect(expanded(resumed.stdout, 2)).toContain('slept 22 ms');
    expect(expanded(resumed.stdout, 3)).toContain('slept 33 ms');
    expect(callLines(resumed.stdout)).toEqual([{ number: 4, ms: 44 }]);
  }, 60_000);
});
