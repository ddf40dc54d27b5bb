import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureStateDir, resolveStateDir } from '../../src/config/state-dir.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'mcp-host-state-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('resolveStateDir', () => {
  const home = '/home/someone';

  it('prefers the flag, then MCP_HOST_STATE_DIR, then XDG_STATE_HOME, then ~/.local/state', () => {
    const env = { MCP_HOST_STATE_DIR: '/env/state', XDG_STATE_HOME: '/xdg' };
    expect(resolveStateDir({ flag: '/flag/state', env, homeDirectory: home })).toBe('/flag/state');
    expect(resolveStateDir({ env, homeDirectory: home })).toBe('/env/state');
    expect(resolveStateDir({ env: { XDG_STATE_HOME: '/xdg' }, homeDirectory: home })).toBe('/xdg/mcp-host');
    expect(resolveStateDir({ env: {}, homeDirectory: home })).toBe('/home/someone/.local/state/mcp-host');
  });

  it('resolves a relative flag against the working folder, ignores empty values and a relative XDG_STATE_HOME', () => {
    expect(resolveStateDir({ flag: 'state', env: {}, cwd: '/work', homeDirectory: home })).toBe('/work/state');
    expect(resolveStateDir({ flag: '', env: { MCP_HOST_STATE_DIR: '' }, homeDirectory: home })).toBe(
      '/home/someone/.local/state/mcp-host',
    );
    expect(resolveStateDir({ env: { XDG_STATE_HOME: 'relative' }, homeDirectory: home })).toBe(
      '/home/someone/.local/state/mcp-host',
    );
  });
});

describe('ensureStateDir', () => {
  it('creates the folder and its parents with mode 0700, and leaves an existing one alone', () => {
    const target = path.join(directory, 'deep', 'state');
    expect(ensureStateDir(target)).toBe(target);
    expect(statSync(target).mode & 0o777).toBe(0o700);
    expect(ensureStateDir(target)).toBe(target);
  });

  it('says what to do when the path is a file', () => {
    const file = path.join(directory, 'file');
    writeFileSync(file, '');
    expect(() => ensureStateDir(file)).toThrow(/exists but is not a folder.*--state-dir or MCP_HOST_STATE_DIR/);
  });
});
