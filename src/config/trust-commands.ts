/**
 * The commands the host prints for the user to approve something: a server or one of its tools, a skill, a config
 * file found in the working folder (and to review a withheld skill before approving it). Approvals are kept per
 * config file, so a command names the config by its absolute path whenever the host has one (and the state folder
 * when one was chosen for the run): pasted into a shell in any folder, it approves in the same config and state
 * folder.
 * Every place that prints such a command builds it here, so none can forget the config.
 */

import { quoteShellWord } from '../json/quote-shell-word.js';

/**
 * What an approve command is for. A skill's `fingerprint`, when given, is the one the user reviewed: the command
 * approves the skill only while its files still have it (`--fingerprint`).
 */
type ApproveTarget = { server: string; tool?: string } | { skill: string; fingerprint?: string };

/**
 * Where the approvals are kept, as a printed command must name it to approve in the same place from any folder and
 * shell: the config file, and the state folder when the host runs with one chosen for the run (`--state-dir`, or
 * `stateDir` in code). The default folder (or one set by `MCP_HOST_STATE_DIR`, which the command inherits from the
 * same environment) is left out, so everyday commands stay short.
 */
export interface ApprovalsPlace {
  /** Absolute path of the config file the approvals belong to. */
  configFile?: string;
  /** Absolute path of the state folder chosen for this run; unset for the default one. */
  stateDir?: string;
}

/** The place of approvals kept for `configFile` (when the host has one), in `stateDir` when one was chosen for the run. */
export function approvalsPlace(configFile: string | undefined, stateDir: string | undefined): ApprovalsPlace {
  return {
    ...(configFile === undefined ? {} : { configFile }),
    ...(stateDir === undefined ? {} : { stateDir }),
  };
}

/** The option of `trust approve skill:NAME` that names the fingerprint reviewed with `skills show`. */
export const FINGERPRINT_OPTION = '--fingerprint';

/**
 * `mcp-host trust approve …`, with `--config FILE` and `--state-dir DIR` when the approvals are kept there, and for a
 * skill `--fingerprint` with the fingerprint reviewed, when given.
 */
export function trustApproveCommand(target: ApproveTarget, place: ApprovalsPlace = {}): string {
  const subject =
    'skill' in target
      ? [`skill:${target.skill}`]
      : [target.server, ...(target.tool === undefined ? [] : [target.tool])];
  const reviewed =
    'skill' in target && target.fingerprint !== undefined ? [FINGERPRINT_OPTION, target.fingerprint] : [];
  return shellCommand(['mcp-host', 'trust', 'approve', ...subject, ...placeWords(place), ...reviewed]);
}

/**
 * `mcp-host skills show NAME`, to review a withheld skill before approving it: it names the same config and state
 * folder as the approve command printed beside it, so it shows the skill, and its pin, that the command approves.
 */
export function skillsShowCommand(skill: string, place: ApprovalsPlace = {}): string {
  return shellCommand(['mcp-host', 'skills', 'show', skill, ...placeWords(place)]);
}

/** `mcp-host trust config FILE`: approves the content of a config file found by discovery. */
export function trustConfigCommand(configFile: string, place: Pick<ApprovalsPlace, 'stateDir'> = {}): string {
  return shellCommand(['mcp-host', 'trust', 'config', configFile, ...stateDirWords(place)]);
}

/** `--config FILE` and `--state-dir DIR`, for those of them the approvals are kept in. */
function placeWords(place: ApprovalsPlace): string[] {
  return [...(place.configFile === undefined ? [] : ['--config', place.configFile]), ...stateDirWords(place)];
}

function stateDirWords(place: Pick<ApprovalsPlace, 'stateDir'>): string[] {
  return place.stateDir === undefined ? [] : ['--state-dir', place.stateDir];
}

/** Words joined into one command line a POSIX shell reads back as the same words. */
function shellCommand(words: readonly string[]): string {
  return words.map(quoteShellWord).join(' ');
}
