/**
 * Who holds a lock, told apart from whoever has its pid now. A pid alone is reused: after a crash or a reboot the
 * number a lock names can belong to an unrelated process, and the lock would be refused for ever. On Linux a process
 * is named by its pid, its start time (field 22 of `/proc/<pid>/stat`, in clock ticks since boot) and the boot it
 * started in (`/proc/sys/kernel/random/boot_id`); a process with that pid but another start time or boot is someone
 * else. Where `/proc` is not there (macOS, Windows) the identity is the pid alone, as it was before. Every identity
 * also names its host: a sessions folder on a shared or synced file system is seen by other machines, whose processes
 * (and boots) cannot be looked at from here, so a process of another host must never be judged by this one's table.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { processStartTime } from '../connections/process-tree.js';

export interface ProcessIdentity {
  pid: number;
  /** Clock ticks after boot; absent where it cannot be read. */
  startTime?: string;
  bootId?: string;
  /** The machine's name; absent in lines written before it was recorded, and where the platform gives none. */
  host?: string;
}

/** The identity of the process `pid` of this host, with whatever of its start time and of this boot the platform tells. */
export function processIdentity(pid: number): ProcessIdentity {
  const startTime = processStartTime(pid);
  const bootId = currentBootId();
  const host = currentHost();
  return {
    pid,
    ...(startTime !== undefined && { startTime }),
    ...(bootId !== undefined && { bootId }),
    ...(host !== undefined && { host }),
  };
}

const HOST_PREFIX = 'host=';

/**
 * One line: `<pid> <startTime> <bootId> host=<name>`, without the start time and boot where the start time is unknown,
 * and without the host where there is none (the old formats). The name is percent-encoded: it holds no space.
 */
export function formatIdentity(identity: ProcessIdentity): string {
  const parts: (string | number)[] = [identity.pid];
  if (identity.startTime !== undefined) parts.push(identity.startTime);
  if (identity.startTime !== undefined && identity.bootId !== undefined) parts.push(identity.bootId);
  if (identity.host !== undefined) parts.push(`${HOST_PREFIX}${encodeURIComponent(identity.host)}`);
  return parts.join(' ');
}

/** Reads what `formatIdentity` wrote, now or before the host was recorded; undefined for anything else. */
export function parseIdentity(text: string): ProcessIdentity | undefined {
  const words = text.trim().split(/\s+/);
  let host: string | undefined;
  if (words.at(-1)?.startsWith(HOST_PREFIX)) {
    host = decodeHost(words.pop()!.slice(HOST_PREFIX.length));
    if (host === undefined) return undefined;
  }
  const [pidText, startTime, bootId, ...rest] = words;
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0 || rest.length > 0) return undefined;
  if (startTime !== undefined && !/^\d+$/.test(startTime)) return undefined;
  if (bootId !== undefined && !/^[0-9a-f-]+$/i.test(bootId)) return undefined;
  return {
    pid,
    ...(startTime !== undefined && { startTime }),
    ...(bootId !== undefined && { bootId }),
    ...(host !== undefined && { host }),
  };
}

function decodeHost(encoded: string): string | undefined {
  if (!/^[\w.~!*'()%-]+$/.test(encoded)) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

/**
 * Whether `recorded` names a process of another host. Its pid, start time and boot say nothing here: whether it still
 * runs cannot be told from this machine. A line without a host (an old one) is taken to be this host's.
 */
export function onOtherHost(recorded: ProcessIdentity): boolean {
  const host = currentHost();
  return recorded.host !== undefined && host !== undefined && recorded.host !== host;
}

/**
 * Whether the process `recorded` names may still run: this one does; one of another host cannot be seen from here, so
 * it may; an earlier process that had this one's pid (another start or boot) has ended.
 */
export function mayStillRun(recorded: ProcessIdentity): boolean {
  if (onOtherHost(recorded)) return true;
  if (recorded.pid === process.pid) return !differs(recorded, processIdentity(process.pid));
  return isAlive(recorded);
}

/**
 * Whether the process of this host that wrote `recorded` still runs. Parts missing from the record or unreadable now
 * are not compared, so an old pid-only lock, or one read where `/proc` is hidden, is judged by its pid alone.
 */
function isAlive(recorded: ProcessIdentity): boolean {
  if (!pidRuns(recorded.pid)) return false;
  return !differs(recorded, processIdentity(recorded.pid));
}

/** Whether two identities are known to name different processes. */
export function differs(a: ProcessIdentity, b: ProcessIdentity): boolean {
  if (a.pid !== b.pid) return true;
  if (a.host !== undefined && b.host !== undefined && a.host !== b.host) return true;
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

let host: string | null | undefined;

function currentHost(): string | undefined {
  if (host === undefined) {
    try {
      host = hostname() || null;
    } catch {
      host = null;
    }
  }
  return host ?? undefined;
}
