/**
 * `--root DIR` on the commands that start servers and take no other common option: `serve` and `ui` declare that
 * folder as the servers' roots, as `run` and `tools` do. The real CLI, server-filesystem behind it (declared roots
 * replace the folder on its command line), and an MCP client or the UI's API in front.
 */
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { bundledCliPath, runCli, temporaryDirectory } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';
import { callUiApi, startUi } from '../helpers/web-ui-process.js';
import { packageBin } from './helpers.js';

const filesystem = packageBin('@modelcontextprotocol/server-filesystem');

async function setUp() {
  const folder = await realpath(await temporaryDirectory('mcp-host-roots-serve-'));
  const notes = join(folder, 'notes');
  const other = join(folder, 'other');
  for (const directory of [notes, other]) await mkdir(directory);
  const config = join(folder, 'mcp-host.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: { fs: { command: process.execPath, args: [filesystem, notes] } },
      permissions: { allow: ['fs__*'] },
    }),
  );
  return { folder, notes, other, config, stateDir: await temporaryDirectory('mcp-host-roots-serve-state-') };
}

/**
 * server-filesystem asks for the roots once initialised and applies them in its own time, so the listing is asked
 * for again until the declared folder shows, or five times.
 */
async function allowedDirectories(list: () => Promise<string>, declared: string): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    const text = await list();
    if (text.includes(declared) || attempt === 5) return text;
  }
}

describe('--root on serve and ui', () => {
  it('serve --root DIR declares that folder to the servers behind the gateway', async () => {
    const { notes, other, config, stateDir } = await setUp();
    const client = new Client({ name: 'roots-test', version: '1.0.0' });
    try {
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [bundledCliPath(), 'serve', '--config', config, '--state-dir', stateDir, '--root', other],
          stderr: 'pipe',
        }),
      );
      const text = await allowedDirectories(
        async () => textOf(await client.callTool({ name: 'fs__list_allowed_directories', arguments: {} })),
        other,
      );
      expect(text).toContain(other);
      expect(text).not.toContain(notes);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('ui --root DIR declares that folder to the servers of the UI', async () => {
    const { notes, other, config, stateDir } = await setUp();
    const ui = await startUi(['--config', config, '--state-dir', stateDir, '--root', other]);
    try {
      const text = await allowedDirectories(async () => {
        const answer = await callUiApi<{ content: unknown }>(ui, '/api/tools/call', {
          name: 'fs__list_allowed_directories',
          arguments: {},
        });
        expect(answer.status).toBe(200);
        return textOf(answer.body);
      }, other);
      expect(text).toContain(other);
      expect(text).not.toContain(notes);
    } finally {
      await ui.stop();
    }
  }, 120_000);
});

describe('a --root that is no folder', () => {
  it('is a usage error naming the option, the value and what is there, before any server starts', async () => {
    const { folder, config } = await setUp();
    const missing = await runCli(['tools', 'list', '--config', config, '--root', 'notse'], { cwd: folder });
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toBe(
      `mcp-host: option '--root <dir>' argument 'notse' is invalid. There is no folder at ${join(folder, 'notse')}.\n`,
    );

    const file = await runCli(['serve', '--config', config, '--root', 'mcp-host.json'], { cwd: folder });
    expect(file.code, file.stderr).toBe(2);
    expect(file.stderr).toContain(
      `argument 'mcp-host.json' is invalid. ${join(folder, 'mcp-host.json')} is not a folder.`,
    );

    const url = await runCli(['run', '--config', config, '--root', 'https://example.com/x', 'hi'], { cwd: folder });
    expect(url.code, url.stderr).toBe(2);
    expect(url.stderr).toContain(`argument 'https://example.com/x' is invalid. It must be ${EXPECTED_ROOT}.`);
  }, 60_000);

  it('names the option, the value cut short and what a root is, for a file: URI that names no folder', async () => {
    const { folder, config } = await setUp();
    const rootError = async (value: string): Promise<string> => {
      const result = await runCli(['tools', 'list', '--config', config, '--root', value], { cwd: folder });
      expect(result.code, result.stderr).toBe(2);
      return result.stderr;
    };

    expect(await rootError('file://%zz')).toBe(
      `mcp-host: option '--root <dir>' argument 'file://%zz' is invalid. It is not a valid file:// URI; a root must be ${EXPECTED_ROOT}.\n`,
    );
    expect(await rootError('file:notes')).toBe(
      `mcp-host: option '--root <dir>' argument 'file:notes' is invalid. It is a file: URI without //, which names no folder; a root must be ${EXPECTED_ROOT}.\n`,
    );
    const elsewhere = await rootError('file://elsewhere/notes');
    expect(elsewhere).toContain(
      "mcp-host: option '--root <dir>' argument 'file://elsewhere/notes' is invalid. It is not a file:// URI of a folder on this machine (File URL host must be",
    );
    expect(elsewhere).toContain(`; a root must be ${EXPECTED_ROOT}.\n`);

    const long = await rootError(`file://%zz/${'a'.repeat(100_000)}`);
    expect(long.length).toBeLessThan(1_000);
    expect(long).toMatch(
      /^mcp-host: option '--root <dir>' argument 'file:\/\/%zz\/a+…' is invalid\. It is not a valid file:\/\/ URI/,
    );
  }, 60_000);
});

const EXPECTED_ROOT = 'a folder path, or a file:// URI of a folder on this machine (file:///path/to/folder)';
