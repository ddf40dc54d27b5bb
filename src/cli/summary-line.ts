/**
 * One line of a description for a listing. Servers often start descriptions with a newline or indentation, so the
 * first non-empty line is shown, trimmed; it is the server's text, so terminal control characters are escaped.
 */
import { showRaw } from '../policy/hidden-content.js';

export function summaryLine(text: string | undefined): string {
  const line = (text ?? '').split(/\r?\n/).find((candidate) => candidate.trim() !== '') ?? '';
  return showRaw(line.trim());
}
