/**
 * A command that names one tool, resource or prompt, or a `connect` session, stops when the config it found awaits
 * approval: the note said why none of its servers started, and a line after it calling a name unknown would not be
 * true. It exits 2, a config error, as the listings do then.
 */
import type { Host } from '../host/create-host.js';
import { EXIT_USAGE } from './exit-codes.js';

export function stoppedForUnapprovedConfig(host: Pick<Host, 'config'>): boolean {
  if (host.config.awaitingApproval === undefined) return false;
  process.exitCode = EXIT_USAGE;
  return true;
}
