/** A server's own name and version (its `serverInfo`), as the server listings show them. */
import { showOnOneLine } from '../text/invisible-characters.js';

/**
 * On one line: the server chose them, and a line break in its name would start a line of the listing that passed
 * for another server's.
 */
export function serverInfoText(info: { name: string; version: string }): string {
  return `${showOnOneLine(info.name)} ${showOnOneLine(info.version)}`;
}
