/**
 * A stale session lock that several processes judge stale at the same moment goes to exactly one of them: real
 * processes, started together by a line on their stdin, each try to hold the same session, round after round. A
 * takeover left half-done by a process that died is finished by the next one; one under way in a live process is not
 * interfered with.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { formatIdentity, processIdentity } from '../../src/sessions/process-identity.js';
import { sessionLockFile, takeoverClaimFile } from '../../src/sessions/session-lock.js';
import { repoRoot, temporaryDirectory } from '../helpers/project.js';

const CONTENDERS = 6;
const ROUNDS = 150;
const contenderScript = join(repoRoot, 'test', 'fixtures', 'sessions', 'lock-contender.mjs');
const onLinux = existsSync('/proc/self/stat');
/** A pid above any the system hands out: the process that wrote it has ended. */
const DEAD = '99999999\n';

/** Locks whose holders have ended: a pid no process has, a live pid with another start time, and garbage. */
function staleLock(round: number): string {
  const bootId = onLinux ? readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() : '';
  const kinds = [DEAD, ...(onLinux ? [`${process.pid} 1 ${bootId}\n`] : []), 'not a lock\n'];
  return kinds[round % kinds.length]!;
}

/** One contender process and the lines it writes, one at a time. */
function startContender() {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [contenderScript], { stdio: 'pipe' });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`contender ${child.pid} ended: ${stderr}`);
    return line.value;
  };
  const hold = (folder: string, id: string) => child.stdin.write(`${JSON.stringify({ folder, id })}\n`);
  /** Closes its stdin and waits for it to exit, letting its locks go. */
  const end = async () => {
    const exited = child.exitCode === null ? once(child, 'exit') : Promise.resolve();
    child.stdin.end();
    await exited;
  };
  return { child, next, hold, end };
}

type Contender = ReturnType<typeof startContender>;

async function withContenders(count: number, use: (contenders: Contender[]) => Promise<void>): Promise<void> {
  const contenders = Array.from({ length: count }, startContender);
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
