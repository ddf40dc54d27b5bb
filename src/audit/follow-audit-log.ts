/**
 * `mcp-host audit --follow`: yields records as they are appended, like `tail -f`. Polls the file's size rather
 * than using file-system events, which are unreliable on network and container file systems; a quarter second is
 * quick enough for a person watching. Starts over from the top if the file shrinks or its first bytes change
 * (rotated or truncated, and written again past where it was read before the next look) and waits if it does not
 * exist yet.
 */

import { stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { AuditLineSplitter } from './audit-line-splitter.js';
import type { AuditRecord } from './audit-record.js';
import { type AuditLogFilter, matchesAuditFilter, openAuditLog, parseAuditLine, readToEnd } from './read-audit-log.js';

/** How often the file is checked for new records. */
const DEFAULT_FOLLOW_POLL_MS = 250;
/**
 * How much of the file's start tells one log from the next after a rotation: a record's type and time to the
 * millisecond, which two logs do not share.
 */
const HEAD_BYTES = 64;

interface FollowAuditLogOptions {
  filter?: AuditLogFilter;
  /** Following stops (the iteration ends) when this aborts. */
  signal: AbortSignal;
  /** Byte offset to start from: `readAuditLog(...).endOffset` to continue after what was printed. Default: the end of the file now. */
  startOffset?: number;
  pollIntervalMs?: number;
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function headOf(file: string): Promise<Buffer> {
  const handle = await openAuditLog(file);
  if (handle === undefined) return Buffer.alloc(0);
  try {
    const start = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(start, 0, HEAD_BYTES, 0);
    return start.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export async function* followAuditLog(file: string, options: FollowAuditLogOptions): AsyncGenerator<AuditRecord> {
  const { signal } = options;
  const filter = options.filter ?? {};
  const interval = options.pollIntervalMs ?? DEFAULT_FOLLOW_POLL_MS;
  let offset = options.startOffset ?? (await sizeOf(file)) ?? 0;
  let found: AuditRecord[] = [];
  const splitterFrom = () =>
    new AuditLineSplitter(
      (line) => {
        const record = parseAuditLine(line);
        if (record !== undefined && matchesAuditFilter(record, filter)) found.push(record);
      },
      // A line past the bound is passed over, as a full read passes over it.
      () => undefined,
    );
  // What was read of the line not yet ended is held in the splitter; `offset` is where its bytes end.
  let splitter = splitterFrom();
  // The file's first bytes when it was last read (as many as it had).
  let head = await headOf(file);
  const startOver = () => {
    offset = 0;
    splitter = splitterFrom();
  };

  while (!signal.aborted) {
    const size = await sizeOf(file);
    if (size !== undefined && size < offset) startOver();
    if (size !== undefined && size > offset) {
      const handle = await openAuditLog(file);
      if (handle === undefined) continue;
      try {
        const firstBytes = Buffer.alloc(Math.min(HEAD_BYTES, size));
        await handle.read(firstBytes, 0, firstBytes.length, 0);
        const shared = Math.min(head.length, firstBytes.length);
        if (!firstBytes.subarray(0, shared).equals(head.subarray(0, shared))) startOver();
        head = firstBytes;
        // Read a chunk at a time up to the end as it is now, handing on what each chunk completes: a file grown by
        // gigabytes (or made sparse) is neither held at once nor read as one buffer.
        offset += await readToEnd(handle, offset, (chunk) => splitter.push(chunk));
      } finally {
        await handle.close();
      }
      const records = found;
      found = [];
      for (const record of records) yield record;
      continue;
    }
    try {
      await sleep(interval, undefined, { signal });
    } catch {
      return;
    }
  }
}
