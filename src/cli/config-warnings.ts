/**
 * The config's warnings (a misspelt key and what it was probably meant to be), written when a command stops on an
 * error before the host would write them: they often explain it (`mcpServer` for no servers, `modle` for no model).
 */
import { writeError } from './output.js';

export function writeConfigWarnings(config: { readonly warnings?: readonly string[] | undefined }): void {
  for (const warning of config.warnings ?? []) writeError(`mcp-host: ${warning}`);
}
