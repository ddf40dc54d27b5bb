/**
 * A model that gives its calls the same id at every turn (local OpenAI-compatible servers send `call_0` each time):
 * `/expand 1` shows the first turn's call with the first turn's result, live and after `chat --resume`, not the
 * result a later call with the same id got. Real processes in pipe mode, the scripted model and the counter fixture.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_OK } from '../../src/cli/exit-codes.js';
import { fixtureServer, runCli, temporaryDirectory } from '../helpers/project.js';

let directory: string;

const sleepTurn = (ms: number) => [
  { toolCalls: [{ id: 'call_0', name: 'counter__sleep', arguments: { ms } }] },
  { text: `Slept ${ms}.` },
];

beforeAll(async () => {
  directory = await temporaryDirectory('mcp-host-repeated-ids-');
  await writeFile(
    join(directory, 'script.json'),
    JSON.stringify({
      scenarios: [
        { match: '^First', turns: sleepTurn(11) },
        { match: '^Second', turns: sleepTurn(22) },
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

/** What `/expand N` printed for call N: its lines from its heading to the next call's heading or line. */
function expanded(stdout: string, number: number): string {
  const at = stdout.search(new RegExp(`^\\[${number}\\] counter(?: |__)sleep ·`, 'm'));
  if (at === -1) return '';
  const rest = stdout.slice(at + 1);
  const end = rest.search(/^\[\d+\] /m);
  return rest.slice(0, end === -1 ? undefined : end);
}

describe('chat with call ids a model repeats across turns', () => {
  it('shows each turn’s call with its own result, live and resumed', async () => {
    const stateDir = join(directory, 'state');
    const live = await runCli(['chat', '-c', 'mcp-host.json'], {
      cwd: directory,
      stateDir,
      input: 'First, sleep.\nSecond, sleep.\n/expand 1\n/expand 2\n',
    });
    expect(live.code, live.stderr).toBe(EXIT_OK);
    expect(live.stdout).toContain('Slept 22.');
    expect(expanded(live.stdout, 1)).toContain('slept 11 ms');
    expect(expanded(live.stdout, 2)).toContain('slept 22 ms');

    const id = /session (\d{8}-\d{6}-[0-9a-f]{8})/.exec(live.stdout)?.[1] ?? '';
    const resumed = await runCli(['chat', '-c', 'mcp-host.json', '--resume', id], {
      cwd: directory,
      stateDir,
      input: '/expand 1\n/expand 2\n',
    });
    expect(resumed.code, resumed.stderr).toBe(EXIT_OK);
    const first = expanded(resumed.stdout, 1);
    expect(first).toContain('"ms": 11');
    expect(first).toContain('slept 11 ms');
    expect(first).not.toContain('slept 22 ms');
    const second = expanded(resumed.stdout, 2);
    expect(second).toContain('"ms": 22');
    expect(second).toContain('slept 22 ms');
  }, 60_000);
});
