/**
 * The real CLI and server-filesystem: the host declares roots only when they are configured (`roots` in the
 * config or `--root DIR`). Declared roots replace the folders server-filesystem was started with; undeclared, the
 * server keeps the folder on its own command line whatever folder the host runs in.
 */
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { runCli, temporaryDirectory } from '../helpers/project.js';
import { packageBin } from './helpers.js';

const filesystem = packageBin('@modelcontextprotocol/server-filesystem');

async function setUp(extra: Record<string, unknown> = {}) {
  const folder = await realpath(await temporaryDirectory('mcp-host-roots-'));
  const notes = join(folder, 'notes');
  const elsewhere = join(folder, 'elsewhere');
  const other = join(folder, 'other');
  for (const directory of [notes, elsewhere, other]) await mkdir(directory);
  await writeFile(join(notes, 'today.md'), 'buy milk\n');
  const config = join(folder, 'mcp-host.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: { fs: { command: process.execPath, args: [filesystem, notes] } },
      permissions: { allow: ['fs__*'] },
      ...extra,
    }),
  );
  return { folder, notes, elsewhere, other, config };
}

const allowed = ['tools', 'call', 'fs__list_allowed_directories'];

/**
 * server-filesystem asks for the roots once initialised and applies them in its own time (it resolves each folder
 * first), so a call made at once may still see the folder it started with: the listing is asked for again, in a new
 * run, until the declared folder shows (or five runs have not shown it).
 */
async function listAllowedDirectories(args: string[], cwd: string, declared: string) {
  for (let run = 1; ; run += 1) {
    const result = await runCliInProcess([...allowed, ...args], { cwd, timeoutMs: 60_000 });
    if (result.code !== 0 || result.stdout.includes(declared) || run === 5) return result;
  }
}

describe('roots are declared only when configured', () => {
  it('without roots, server-filesystem keeps the folder from its command line wherever the host runs', async () => {
    const { notes, elsewhere, config } = await setUp();
    // One real process; the other runs use the same program in the test worker.
    const result = await runCli([...allowed, '--config', config], { cwd: elsewhere, timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(notes);
    expect(result.stdout).not.toContain(elsewhere);

    const read = await runCliInProcess(
      ['tools', 'call', 'fs__read_text_file', `path=${join(notes, 'today.md')}`, '--config', config],
      {
        cwd: elsewhere,
        timeoutMs: 60_000,
      },
    );
    expect(read.stdout).toContain('buy milk');
  }, 120_000);

  it('with --root DIR, that folder is declared and replaces the server’s own', async () => {
    const { notes, elsewhere, other, config } = await setUp();
    const result = await listAllowedDirectories(['--config', config, '--root', other], elsewhere, other);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(other);
    expect(result.stdout).not.toContain(notes);
  }, 120_000);

  it('with `roots` in the config, those folders are declared', async () => {
    const { notes, elsewhere, other, config } = await setUp({ roots: ['other'] });
    const result = await listAllowedDirectories(['--config', config], elsewhere, other);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(other);
    expect(result.stdout).not.toContain(notes);
  }, 120_000);
});
