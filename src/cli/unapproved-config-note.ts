/**
 * What to tell a user whose config was found in the working folder but is not approved (yet, or since it changed):
 * what of it is not used, and the command that approves it. The servers, the skills and the listings of each say it
 * in the same words.
 */
import { type ApprovalsPlace, trustConfigCommand } from '../config/trust-commands.js';
import type { HostConfig } from '../config/types.js';

/** Undefined when the config is approved or was named with --config. `unused`: "its servers were not started". */
export function unapprovedConfigNote(
  config: Pick<HostConfig, 'file' | 'awaitingApproval' | 'recordedBySession'>,
  approvals: Pick<ApprovalsPlace, 'stateDir'>,
  unused: string,
): string | undefined {
  if (config.awaitingApproval === undefined || config.file === undefined) return undefined;
  const why = config.awaitingApproval === 'changed' ? 'has changed since you approved it' : 'is not approved yet';
  const where = config.recordedBySession
    ? 'is the config the resumed session was held with'
    : 'was found in the working folder';
  return `${config.file} ${where} and ${why}, so ${unused}; review it, then approve it with: ${trustConfigCommand(config.file, approvals)}`;
}
