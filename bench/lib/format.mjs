/** How numbers look in the tables: a median, then its min–max over the repetitions. */

/** Three significant figures, without exponent notation for the sizes seen here. */
export function figure(value) {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

/** `median (min–max)` of a summary from statistics.summarise. */
export function spread(summary, suffix = '') {
  return `${figure(summary.median)}${suffix} (${figure(summary.min)}–${figure(summary.max)})`;
}

/** A ratio, e.g. `1.04× (0.98–1.10)`. */
export function ratio(summary) {
  return spread(summary, '×');
}

export function megabytes(bytes) {
  return bytes / (1024 * 1024);
}

export function markdownTable(columns, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(columns), line(columns.map(() => '---')), ...rows.map(line)].join('\n');
}
