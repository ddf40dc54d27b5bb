/**
 * The session writer over a file name taken by something else: a symbolic link is not followed (the file it names
 * keeps its bytes), and a named pipe is refused at once, not written into.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionFileWriter } from '../../src/sessions/session-file-writer.js';
import type { SessionRecord } from '../../src/sessions/session-records.js';
import { temporaryDirectory } from '../helpers/project.js';

let stateDir: string;
beforeEach(async () => {
  stateDir = await temporaryDirectory();
  mkdirSync(join(stateDir, 'sessions'), { mode: 0o700 });
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

const record: SessionRecord = {
  type: 'message',
  at: '2026-01-01T00:00:01.000Z',
  message: { role: 'user', content: [{ type: 'text', text: 'hello' }] },
};

describe('the session file writer', () => {
  it('does not follow a symbolic link under the session file name, and leaves the file it names as it was', () => {
    const other = join(stateDir, 'precious.txt');
    writeFileSync(other, 'keep me\n');
    const file = join(stateDir, 'sessions', '20260101-000000-0000aaaa.jsonl');
    symlinkSync(other, file);
    const writer = createSessionFileWriter(file);
    expect(() => writer.append(record)).toThrow(
      `could not open the session file ${file} (it is a symbolic link, which is not followed; remove it)`,
    );
    expect(readFileSync(other, 'utf8')).toBe('keep me\n');
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it('refuses a named pipe under the session file name at once', () => {
    const file = join(stateDir, 'sessions', '20260101-000000-0000bbbb.jsonl');
    execFileSync('mkfifo', [file]);
    const writer = createSessionFileWriter(file);
    expect(() => writer.append(record)).toThrow(
      `could not open the session file ${file} (it is a device, pipe or socket, not a file; remove it)`,
    );
  });

  it('still appends to a regular file, one line per record', () => {
    const file = join(stateDir, 'sessions', '20260101-000000-0000cccc.jsonl');
    const writer = createSessionFileWriter(file);
    writer.append(record);
    writer.append(record);
    expect(readFileSync(file, 'utf8').split('\n')).toEqual([JSON.stringify(record), JSON.stringify(record), '']);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
  });
});
