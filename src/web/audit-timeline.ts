/**
 * The audit records the web UI shows, numbered in the order it read them from the log. The number is what pages tell
 * records apart by (two may share a time, and a page that loads afresh keeps only what arrived live after what it
 * loaded). It counts on when the log is rotated under the host (copied away and emptied, as logrotate's copytruncate
 * does), where a record's place in the file starts again at 0 and would take a new record for one already shown;
 * and the records read before a rotation stay here for pages that load afresh, though the log no longer holds them.
 */

import type { AuditRecord } from '../audit/audit-record.js';
import type { AuditEntryView } from './api-types.js';
import { auditEntryView } from './views.js';

interface AuditTimeline {
  /** Numbers `record` as the next one read, keeps it, and returns it as pages see it. */
  add(record: AuditRecord): AuditEntryView;
  /** The latest records kept, oldest first. */
  recent(): AuditEntryView[];
}

/** Keeps the latest `limit` records; older ones stay in the log files (`mcp-host audit`). */
export function createAuditTimeline(limit: number): AuditTimeline {
  const entries: AuditEntryView[] = [];
  let read = 0;
  return {
    add(record) {
      read += 1;
      const entry = auditEntryView(record, read);
      entries.push(entry);
      if (entries.length > limit) entries.splice(0, entries.length - limit);
      return entry;
    },
    recent: () => [...entries],
  };
}
