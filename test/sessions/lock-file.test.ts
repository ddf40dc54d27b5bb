/**
 * A session lock is one short line, but anything may lie under a lock's name in a shared sessions folder: a file of
 * many megabytes is read only as far as a lock could go, and taken for the damaged lock it is.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLockFile } from '../../src/sessions/lock-file.js';
import { holdSession, releaseSession, sessionLockFile } from '../../src/sessions/session-lock.js';
import { temporaryDirectory } from '../helpers/project.js';

describe('a file of many megabytes under a session lock’s name', () => {
  it('is read no further than a lock could go, and taken over as a damaged lock', async () => {
    const folder = await temporaryDirectory('mcp-host-lock-file-');
    const lock = sessionLockFile(folder, 'huge');
    writeFileSync(lock, `1 host=${'x'.repeat(20 * 1024 * 1024)}\n`);

    // Cut at any length, it would read as a lock of another host, which is never taken over.
    expect(readLockFile(lock)).toBe('');

    holdSession(folder, 'huge');
    expect(readLockFile(lock)).toMatch(new RegExp(`^${process.pid}\\b`));
    releaseSession(folder, 'huge');
  });
});
