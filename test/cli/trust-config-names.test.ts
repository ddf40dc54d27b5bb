/**
 * `mcp-host trust` prints names a config file chose (servers, skill folders) and what its servers wrote: a hostile
 * config puts terminal escapes and text-direction controls into them. Human output keeps the words without any
 * control code, as every other command prints; `--json` keeps every character, written as `\u` escapes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasControlCodes } from '../../src/text/strip-control-codes.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { repoRoot, temporaryDirectory, writeConfig } from '../helpers/project.js';

const directionServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'secrets', 'text-direction-server.mjs'));
const TIMEOUT_MS = 120_000;
const RUN = { timeoutMs: 90_000 };

/** A colour escape, a window-title escape and direction controls, around words that stay. */
const SERVER = 'evil\u001b[31m\u202ename\u2066';
const BROKEN = 'broken\u001b]0;title\u0007\u2067server\u2069';
const FOLDER = 'folder\u001b[32m\u202eof-skills';

function expectNoControlCodes(output: { stdout: string; stderr: string }, where: string): void {
  for (const stream of ['stdout', 'stderr'] as const) {
    expect(hasControlCodes(output[stream]), `${where} ${stream}: ${JSON.stringify(output[stream])}`).toBe(false);
  }
}

async function hostileConfig(): Promise<{ config: string; stateDir: string }> {
  const root = await temporaryDirectory();
  const skill = join(root, FOLDER, 'deploy');
  mkdirSync(skill, { recursive: true });
  writeFileSync(join(skill, 'SKILL.md'), '---\nname: deploy\ndescription: Deploys the app.\n---\n\nDo it.\n');
  const config = await writeConfig({
    skills: [join(root, FOLDER)],
    mcpServers: {
      [SERVER]: { command: process.execPath, args: [directionServer] },
      // Fails to start: its name and its stderr (the missing file, named with escapes) reach the error.
      [BROKEN]: { command: process.execPath, args: [join(root, `${BROKEN}.mjs`)] },
    },
  });
  return { config, stateDir: await temporaryDirectory() };
}

describe('trust prints names from the config without control codes', () => {
  it(
    'trust list, approve and revoke, and their errors',
    async () => {
      const { config, stateDir } = await hostileConfig();
      const run = (args: string[]) => runCliInProcess([...args, '--config', config], { ...RUN, stateDir });

      const listed = await run(['trust', 'list']);
      expect(listed.code).toBe(1);
      expect(listed.stderr).toContain('could not list the tools of brokenserver');
      expectNoControlCodes(listed, 'trust list');

      const unknown = await run(['trust', 'approve', 'nothing']);
      expect(unknown.stderr).toContain('configured servers: evilname, brokenserver');
      expectNoControlCodes(unknown, 'trust approve nothing');

      const approved = await run(['trust', 'approve', SERVER]);
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toContain('Approved server evilname (was new)');
      expectNoControlCodes(approved, 'trust approve');

      const notStored = await run(['trust', 'revoke', 'nothing']);
      expect(notStored.stderr).toContain('servers there: evilname');
      expectNoControlCodes(notStored, 'trust revoke nothing');

      const revoked = await run(['trust', 'revoke', SERVER]);
      expect(revoked.stdout).toContain('Revoked server evilname');
      expectNoControlCodes(revoked, 'trust revoke');
    },
    TIMEOUT_MS,
  );

  it(
    'trust approve and revoke of a skill in a folder the config names',
    async () => {
      const { config, stateDir } = await hostileConfig();
      const approved = await runCliInProcess(['trust', 'approve', 'skill:deploy', '--config', config], { stateDir });
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toMatch(/Approved skill deploy \(was new; .*folderof-skills[/\\]deploy\)/);
      expectNoControlCodes(approved, 'trust approve skill');

      const revoked = await runCliInProcess(['trust', 'revoke', 'skill:deploy', '--config', config], { stateDir });
      expect(revoked.stdout).toContain('Revoked skill deploy');
      expectNoControlCodes(revoked, 'trust revoke skill');
    },
    TIMEOUT_MS,
  );

  it(
    'trust list --json writes them as escapes',
    async () => {
      const { config, stateDir } = await hostileConfig();
      const listed = await runCliInProcess(['trust', 'list', '--json', '--offline', '--config', config], { stateDir });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain('\\u202ename\\u2066');
      expectNoControlCodes(listed, 'trust list --json');
      const report = JSON.parse(listed.stdout) as Array<{ name: string }>;
      expect(report.map((server) => server.name)).toEqual([SERVER, BROKEN]);
    },
    TIMEOUT_MS,
  );
});
