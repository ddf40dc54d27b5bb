/**
 * The commands that run until they are stopped (`audit --follow`, `mock-llm`), as the real CLI: stopped by Ctrl-C
 * (SIGINT) they exit 130 and by SIGTERM 143, as `serve` and `ui` do and as the README gives those codes.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_SIGINT, EXIT_SIGTERM } from '../../src/cli/exit-codes.js';
import { repoRoot, type StartedCli, startCli, temporaryDirectory } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';

const started: StartedCli[] = [];
/** Records in the log `audit --follow` starts on: printing them takes longer than the signal takes to come. */
const RECORDS_IN_LOG = 20_000;

afterEach(() => {
  for (const cli of started.splice(0)) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
});

async function stoppedBy(
  args: string[],
  ready: (output: { stdout: string; stderr: string }) => boolean,
  signal: NodeJS.Signals,
  stateDir?: string,
) {
  const cli = startCli(args, stateDir === undefined ? {} : { stateDir });
  started.push(cli);
  await waitUntil(() => ready(cli.output()), `mcp-host ${args.join(' ')} to be running`);
  cli.child.kill(signal);
  return cli.closed;
}

describe('a command that runs until stopped', () => {
  it.each([
    ['SIGINT', EXIT_SIGINT],
    ['SIGTERM', EXIT_SIGTERM],
  ] as const)('audit --follow stopped by %s exits %i', async (signal, code) => {
    const stateDir = await temporaryDirectory('mcp-host-follow-');
    const record = `${JSON.stringify({ type: 'server-start', time: new Date().toISOString(), runId: 'r', server: 'calc', transport: 'stdio', trust: 'trusted' })}\n`;
    // The records already in the log are printed first, so many that the signal comes while they are: a command seen
    // printing is one that can be stopped, however soon.
    await writeFile(join(stateDir, 'audit.jsonl'), record.repeat(RECORDS_IN_LOG), { mode: 0o600 });
    const result = await stoppedBy(
      ['audit', '--follow', '--json'],
      ({ stdout }) => stdout.includes('calc'),
      signal,
      stateDir,
    );
    expect(result.code, result.stderr).toBe(code);
    expect(result.stderr).toBe('');
  });

  it.each([
    ['SIGINT', EXIT_SIGINT],
    ['SIGTERM', EXIT_SIGTERM],
  ] as const)('mock-llm stopped by %s exits %i', async (signal, code) => {
    const script = join(repoRoot, 'examples', 'scripts', 'five-plus-seven.json');
    const result = await stoppedBy(
      ['mock-llm', '--script', script],
      ({ stderr }) => stderr.includes('Ctrl-C to stop'),
      signal,
    );
    expect(result.code, result.stderr).toBe(code);
    expect(result.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
  });
});
