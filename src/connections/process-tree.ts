/**
 * A server's descendants found through /proc (Linux), for those that left its process group: a grandchild that
 * called `setsid` (its own session) is out of reach of a signal to the group. Each is remembered with its start
 * time so that a pid reused by an unrelated process after it ended is never signalled.
 * Elsewhere (no /proc) the list is empty and only the process group is stopped.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface TrackedProcess {
  pid: number;
  /** Start time in clock ticks since boot (field 22 of /proc/PID/stat). */
  startTime: string;
}

interface ProcStat {
  pid: number;
  ppid: number;
  startTime: string;
}

function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid …`: the command name may hold spaces and parentheses, so split after the last `)`.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  const startTime = fields[19];
  if (!Number.isInteger(ppid) || startTime === undefined || !/^\d+$/.test(startTime)) return undefined;
  return { pid, ppid, startTime };
}

/**
 * When process `pid` started, in clock ticks after boot (field 22 of `/proc/<pid>/stat`): with the pid, it tells a
 * process from a later one given the same number. Undefined where `/proc` cannot tell (not Linux, no such process).
 */
export function processStartTime(pid: number): string | undefined {
  return readStat(pid)?.startTime;
}

/** Every process whose chain of parents leads to `rootPid` (not `rootPid` itself), children first. */
export function descendantsOf(rootPid: number): TrackedProcess[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, ProcStat[]>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (!stat) continue;
    const siblings = children.get(stat.ppid);
    if (siblings) siblings.push(stat);
    else children.set(stat.ppid, [stat]);
  }
  const found: TrackedProcess[] = [];
  const queue = [rootPid];
  const seen = new Set<number>(queue);
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push({ pid: child.pid, startTime: child.startTime });
      queue.push(child.pid);
    }
  }
  return found;
}

/** Sends `signal` to each tracked process that still is the same process (same pid and start time). */
export function signalTracked(processes: readonly TrackedProcess[], signal: NodeJS.Signals): void {
  for (const tracked of processes) {
    if (readStat(tracked.pid)?.startTime !== tracked.startTime) continue;
    try {
      process.kill(tracked.pid, signal);
    } catch {
      // Gone in the meantime.
    }
  }
}
