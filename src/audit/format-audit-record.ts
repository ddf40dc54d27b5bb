/**
 * The audit log for people: one row per record, in columns (`mcp-host audit` without `--json`). Server-supplied
 * text is shown raw (escape codes made visible) so a tool name cannot rewrite the terminal of whoever reads the log.
 */

import { showRaw } from '../policy/hidden-content.js';
import type { AuditRecord } from './audit-record.js';

const AUDIT_TABLE_COLUMNS = ['TIME', 'EVENT', 'SERVER', 'TOOL', 'DECISION', 'OUTCOME', 'DETAIL'] as const;

/** Widths used when rows are printed one by one (`--follow`), where the widest value is not known in advance. */
const FOLLOW_COLUMN_WIDTHS: readonly number[] = [20, 12, 12, 24, 22, 22];

function formatTime(time: string): string {
  const parsed = new Date(time);
  return Number.isNaN(parsed.getTime()) ? time : `${parsed.toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/** The cells of one row, in `AUDIT_TABLE_COLUMNS` order. */
function auditRecordCells(record: AuditRecord): string[] {
  const time = formatTime(record.time);
  switch (record.type) {
    case 'tool-call': {
      const by = record.rule === undefined ? record.decidedBy : `rule ${record.rule}`;
      const outcome = [
        record.outcome,
        record.durationMs === undefined ? '' : `${Math.round(record.durationMs)}ms`,
        record.resultBytes === undefined ? '' : formatBytes(record.resultBytes),
        record.truncated === true ? 'cut' : '',
      ]
        .filter((part) => part !== '')
        .join(' ');
      const approver = record.approver === undefined ? '' : ` (${record.approver})`;
      // A call refused before it was decided on (bad arguments, an unknown tool) has its error as its reason: once.
      const detail =
        record.error === undefined || record.error === record.reason
          ? record.reason
          : `${record.error} — ${record.reason}`;
      return [
        time,
        'tool-call',
        record.server,
        record.tool,
        `${record.decision === 'allow' ? 'allowed' : 'denied'} by ${by}${approver}`,
        outcome,
        detail,
      ];
    }
    case 'approval':
      return [time, 'approval', record.server, record.tool, `${record.answer} (${record.approver})`, '', record.reason];
    case 'trust-change':
      return [time, 'trust', record.server, record.tool ?? '', record.change, `by ${record.by}`, record.detail];
    case 'server-start': {
      const parts = [`${record.transport}, ${record.trust}`];
      if (record.pid !== undefined) parts.push(`pid ${record.pid}`);
      if (record.protocolVersion !== undefined) parts.push(`protocol ${record.protocolVersion}`);
      if (record.toolCount !== undefined) parts.push(`${record.toolCount} tools`);
      return [time, 'server-start', record.server, '', '', '', parts.join(', ')];
    }
    case 'server-exit': {
      const how = record.signal ? `signal ${record.signal}` : record.exitCode == null ? '' : `exit ${record.exitCode}`;
      const lastLine = record.stderrTail?.trim().split('\n').at(-1);
      return [time, 'server-exit', record.server, '', record.reason, how, lastLine ? `stderr: ${lastLine}` : ''];
    }
  }
}

/** One line, nothing that can steer the terminal. */
function cellText(cell: string): string {
  return showRaw(cell).replace(/\n/g, '\\n');
}

function padRow(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, index) => {
      const shown = cellText(cell);
      const width = widths[index];
      return width === undefined ? shown : shown.padEnd(width);
    })
    .join('  ')
    .trimEnd();
}

/** A header and one row per record, columns as wide as their widest cell. */
export function formatAuditTable(records: readonly AuditRecord[]): string {
  const rows = records.map(auditRecordCells);
  const widths = AUDIT_TABLE_COLUMNS.slice(0, -1).map((column, index) =>
    Math.max(column.length, ...rows.map((row) => cellText(row[index] ?? '').length)),
  );
  const lines = [padRow(AUDIT_TABLE_COLUMNS, widths), ...rows.map((row) => padRow(row, widths))];
  return `${lines.join('\n')}\n`;
}

/** One row with fixed widths, for `--follow`. */
export function formatAuditRow(record: AuditRecord): string {
  return `${padRow(auditRecordCells(record), FOLLOW_COLUMN_WIDTHS)}\n`;
}

export function formatAuditHeader(): string {
  return `${padRow(AUDIT_TABLE_COLUMNS, FOLLOW_COLUMN_WIDTHS)}\n`;
}
