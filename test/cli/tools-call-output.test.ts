/**
 * The real CLI's `tools call` output: the server's own text (not the compact structuredContent JSON the model may
 * get), images written to files with `--save DIR`, and a failed call's text on stderr.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageBin } from '../client-features/helpers.js';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { temporaryDirectory } from '../helpers/project.js';

let directory: string;
let config: string;

beforeAll(async () => {
  directory = await temporaryDirectory();
  config = join(directory, 'mcp-host.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        fs: { command: process.execPath, args: [packageBin('@modelcontextprotocol/server-filesystem'), directory] },
        everything: { command: process.execPath, args: [packageBin('@modelcontextprotocol/server-everything')] },
        hang: { command: process.execPath, args: [fixtureServerPath('hang')] },
      },
      permissions: { allow: ['fs__*', 'everything__*', 'hang__*'] },
    }),
  );
});

describe('tools call output', () => {
  it("prints the server's text, not compact structuredContent", async () => {
    const result = await runCliInProcess(['tools', 'call', 'fs__list_allowed_directories', '--config', config], {
      cwd: directory,
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.startsWith('Allowed directories:\n')).toBe(true);
    expect(result.stdout).not.toContain('{"content"');
  }, 90_000);

  it('writes an image to a file with --save DIR', async () => {
    const saveTo = join(directory, 'saved');
    const result = await runCliInProcess(
      ['tools', 'call', 'everything__get-tiny-image', '--save', saveTo, '--config', config],
      {
        cwd: directory,
        timeoutMs: 60_000,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const files = readdirSync(saveTo);
    expect(files).toEqual(['image-1.png']);
    // The PNG signature: the bytes were decoded, not the base64 text written.
    expect(readFileSync(join(saveTo, files[0]!)).subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(result.stdout).toContain(`saved to ${join(saveTo, 'image-1.png')}`);
  }, 90_000);

  it("prints a failed call's text on stderr", async () => {
    const result = await runCliInProcess(['tools', 'call', 'hang__hang', '--timeout', '300', '--config', config], {
      cwd: directory,
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('timeout of 300 ms');
  }, 90_000);
});
