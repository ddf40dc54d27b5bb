import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatIdentity, processIdentity } from '../../src/sessions/process-identity.js';
import { sessionLockFile, takeoverClaimFile } from '../../src/sessions/session-lock.js';
import { type LockContender, startLockContender } from '../helpers/lock-contender.js';
import { temporaryDirectory } from '../helpers/project.js';

const CONTENDERS = 6;
const ROUNDS = 150;
const onLinux = existsSync('/proc/self/stat');
/** A pid above any the system hands out: the process that wrote it has ended. */
const DEAD = '99999999\n';

/** Locks whose holders have ended: a pid no process has, a live pid with another start time, and garbage. */
function staleLock(round: number): string {
  const bootId = onLinux ? readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() : '';
  const kinds = [DEAD, ...(onLinux ? [`${process.pid} 1 ${bootId}\n`] : []), 'not a lock\n'];
  return kinds[round % kinds.length]!;
}

async function withContenders(count: number, use: (contenders: LockContender[]) => Promise<void>): Promise<void> {
  const contenders = Array.from({ length: count }, startLockContender);
  try {
    for (const contender of contenders) expect(await contender.next()).toBe('ready');
    await use(contenders);
  } finally {
    for (const contender of contenders) if (contender.child.exitCode === null) contender.child.kill();
  }
}

const refusal = (id: string, pids: readonly number[]) =>
  new RegExp(`^lost ${id} session ${id} is open in another mcp-host \\(pid (${pids.join('|')})\\);`);

describe('a stale session lock', () => {
  it('goes to exactly one of several processes that judge it stale at the same moment', async () => {
    const folder = await temporaryDirectory('mcp-host-lock-race-');
    await withContenders(CONTENDERS, async (contenders) => {
      const pids = contenders.map((contender) => contender.child.pid!);
      const wrongRounds: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const id = `race-${round}`;
        const file = sessionLockFile(folder, id);
        writeFileSync(file, staleLock(round));
        // Every contender waits on its stdin: the line is the starting gun.
        for (const contender of contenders) contender.hold(folder, id);
        const answers = await Promise.all(contenders.map((contender) => contender.next()));
        const winners = pids.filter((_, index) => answers[index] === `won ${id}`);
        const refused = answers.filter((answer) => refusal(id, pids).test(answer));
        const lock = existsSync(file) ? readFileSync(file, 'utf8') : '';
        if (winners.length !== 1 || refused.length !== CONTENDERS - 1 || !lock.startsWith(`${winners[0]}`)) {
          const stale = staleLock(round).trim();
          wrongRounds.push(`round ${round} (stale ${stale}, now ${lock.trim() || 'none'}): ${answers.join(' | ')}`);
        }
      }
      expect(wrongRounds).toEqual([]);
      // Winners let their locks go on exit, and no takeover left a claim or a draft behind.
      for (const contender of contenders) await contender.end();
      expect(readdirSync(folder)).toEqual([]);
    });
  }, 120_000);

  it('is taken over past the claim of a process that died taking it over, not past a live one', async () => {
    const folder = await temporaryDirectory('mcp-host-lock-claim-');
    await withContenders(1, async ([contender]) => {
      const file = sessionLockFile(folder, 'claimed');
      writeFileSync(file, DEAD);
      // The claim of a process that is still taking the lock over (this one): refused, naming it.
      const claim = takeoverClaimFile(file, DEAD);
      writeFileSync(claim, `${formatIdentity(processIdentity(process.pid))}\n`);
      contender!.hold(folder, 'claimed');
      expect(await contender!.next()).toMatch(refusal('claimed', [process.pid]));
      expect(readFileSync(file, 'utf8')).toBe(DEAD);

      // The claim of one that died before finishing: finished by the next.
      writeFileSync(claim, DEAD);
      contender!.hold(folder, 'claimed');
      expect(await contender!.next()).toBe('won claimed');
      expect(readFileSync(file, 'utf8')).toMatch(new RegExp(`^${contender!.child.pid}\\b`));
      expect(readdirSync(folder)).toEqual(['claimed.lock']);
      await contender!.end();
      expect(readdirSync(folder)).toEqual([]);
    });
  }, 60_000);
});
