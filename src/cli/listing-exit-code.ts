/**
 * The exit code of a listing (`tools list`, `servers`, `resources list`, `prompts list`). A config found in the folder
 * but not approved yet started none of its servers: its empty listing is not the answer, so it exits 2 (a config
 * error, as `trust` does), its note on stderr naming the `mcp-host trust config` command. With no config at all the
 * empty listing is the true answer, and the note says how to make one.
 */
import type { Host } from '../host/create-host.js';
import { EXIT_USAGE } from './exit-codes.js';

export function listingExitCode(host: Pick<Host, 'config'>, otherwise: number): number {
  return host.config.awaitingApproval === undefined ? otherwise : EXIT_USAGE;
}
