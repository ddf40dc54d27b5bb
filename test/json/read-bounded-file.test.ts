/**
 * The one bounded reader of files the host did not write: a size `fstat` gives is not trusted (a device or a /proc
 * file says 0), a file past the bound is refused however it is made, and a path a file names is read only when it is
 * a regular file, without a named pipe ever blocking the host.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BoundedReadError, readBoundedFile } from '../../src/json/read-bounded-file.js';

function failure(run: () => unknown): BoundedReadError {
  try {
    run();
  } catch (error) {
    if (error instanceof BoundedReadError) return error;
    throw error;
  }
  throw new Error('expected a BoundedReadError');
}

describe('readBoundedFile', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'bounded-read-'));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('reads a file whole, across pieces, up to and including the bound', () => {
    const file = path.join(folder, 'text');
    const text = `é${'x'.repeat(200_000)}`;
    writeFileSync(file, text);
    expect(readBoundedFile(file, Buffer.byteLength(text))).toBe(text);
    expect(failure(() => readBoundedFile(file, Buffer.byteLength(text) - 1)).failure).toEqual({
      reason: 'too-large',
      size: Buffer.byteLength(text),
    });
  });

  it('refuses a file past the bound by its size, before reading it', () => {
    const file = path.join(folder, 'sparse');
    writeFileSync(file, '');
    truncateSync(file, 1024 * 1024 * 1024);
    const error = failure(() => readBoundedFile(file, 1024));
    expect(error.describe(1024)).toBe(`a file of ${1024 * 1024 * 1024} bytes`);
  });

  it('stops reading a device whose size reads as 0 at the bound, and refuses it where only a file will do', () => {
    const endless = failure(() => readBoundedFile('/dev/zero', 100_000));
    expect(endless.failure).toEqual({ reason: 'too-large', size: undefined });
    expect(endless.describe(100_000)).toBe('more than 100000 bytes');
    const device = failure(() => readBoundedFile('/dev/zero', 100_000, { regularFileOnly: true }));
    expect(device.describe(100_000)).toBe('a device, pipe or socket, not a file');
  });

  it('refuses a named pipe where only a file will do, without waiting for a writer', () => {
    const pipe = path.join(folder, 'pipe');
    execFileSync('mkfifo', [pipe]);
    expect(failure(() => readBoundedFile(pipe, 1024, { regularFileOnly: true })).failure).toEqual({
      reason: 'not-a-file',
    });
  });

  it('names a folder and a missing file', () => {
    expect(failure(() => readBoundedFile(folder, 10)).describe(10)).toBe('a folder');
    expect(failure(() => readBoundedFile(path.join(folder, 'none'), 10)).describe(10)).toBe('no such file');
  });
});
