/**
 * `mcp-host audit --follow`: yields records as they are appended, like `tail -f`. Polls the file's size rather
 * than using file-system events, which are unreliable on network and container file systems; a quarter second is
 * quick enough for a person watching. Starts over from the top if the file shrinks (rotated or truncated) and
 * waits if it does not exist yet.
 */

import { open, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditRecord } from './audit-record.js';
import { type AuditLogFilter, matchesAuditFilter, parseAuditLine, takeCompleteLines } from './read-audit-log.js';

/** How often the file is checked for new records. */
const DEFAULT_FOLLOW_POLL_MS = 250;

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

export async function* followAuditLog(file: string, options: FollowAuditLogOptions): AsyncGenerator<AuditRecord> {
  const { signal } = options;
  const filter = options.filter ?? {};
  const interval = options.pollIntervalMs ?? DEFAULT_FOLLOW_POLL_MS;
  let offset = options.startOffset ?? (await sizeOf(file)) ?? 0;
  let pending: Buffer = Buffer.alloc(0);

  while (!signal.aborted) {
    const size = await sizeOf(file);
    if (size !== undefined && size < offset) {
      offset = 0;
      pending = Buffer.alloc(0);
    }
    if (size !== undefined && size > offset) {
      const handle = await open(file, 'r');
      try {
        const fresh = Buffer.alloc(size - offset);
        const { bytesRead } = await handle.read(fresh, 0, fresh.length, offset);
        offset += bytesRead;
        const found: AuditRecord[] = [];
        const taken = takeCompleteLines(Buffer.concat([pending, fresh.subarray(0, bytesRead)]), (line) => {
          const record = parseAuditLine(line);
          if (record !== undefined && matchesAuditFilter(record, filter)) found.push(record);
        });
        pending = Buffer.from(taken.rest);
        for (const record of found) yield record;
      } finally {
        await handle.close();
      }
      continue;
    }
    try {
      await sleep(interval, undefined, { signal });
    } catch {
      return;
    }
  }
}
