/** The config of the tests of names a server chose with line breaks in them, which must not start lines of their own. */
import { fixtureServer, writeConfig } from './project.js';

/**
 * A config of one server, `odd`: the fixture whose own name, tool name, resource URI and MIME type, and prompt and
 * argument names hold line breaks (see `line-break-tool-name.mjs`).
 */
export function lineBreakNamesConfig(): Promise<string> {
  return writeConfig({
    mcpServers: { odd: { command: process.execPath, args: [fixtureServer('line-break-tool-name.mjs')] } },
  });
}
