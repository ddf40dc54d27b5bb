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
import { bundledCliPath, temporaryDirectory } from '../helpers/project.js';
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
