/**
 * `mcp-host sessions list -c FILE`: the conversations held with one config, those `chat --continue` chooses from,
 * after real chats over two configs (the calculator example and the scripted model) in one state folder. The commands
 * run in-process; one listing runs as a process of its own, as a person runs it.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_OK, EXIT_USAGE } from '../../src/cli/exit-codes.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { exampleServer, repoRoot, runCli, temporaryDirectory } from '../helpers/project.js';

let directory: string;
let stateDir: string;
const sessionOf: Record<string, string> = {};

interface Listed {
  id: string;
  config: string | null;
}

function listed(stdout: string): Listed[] {
  return JSON.parse(stdout) as Listed[];
}

beforeAll(async () => {
  directory = await temporaryDirectory('mcp-host-sessions-per-config-');
  stateDir = join(directory, 'state');
  const config = {
    model: `scripted:${join(repoRoot, 'examples', 'scripts', 'five-plus-seven.json')}`,
    mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' } },
  };
  for (const name of ['team', 'home']) {
    await mkdir(join(directory, name));
    await writeFile(join(directory, name, 'mcp-host.json'), JSON.stringify(config));
  }
  for (const name of ['team', 'home']) {
    const chat = await runCliInProcess(['chat', '-c', join(name, 'mcp-host.json')], {
      cwd: directory,
      stateDir,
      input: 'What is 5 plus 7?\n',
    });
    expect(chat.code, chat.stderr).toBe(EXIT_OK);
    sessionOf[name] = /session (\d{8}-\d{6}-[0-9a-f]{8})/.exec(chat.stdout)?.[1] ?? '';
  }
}, 60_000);

afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe('mcp-host sessions list --config', () => {
  it('lists only the sessions of the config named, however it is written, and every one without it', async () => {
    const [all, team, teamLeading, homeFromInside] = await Promise.all([
      runCli(['sessions', 'list', '--json'], { cwd: directory, stateDir }),
      runCliInProcess(['sessions', 'list', '--json', '--config', 'team/mcp-host.json'], { cwd: directory, stateDir }),
      runCliInProcess(['-c', join(directory, 'team', 'mcp-host.json'), 'sessions', '--json'], { stateDir }),
      runCliInProcess(['sessions', '-c', 'mcp-host.json'], { cwd: join(directory, 'home'), stateDir }),
    ]);
    expect(all.code).toBe(EXIT_OK);
    expect(
      listed(all.stdout)
        .map((session) => session.id)
        .sort(),
    ).toEqual([sessionOf.team, sessionOf.home].sort());

    for (const result of [team, teamLeading]) {
      expect(result.code, result.stderr).toBe(EXIT_OK);
      expect(listed(result.stdout)).toEqual([
        expect.objectContaining({ id: sessionOf.team, config: join(directory, 'team', 'mcp-host.json') }),
      ]);
    }
    expect(homeFromInside.code).toBe(EXIT_OK);
    expect(homeFromInside.stdout).toContain(sessionOf.home);
    expect(homeFromInside.stdout).not.toContain(sessionOf.team);
  });

  it('chat --continue resumes the newest of its own config, and says so when that config has none', async () => {
    await writeFile(join(directory, 'fresh.json'), await readFile(join(directory, 'team', 'mcp-host.json'), 'utf8'));
    const [team, fresh] = await Promise.all([
      runCliInProcess(['chat', '--continue', '-c', 'team/mcp-host.json'], {
        cwd: directory,
        stateDir,
        input: '/exit\n',
      }),
      runCliInProcess(['chat', '--continue', '-c', 'fresh.json'], { cwd: directory, stateDir, input: '/exit\n' }),
    ]);
    expect(team.code, team.stderr).toBe(EXIT_OK);
    expect(team.stdout).toContain(`session ${sessionOf.team}`);
    expect(team.stdout).toContain('(resumed: 4 message(s), 1 from you)');
    expect(fresh.code, fresh.stderr).toBe(EXIT_OK);
    expect(fresh.stdout).not.toContain(sessionOf.team);
    expect(fresh.stdout).toContain(
      `(no saved conversation of ${join(directory, 'fresh.json')} to continue: this is a new one)`,
    );
  }, 60_000);

  it('says so when the config has none, and names a config that is not there as a usage error', async () => {
    await writeFile(join(directory, 'other.json'), '{}');
    const [none, missing] = await Promise.all([
      runCliInProcess(['sessions', 'list', '-c', 'other.json'], { cwd: directory, stateDir }),
      runCliInProcess(['sessions', 'list', '-c', 'nowhere.json'], { cwd: directory, stateDir }),
    ]);
    expect(none.code).toBe(EXIT_OK);
    expect(none.stdout).toBe(
      `No saved sessions of ${join(directory, 'other.json')} in ${join(stateDir, 'sessions')}.\n`,
    );
    expect(missing.code).toBe(EXIT_USAGE);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(new RegExp(`^mcp-host: ${join(directory, 'nowhere.json')}: expected a config file`));
  });
});
