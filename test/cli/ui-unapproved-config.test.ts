/**
 * `mcp-host ui` beside a config found in the folder and not approved says on the terminal, as every other command
 * does, that its servers were not started and how to approve it: the pages alone showed no server and no reason.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exampleServer, type StartedCli, startCli } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';

const started: StartedCli[] = [];

afterEach(() => {
  for (const cli of started.splice(0)) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
});

/** The UI's phase as its pages read it; undefined for an answer that is no state (an error). */
async function uiPhase(address: URL): Promise<string | undefined> {
  const token = address.searchParams.get('token') ?? '';
  const answer = await fetch(new URL('/api/state', address), { headers: { authorization: `Bearer ${token}` } });
  if (answer.status !== 200) return undefined;
  return ((await answer.json()) as { phase?: string }).phase;
}

describe('the web UI beside a config awaiting approval', () => {
  it('says on stderr that its servers were not started, with the command that approves it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mcp-host-ui-cloned-'));
    const config = join(folder, 'mcp-host.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { calc: { command: process.execPath, args: [exampleServer('calculator')] } } }),
    );
    const cli = startCli(['ui'], { cwd: folder });
    started.push(cli);
    await waitUntil(() => cli.output().stdout.includes('\n') || cli.child.exitCode !== null, 'the UI address', 60_000);
    const address = new URL(cli.output().stdout.split('\n')[0] ?? '');
    let phase: string | undefined;
    await waitUntil(
      async () => {
        phase = await uiPhase(address);
        return phase === 'ready' || phase === 'failed';
      },
      'the UI to finish starting',
      60_000,
    );
    expect(phase).toBe('ready');
    cli.child.kill('SIGINT');
    const { stderr } = await cli.closed;
    expect(stderr).toContain(
      `mcp-host: ${config} was found in the working folder and is not approved yet, so its servers were not started; review it, then approve it with: mcp-host trust config ${config}\n`,
    );
  }, 120_000);
});
