/**
 * A stored result's name in the store's folder taken by something the host did not write there (the folder of a
 * resumed session may have been changed by someone else): a link is not followed out of the folder, and a named
 * pipe is not waited on. Both are refused at once, as results no longer stored.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createResultStore } from '../../src/content/result-store.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'result-store-kinds-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('a stored result that is not a file the host wrote', () => {
  it('refuses a link out of the folder and a named pipe, at once', async () => {
    const folder = join(directory, 'results');
    await mkdir(folder, { mode: 0o700 });
    const secret = join(directory, 'secret.txt');
    // As the store writes its files: a UTF-16LE byte-order mark, then the text.
    await writeFile(secret, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('the secret', 'utf16le')]));
    const linked = `res_${'a'.repeat(24)}`;
    const piped = `res_${'b'.repeat(24)}`;
    await symlink(secret, join(folder, `${linked}.txt`));
    execFileSync('mkfifo', [join(folder, `${piped}.txt`)]);
    const store = createResultStore(folder);
    await expect(store.read(linked, 0, 100)).rejects.toMatchObject({
      code: 'not-stored',
      message: `Stored result ${linked} is a symbolic link in ${folder}, not a file the host wrote; it is not read.`,
    });
    await expect(store.read(piped, 0, 100)).rejects.toMatchObject({
      code: 'not-stored',
      message: `Stored result ${piped} is a folder, device or pipe in ${folder}, not a file the host wrote; it is not read.`,
    });
  });
});
