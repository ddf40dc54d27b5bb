/**
 * The real CLI's `tools call` output: the server's own text (not the compact structuredContent JSON the model may
 * get), images written to files with `--save DIR`, a failed call's text on stderr, and a text too long to hold in
 * memory printed whole from its stored copy.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SPILL_MIN_CHARS } from '../../src/connections/spilled-text.js';
import { packageBin } from '../client-features/helpers.js';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { runCli, temporaryDirectory, writeConfig } from '../helpers/project.js';

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

  it('refuses --save naming a file before any server starts, so the call is not made for nothing', async () => {
    const stateDir = await temporaryDirectory();
    const result = await runCliInProcess(
      ['tools', 'call', 'everything__get-tiny-image', '--save', 'mcp-host.json', '--config', config],
      { cwd: directory, stateDir, timeoutMs: 60_000 },
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `mcp-host: --save ${config}: expected a folder to write images, audio and blobs into, found a file; name a folder (it is created when missing)\n`,
    );
    // No server was started: the audit log, which records every start, was never written.
    expect(existsSync(join(stateDir, 'audit.jsonl'))).toBe(false);
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

  it("prints a failed call's long line whole, as it is the call's output, not one of the host's messages", async () => {
    const missing = join(directory, ...Array.from({ length: 15 }, () => 'y'.repeat(200)));
    const result = await runCliInProcess(
      ['tools', 'call', 'fs__read_text_file', `path=${missing}`, '--config', config],
      {
        cwd: directory,
        timeoutMs: 60_000,
      },
    );
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(missing);
  }, 90_000);
});

/** The text the big-result fixture answers (see its header): numbered 64-character lines between two markers. */
function numberedLine(number: number): string {
  return `line ${String(number).padStart(7, '0')} ${'.'.repeat(50)}\n`;
}

function bigResultText(megabytes: number): string {
  const head = 'BEGIN big result\n';
  const tail = '\nEND big result';
  const body = Math.round(megabytes * 1024 * 1024) - head.length - tail.length;
  const count = Math.floor(body / 64);
  const lines = Array.from({ length: count }, (_, index) => numberedLine(index + 1));
  return head + lines.join('') + '.'.repeat(body - count * 64) + tail;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('tools call with a text too long to hold in memory', () => {
  it('prints the whole text from its stored copy, redacted; --json as the same bytes as if it were held', async () => {
    // Just over the length from which a text from a stdio server is written out as it arrives.
    const megabytes = 8.01;
    // A secret the server was given, whose one occurrence spans the end of the first megabyte the copy is read in.
    const secret = numberedLine(8_192).trimEnd();
    // Built once: each build of 8 MB of numbered lines costs a third of a second.
    const original = bigResultText(megabytes);
    const expected = original.split(secret).join('[redacted]');
    expect(expected.length).toBeGreaterThan(SPILL_MIN_CHARS);
    expect(original.indexOf(secret)).toBeLessThan(512 * 1024);
    expect(original.indexOf(secret) + secret.length).toBeGreaterThan(512 * 1024);
    const bigConfig = await writeConfig({
      mcpServers: {
        big: {
          command: process.execPath,
          args: [fixtureServerPath('big-result')],
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own substitution syntax.
          env: { BIG_TOKEN: '${env:BIG_TOKEN}' },
          timeoutMs: 120_000,
        },
      },
      permissions: { allow: ['big__*'] },
    });
    const args = ['tools', 'call', 'big__big_text', `megabytes=${megabytes}`, '--config', bigConfig];
    const env = { BIG_TOKEN: secret };

    // A process of its own: what is tested is what reaches its stdout.
    const plain = await runCli(args, { env, timeoutMs: 120_000 });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout.length).toBe(expected.length + 1);
    expect(sha256(plain.stdout)).toBe(sha256(`${expected}\n`));

    const json = await runCliInProcess([...args, '--json'], { env, timeoutMs: 120_000 });
    expect(json.code, json.stderr).toBe(0);
    const printed = JSON.parse(json.stdout) as { outcome: string; result: { content: Array<{ text: string }> } };
    expect(printed.outcome).toBe('ok');
    expect(sha256(printed.result.content[0]!.text)).toBe(sha256(expected));
    expect(sha256(json.stdout)).toBe(sha256(`${JSON.stringify(printed, null, 2)}\n`));
  }, 240_000);
});
