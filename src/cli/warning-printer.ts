/**
 * How `run` and `tools call` show a call's warnings (a tool that reaches outside systems, a call sent once more):
 * one `mcp-host:` line on stderr for each warning once, never in the middle of a question on the terminal.
 */
import type { LinePrompter } from '../policy/line-prompter.js';
import { writeError } from './output.js';

export function createWarningPrinter(prompter: LinePrompter | undefined): (message: string) => void {
  const shown = new Set<string>();
  return (message) => {
    if (shown.has(message)) return;
    shown.add(message);
    if (prompter) void prompter.exclusive(async () => writeError(`mcp-host: ${message}`));
    else writeError(`mcp-host: ${message}`);
  };
}
