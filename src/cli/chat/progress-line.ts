/** A server's progress for a running call as the chat's live line: a bar when the total is known, then the words. */
import { formatProgress } from '../../client-features/terminal-client-features.js';
import type { ToolProgressUpdate } from '../../loop/tool-call-types.js';

const BAR_WIDTH = 20;

export function formatProgressLine(update: ToolProgressUpdate): string {
  const total = update.total !== undefined && update.total > 0 ? update.total : undefined;
  if (total === undefined) return `${update.server} ${formatProgress(update)}`;
  const filled = Math.max(0, Math.min(BAR_WIDTH, Math.round((update.progress / total) * BAR_WIDTH)));
  return `${update.server} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${formatProgress(update)}`;
}
