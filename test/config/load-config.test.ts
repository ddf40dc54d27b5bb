// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the config syntax under test, not a template mistake.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approveConfig } from '../../src/config/config-approvals.js';
import type { ConfigError } from '../../src/config/config-error.js';
import { CONFIG_FILE_NAMES, loadConfig } from '../../src/config/load-config.js';
import { createEmptyConfig } from '../../src/config/parse-config.js';
import type { StdioServerConfig } from '../../src/config/types.js';
import { rejectedConfigError } from '../helpers/config-errors.js';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'mcp-host-config-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function writeConfig(name: string, servers: Record<string, unknown>): Promise<string> {
  const file = path.join(folder, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

function loadFailure(options: Parameters<typeof loadConfig>[0]): Promise<ConfigError> {
  return rejectedConfigError(() => loadConfig(options));
}

describe('loadConfig', () => {
  it('looks for mcp-host.json then .mcp.json', () => {
    expect(CONFIG_FILE_NAMES).toEqual(['mcp-host.json', '.mcp.json']);
  });

  it('prefers mcp-host.json over .mcp.json in the working folder', async () => {
    await writeConfig('.mcp.json', { fromDotMcp: { command: 'x' } });
    const hostFile = await writeConfig('mcp-host.json', { fromHost: { command: 'x' } });
    const config = await loadConfig({ cwd: folder, env: {}, requireApproval: false });
    expect(config.file).toBe(hostFile);
    expect(config.servers.map((server) => server.name)).toEqual(['fromHost']);
  });

  it('falls back to .mcp.json', async () => {
    const dotFile = await writeConfig('.mcp.json', { fromDotMcp: { command: 'x' } });
    const config = await loadConfig({ cwd: folder, env: {}, requireApproval: false });
    expect(config.file).toBe(dotFile);
    expect(config.servers.map((server) => server.name)).toEqual(['fromDotMcp']);
    expect((config.servers[0] as StdioServerConfig).cwd).toBe(folder);
  });

  it('returns an empty config without a file when neither exists', async () => {
    const config = await loadConfig({ cwd: folder, env: {}, requireApproval: false });
    expect(config).toEqual({ servers: [], permissions: { allow: [], ask: [], deny: [] }, secrets: [], warnings: [] });
    expect(config.file).toBeUndefined();
  });

  it('reads an explicit path relative to cwd, ignoring the default names', async () => {
    await writeConfig('mcp-host.json', { fromHost: { command: 'x' } });
    const explicit = await writeConfig('configs/team.json', { team: { command: 'x', cwd: '../run' } });
    const config = await loadConfig({ configPath: 'configs/team.json', cwd: folder, env: {} });
    expect(config.file).toBe(explicit);
    expect(config.servers.map((server) => server.name)).toEqual(['team']);
    expect((config.servers[0] as StdioServerConfig).cwd).toBe(path.join(folder, 'run'));
  });

  it('fails naming an explicit path that does not exist', async () => {
    await writeConfig('mcp-host.json', { fromHost: { command: 'x' } });
    const error = await loadFailure({ configPath: 'missing.json', cwd: folder, env: {} });
    expect(error.code).toBe('config-not-found');
    expect(error.file).toBe(path.join(folder, 'missing.json'));
    expect(error.message).toContain(path.join(folder, 'missing.json'));
  });

  it('fails clearly when the path is a folder', async () => {
    await mkdir(path.join(folder, 'conf.json'));
    const error = await loadFailure({ configPath: 'conf.json', cwd: folder, env: {} });
    expect(error.code).toBe('config-unreadable');
    expect(error.found).toBe('a folder');
  });

  it('passes the environment through for substitution', async () => {
    await writeFile(path.join(folder, '.mcp.json'), '{"mcpServers": {"a": {"command": "x", "args": ["${env:KEY}"]}}}');
    const config = await loadConfig({ cwd: folder, env: { KEY: 'k-1' }, requireApproval: false });
    expect((config.servers[0] as StdioServerConfig).args).toEqual(['k-1']);
    expect(config.secrets).toEqual(['k-1']);
    const unset = await loadConfig({ cwd: folder, env: {}, requireApproval: false });
    expect(unset.servers[0]?.unavailable).toContain(`${path.join(folder, '.mcp.json')}: mcpServers.a.args[0]`);
    expect(unset.servers[0]?.unavailable).toContain('KEY');
  });

  it('reports bad JSON in a found file with its line and column', async () => {
    await writeFile(
      path.join(folder, 'mcp-host.json'),
      '{\n  "mcpServers": {\n    "a": {"command": "x"}\n  }\n  "model": "x"\n}\n',
    );
    const error = await loadFailure({ cwd: folder, env: {}, requireApproval: false });
    expect(error.code).toBe('config-invalid-json');
    expect([error.line, error.column]).toEqual([5, 3]);
    expect(error.message).toContain(`${path.join(folder, 'mcp-host.json')}:5:3:`);
  });
});

describe('loadConfig of a file holding a __proto__ key', () => {
  // Written as text: an object literal's `__proto__` sets the prototype instead of a key, JSON.parse keeps the key.
  const cases = [
    {
      keyPath: 'mcpServers.fs.env.__proto__',
      text: '{"mcpServers": {"fs": {"command": "x", "env": {"__proto__": "1"}}}}',
    },
    {
      keyPath: 'mcpServers.web.headers.__proto__',
      text: '{"mcpServers": {"web": {"url": "https://example.com/mcp", "headers": {"X": "1", "__proto__": "2"}}}}',
    },
    {
      keyPath: 'profiles.__proto__',
      text: '{"mcpServers": {"fs": {"command": "x"}}, "profiles": {"__proto__": {"servers": ["fs"]}}}',
    },
    { keyPath: '__proto__', text: '{"__proto__": {"maxTurns": 3}, "mcpServers": {}}' },
    { keyPath: 'roots[1].__proto__', text: '{"roots": [".", {"__proto__": 1}]}' },
  ];

  it.each(cases)('refuses it at $keyPath, naming the file and the key', async ({ keyPath, text }) => {
    const file = path.join(folder, 'mcp-host.json');
    await writeFile(file, text);
    const error = await loadFailure({ configPath: file, env: {} });
    expect(error.code).toBe('config-invalid');
    expect(error.keyPath).toBe(keyPath);
    expect(error.message).toContain(`${file}: ${keyPath}: expected no key named \`__proto__\``);
  });

  it('loads the same file with the key renamed', async () => {
    const file = path.join(folder, 'mcp-host.json');
    await writeFile(file, cases[0]!.text.replace('__proto__', 'PROTO'));
    const config = await loadConfig({ configPath: file, env: {} });
    expect((config.servers[0] as StdioServerConfig).env).toEqual({ PROTO: '1' });
  });

  it("loads an editor's settings file whose __proto__ key is in a setting that is not about servers", async () => {
    const file = path.join(folder, 'settings.json');
    await writeFile(file, '{"editor.x": {"__proto__": 1}, "mcp": {"servers": {"fs": {"command": "x"}}}}');
    const config = await loadConfig({ configPath: file, env: {} });
    expect(config.servers.map((server) => server.name)).toEqual(['fs']);
  });

  it('refuses a deeply nested file with the key at the bottom, naming its whole path', async () => {
    const file = path.join(folder, 'mcp-host.json');
    // As deep as a config may nest (128 levels): the file's object and the key's hold two of them.
    const depth = 126;
    await writeFile(file, `{"mcpServers": {}, "x": ${'['.repeat(depth)}{"__proto__": 1}${']'.repeat(depth)}}`);
    const error = await loadFailure({ configPath: file, env: {} });
    expect(error.keyPath).toBe(`x${'[0]'.repeat(depth)}.__proto__`);
  });
});

describe('loadConfig of a file found by discovery', () => {
  it('uses nothing of it until its content is approved, and again after it changes', async () => {
    const stateDir = await mkdtemp(path.join(tmpdir(), 'mcp-host-state-'));
    const file = await writeConfig('.mcp.json', { planted: { command: 'x' } });
    const unapproved = await loadConfig({ cwd: folder, env: {}, stateDir });
    expect(unapproved).toEqual({ ...createEmptyConfig(), file, awaitingApproval: 'new' });
    approveConfig(stateDir, file, await readFile(file, 'utf8'));
    expect((await loadConfig({ cwd: folder, env: {}, stateDir })).servers.map((server) => server.name)).toEqual([
      'planted',
    ]);
    await writeConfig('.mcp.json', { planted: { command: 'y' } });
    expect((await loadConfig({ cwd: folder, env: {}, stateDir })).awaitingApproval).toBe('changed');
    // Named explicitly, it is the user's own choice.
    expect((await loadConfig({ configPath: '.mcp.json', cwd: folder, env: {}, stateDir })).servers).toHaveLength(1);
  });
});
