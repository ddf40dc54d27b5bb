/**
 * A config file's text, read with a bound: a config is a few kilobytes, and a path naming a device or a huge file
 * (`--config /dev/zero`) must end in an error that says so, not in reading until memory runs out.
 */

import { open } from 'node:fs/promises';
import { ConfigError } from './config-error.js';

/** Far beyond any config (an editor's settings file included), far below what would strain memory. */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

const CHUNK_BYTES = 1024 * 1024;

/** The file's text, or undefined when it does not exist; other failures, a size past the bound included, are a `ConfigError`. */
export async function readConfigText(file: string): Promise<string | undefined> {
  const unreadable = (found: string): ConfigError =>
    new ConfigError({ code: 'config-unreadable', file, keyPath: '', expected: 'a readable file', found });
  const tooLarge = (found: string): ConfigError =>
    new ConfigError({
      code: 'config-unreadable',
      file,
      keyPath: '',
      expected: `a config file of at most ${MAX_CONFIG_BYTES / 1024 / 1024} MiB`,
      found,
    });
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw unreadable(describeReadError(error));
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw unreadable('a folder');
    // A regular file says its size; a device or a pipe is read up to the bound.
    if (stats.isFile() && stats.size > MAX_CONFIG_BYTES) throw tooLarge(`a file of ${stats.size} bytes`);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > MAX_CONFIG_BYTES) throw tooLarge(`more than ${MAX_CONFIG_BYTES} bytes`);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw unreadable(describeReadError(error));
  } finally {
    await handle.close();
  }
}

function describeReadError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EISDIR') return 'a folder';
  return `a read error (${code ?? (error as Error).message})`;
}
