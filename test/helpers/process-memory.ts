/** A process's resident memory, and its peak so far, in MB, from /proc (Linux). */
import { readFile } from 'node:fs/promises';

export async function residentMegabytes(pid: number): Promise<{ now: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { now: kilobytes('VmRSS') / 1024, peak: kilobytes('VmHWM') / 1024 };
}
