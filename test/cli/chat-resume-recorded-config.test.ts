/**
 * `mcp-host chat --resume ID` without `--config` takes the config file and model the session recorded, from any
 * folder, still held to approval as a config found by discovery; a recorded file that is gone is said, naming it.
 * The resumed chat numbers its calls after those already in the transcript, and `/expand` reaches the earlier ones.
 * Real processes in pipe mode.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_OK, EXIT_USAGE } from '../../src/cli/exit-codes.js';
import { exampleServer, repoRoot, runCli, temporaryDirectory } from '../helpers/project.js';

let directory: string;
let stateDir: string;
let project: string;
let elsewhere: string;
let configFile: string;
let id: string;

beforeAll(async () => {
  directory = await temporaryDirectory('mcp-host-resume-recorded-');
  stateDir = join(directory, 'state');
  project = join(directory, 'project');
  elsewhere = join(directory, 'elsewhere');
  await mkdir(project);
  await mkdir(elsewhere);
  configFile = join(project, 'mcp-host.json');
  await writeFile(
    configFile,
    JSON.stringify({
      model: `scripted:${join(repoRoot, 'examples', 'scripts', 'five-plus-seven.json')}`,
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' } },
    }),
  );
  const first = await runCli(['chat', '-c', 'mcp-host.json'], { cwd: project, stateDir, input: 'What is 5 plus 7?\n' });
  expect(first.code, first.stderr).toBe(EXIT_OK);
  expect(first.stdout).toContain('[1] ⚙ calculator add_numbers');
  id = /session (\d{8}-\d{6}-[0-9a-f]{8})/.exec(first.stdout)?.[1] ?? '';
}, 60_000);

afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe('chat --resume ID without --config', () => {
  it("uses the session's config once approved, and its model; numbering goes on after the saved calls", async () => {
    const unapproved = await runCli(['chat', '--resume', id], { cwd: elsewhere, stateDir, input: '' });
    expect(unapproved.code, unapproved.stderr).toBe(EXIT_OK);
    expect(unapproved.stdout).toContain('(resumed: 4 message(s), 1 from you)');
    expect(unapproved.stderr).toContain(
      `${configFile} is the config the resumed session was held with and is not approved yet, so its servers were not started`,
    );

    const trusted = await runCli(['trust', 'config', configFile], { cwd: elsewhere, stateDir });
    expect(trusted.code, trusted.stderr).toBe(EXIT_OK);
    const resumed = await runCli(['chat', '--resume', id], {
      cwd: elsewhere,
      stateDir,
      input: 'What is 2 plus 3?\n/expand 1\n/expand 2\n',
    });
    expect(resumed.code, resumed.stderr).toBe(EXIT_OK);
    expect(resumed.stdout).toContain('[2] ⚙ calculator add_numbers {"a":2,"b":3}');
    expect(resumed.stdout).not.toContain('[1] ⚙');
    expect(resumed.stdout).toContain('[1] calculator__add_numbers · from before the resume (as saved)');
    expect(resumed.stdout).toMatch(/\[2\] calculator add_numbers · \d+ ms · ok/);
    expect(resumed.stdout).toContain('2 plus 3 is 5.');
  }, 60_000);

  it('lets --model choose another model, and keeps a session held without a config file without one', async () => {
    const other = join(repoRoot, 'examples', 'scripts', 'inventory.json');
    const chosen = await runCli(['chat', '--resume', id, '--model', `scripted:${other}`], {
      cwd: elsewhere,
      stateDir,
      input: '',
    });
    expect(chosen.code, chosen.stderr).toBe(EXIT_OK);
    expect(chosen.stdout).toMatch(/^mcp-host chat · scripted:inventory\.json · \d+ tool\(s\) from 1 server\(s\)/);

    const bare = join(directory, 'bare');
    await mkdir(bare);
    const model = `scripted:${join(repoRoot, 'examples', 'scripts', 'five-plus-seven.json')}`;
    const first = await runCli(['chat', '--model', model], { cwd: bare, stateDir, input: 'Hello?\n' });
    expect(first.code, first.stderr).toBe(EXIT_OK);
    const bareId = /session (\d{8}-\d{6}-[0-9a-f]{8})/.exec(first.stdout)?.[1] ?? '';
    // The project folder's config is not taken for it: no servers, no note about approving that file.
    const resumed = await runCli(['chat', '--resume', bareId], { cwd: project, stateDir, input: '' });
    expect(resumed.code, resumed.stderr).toBe(EXIT_OK);
    expect(resumed.stdout).toMatch(
      /^mcp-host chat · scripted:five-plus-seven\.json · \d+ tool\(s\) from 0 server\(s\)/,
    );
    expect(resumed.stderr).not.toContain(configFile);
  }, 60_000);

  it('says so, naming the file, when the recorded config is gone; --config still chooses another', async () => {
    const moved = join(directory, 'moved.json');
    await rename(configFile, moved);
    try {
      const gone = await runCli(['chat', '--resume', id], { cwd: elsewhere, stateDir, input: '' });
      expect(gone.code).toBe(EXIT_USAGE);
      expect(gone.stderr).toBe(
        `mcp-host: session ${id} was held with the config file ${configFile}, which is no longer there: resume it with another config (mcp-host chat --resume ${id} --config FILE), or put the file back\n`,
      );
      const given = await runCli(['chat', '--resume', id, '--config', moved], { cwd: elsewhere, stateDir, input: '' });
      expect(given.code, given.stderr).toBe(EXIT_OK);
      expect(given.stdout).toContain('(resumed:');
    } finally {
      await rename(moved, configFile);
    }
  }, 60_000);
});
