/**
 * Who holds a lock, told apart from whoever has its pid now. A pid alone is reused: after a crash or a reboot the
 * number a lock names can belong to an unrelated process, and the lock would be refused for ever. On Linux a process
 * is named by its pid, its start time (field 22 of `/proc/<pid>/stat`, in clock ticks since boot) and the boot it
 * started in (`/proc/sys/kernel/random/boot_id`); a process with that pid but another start time or boot is someone
 * else. Where `/proc` is not there (macOS, Windows) the identity is the pid alone, as it was before.
 */
import { readFileSync } from 'node:fs';
import { processStartTime } from '../connections/process-tree.js';

export interface ProcessIdentity {
  pid: number;
  /** Clock ticks after boot; absent where it cannot be read. */
  startTime?: string;
  bootId?: string;
}

/** The identity of the process `pid`, with whatever of its start time and of this boot the platform tells. */
export function processIdentity(pid: number): ProcessIdentity {
  const startTime = processStartTime(pid);
  const bootId = currentBootId();
  return { pid, ...(startTime !== undefined && { startTime }), ...(bootId !== undefined && { bootId }) };
}

/** One line: `<pid> <startTime> <bootId>`, or the pid alone (the old format) where the start time is unknown. */
export function formatIdentity(identity: ProcessIdentity): string {
  if (identity.startTime === undefined) return String(identity.pid);
  return [identity.pid, identity.startTime, identity.bootId].filter((part) => part !== undefined).join(' ');
}

/** Reads what `formatIdentity` wrote (or an old pid-only line); undefined for anything else. */
export function parseIdentity(text: string): ProcessIdentity | undefined {
  const [pidText, startTime, bootId, ...rest] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0 || rest.length > 0) return undefined;
  if (startTime !== undefined && !/^\d+$/.test(startTime)) return undefined;
  if (bootId !== undefined && !/^[0-9a-f-]+$/i.test(bootId)) return undefined;
  return { pid, ...(startTime !== undefined && { startTime }), ...(bootId !== undefined && { bootId }) };
}

/**
 * Whether the process that wrote `recorded` still runs. Parts missing from the record or unreadable now are not
 * compared, so an old pid-only lock, or one read where `/proc` is hidden, is judged by its pid alone.
 */
export function isAlive(recorded: ProcessIdentity): boolean {
  if (!pidRuns(recorded.pid)) return false;
  return !differs(recorded, processIdentity(recorded.pid));
}

/** Whether two identities are known to name different processes. */
export function differs(a: ProcessIdentity, b: ProcessIdentity): boolean {
  if (a.pid !== b.pid) return true;
  if (a.bootId !== undefined && b.bootId !== undefined && a.bootId !== b.bootId) return true;
  return a.startTime !== undefined && b.startTime !== undefined && a.startTime !== b.startTime;
}

function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let bootId: string | null | undefined;

function currentBootId(): string | undefined {
  if (bootId === undefined) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      bootId = null;
    }
  }
  return bootId ?? undefined;
}
