/**
 * What a process killed between the steps of taking a session lock leaves behind (its draft, its takeover claim, the
 * claim of a claim) never blocks a later lock, and is removed by the process that next takes the lock when its writer
 * has ended or it is old; what a live writer has just written is kept. The files are written as such a process leaves
 * them, naming a real process that was killed, and the lock is taken by a real process (the lock-contender fixture).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatIdentity, processIdentity } from '../../src/sessions/process-identity.js';
import { sessionLockFile, takeoverClaimFile } from '../../src/sessions/session-lock.js';
import { startLockContender } from '../helpers/lock-contender.js';
import { temporaryDirectory } from '../helpers/project.js';

const ownLine = `${formatIdentity(processIdentity(process.pid))}\n`;
const ANOTHER_HOST = 'far-away.example';

/** The identity line of a process that ran and was killed (SIGKILL: it let nothing go). */
async function killedProcessLine(): Promise<{ pid: number; line: string }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  const line = `${formatIdentity(processIdentity(child.pid!))}\n`;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
  return { pid: child.pid!, line };
}

/** Marks `file` as written an hour ago. */
function makeOld(file: string): void {
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(file, hourAgo, hourAgo);
}

/** A lock-contender process for `use`: `take(folder, id)` answers `won <id>` or `lost <id> <reason>`. */
async function withContender(use: (take: (folder: string, id: string) => Promise<string>) => Promise<void>) {
  const contender = startLockContender();
  try {
    expect(await contender.next()).toBe('ready');
    await use(async (folder, id) => {
      contender.hold(folder, id);
      return contender.next();
    });
  } finally {
    if (contender.child.exitCode === null) contender.child.kill();
  }
}

describe('what a process killed while taking a session lock leaves', () => {
  it('does not block the lock: a chain of dead claims, or an old claim of another host, is taken over', async () => {
    const folder = await temporaryDirectory('mcp-host-lock-leftovers-');
    const [lockWriter, claimer, claimTaker] = [
      await killedProcessLine(),
      await killedProcessLine(),
      await killedProcessLine(),
    ];
    await withContender(async (take) => {
      // The lock's writer died; a process taking it over died holding the claim; one taking that claim over died
      // holding the claim's claim.
      const lock = sessionLockFile(folder, 'chain');
      const claim = takeoverClaimFile(lock, lockWriter.line);
      writeFileSync(lock, lockWriter.line);
      writeFileSync(claim, claimer.line);
      writeFileSync(takeoverClaimFile(claim, claimer.line), claimTaker.line);
      expect(await take(folder, 'chain')).toBe('won chain');
      expect(readdirSync(folder)).toEqual(['chain.lock']);

      // A claim of another host, whose process cannot be seen from here, is respected while it is young...
      const foreignLock = sessionLockFile(folder, 'foreign');
      const foreignClaim = takeoverClaimFile(foreignLock, lockWriter.line);
      writeFileSync(foreignLock, lockWriter.line);
      writeFileSync(foreignClaim, `4242 host=${ANOTHER_HOST}\n`);
      expect(await take(folder, 'foreign')).toMatch(
        /^lost foreign session foreign is open in an mcp-host on far-away\.example \(pid 4242\);/,
      );
      // ...and taken over once it is older than any takeover takes.
      makeOld(foreignClaim);
      expect(await take(folder, 'foreign')).toBe('won foreign');
      expect(readdirSync(folder).sort()).toEqual(['chain.lock', 'foreign.lock']);
    });
  }, 60_000);

  it('is removed when the lock is next taken if its writer has ended or it is old; a live writer’s is kept', async () => {
    const folder = await temporaryDirectory('mcp-host-lock-leftovers-');
    const killed = await killedProcessLine();
    const lock = sessionLockFile(folder, 'swept');
    const oldClaim = takeoverClaimFile(lock, 'a lock long gone\n');
    const leftovers = {
      // Drafts of a process killed after writing its text, and before writing it (empty: its name gives its pid).
      draft: `${lock}.${killed.pid}-0123456789ab.draft`,
      emptyDraft: `${lock}.${killed.pid}-ba9876543210.draft`,
      // A draft of a claim, a claim of a lock that has changed since, and a claim of that claim.
      claimDraft: `${oldClaim}.${killed.pid}-00112233aabb.draft`,
      claim: oldClaim,
      claimOfClaim: takeoverClaimFile(oldClaim, killed.line),
      // Old ones whose writers are not known to have ended: another host's, and a live process's (this one's).
      oldForeignClaim: takeoverClaimFile(lock, 'another lock long gone\n'),
      oldLiveDraft: `${lock}.${process.pid}-aaaaaaaaaaaa.draft`,
    };
    for (const file of Object.values(leftovers)) writeFileSync(file, killed.line);
    writeFileSync(leftovers.emptyDraft, '');
    writeFileSync(leftovers.oldForeignClaim, `4242 host=${ANOTHER_HOST}\n`);
    writeFileSync(leftovers.oldLiveDraft, ownLine);
    makeOld(leftovers.oldForeignClaim);
    makeOld(leftovers.oldLiveDraft);
    // Young ones of writers that may still be at work: kept. And another session's leftovers are not this lock's.
    const kept = {
      liveDraft: `${lock}.${process.pid}-bbbbbbbbbbbb.draft`,
      foreignClaim: takeoverClaimFile(lock, 'a third lock\n'),
      otherSessionDraft: `${sessionLockFile(folder, 'other')}.${killed.pid}-0123456789ab.draft`,
    };
    writeFileSync(kept.liveDraft, ownLine);
    writeFileSync(kept.foreignClaim, `4242 host=${ANOTHER_HOST}\n`);
    writeFileSync(kept.otherSessionDraft, killed.line);

    await withContender(async (take) => {
      expect(await take(folder, 'swept')).toBe('won swept');
      const names = (files: Record<string, string>) =>
        Object.values(files).map((file) => file.slice(folder.length + 1));
      expect(readdirSync(folder).sort()).toEqual(['swept.lock', ...names(kept)].sort());
    });
  }, 60_000);
});
