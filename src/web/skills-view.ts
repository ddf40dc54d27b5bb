/**
 * The Skills page's data: `host.skills()` with folders shown relative to the config's folder (or by their name when
 * outside it) so no machine path reaches the page, and which skills the current conversation loaded, read from its
 * history (`load_skill` calls whose result was not an error).
 */

import path from 'node:path';
import { skillsShowCommand } from '../config/trust-commands.js';
import type { Host } from '../host/create-host.js';
import { estimateTextTokens } from '../providers/token-estimate/index.js';
import type { Message } from '../providers/types.js';
import { pairedToolCalls } from '../sessions/answered-tool-calls.js';
import type { Skill } from '../skills/discover-skills.js';
import { withheldSkillMessage } from '../skills/review-skills.js';
import { pathInMessage } from '../skills/skill-error.js';
import { LOAD_SKILL_TOOL } from '../skills/skill-tools.js';
import { listedDescription } from '../skills/skills-listing.js';
import type { SkillsView, SkillView } from './api-types.js';

/** A skill name longer than this is not one the host offers; it is cut before it reaches the page. */
const MAX_NAME_CHARS = 100;

export function skillsView(host: Host, history: readonly Message[]): SkillsView {
  const { offered, withheld, problems } = host.skills();
  const base = host.config.file === undefined ? process.cwd() : path.dirname(host.config.file);
  const shown = (folder: string): string => {
    const relative = path.relative(base, folder);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)
      ? relative.split(path.sep).join('/')
      : path.basename(folder);
  };
  /** Messages name the skill's folder and file; the page gets the shown folder instead. */
  const withoutPaths = (text: string, folder: string): string =>
    text.split(folder).join(shown(folder)).split(pathInMessage(folder)).join(shown(folder));
  const view = (skill: Skill): SkillView => ({
    name: skill.name,
    description: skill.description,
    source: skill.source,
    folder: shown(skill.folder),
    listingTokens: estimateTextTokens(`- ${skill.name}: ${listedDescription(skill.description)}`),
    bodyTokens: estimateTextTokens(skill.body),
  });
  return {
    offered: offered.map(view),
    withheld: withheld.map((entry) => {
      // This page names no machine path, so its commands are the ones to run in the config's folder, where every
      // folder it shows is relative to; but a state folder chosen for the run is named, or the command would
      // review another one's pins. The page shows none of the skill's files, so it offers no approve command:
      // `skills show` prints the one for what it shows.
      const chosen = host.approvals.stateDir;
      const place = chosen === undefined ? {} : { stateDir: chosen };
      return {
        ...view(entry.skill),
        reason: withoutPaths(withheldSkillMessage(entry, place), entry.skill.folder),
        reviewCommand: skillsShowCommand(entry.skill.name, place),
      };
    }),
    problems: problems.map((problem) => {
      const folder = path.dirname(problem.file);
      return { folder: shown(folder), message: withoutPaths(problem.message, folder) };
    }),
    loaded: loadedSkills(history),
  };
}

/** The names passed to `load_skill` in calls that did not fail, first load first, each once. */
export function loadedSkills(history: readonly Message[]): string[] {
  const names: string[] = [];
  for (const { call, result } of pairedToolCalls(history)) {
    if (call.name !== LOAD_SKILL_TOOL || result?.isError === true) continue;
    const name = skillName(call.argumentsText);
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

function skillName(argumentsText: string): string | undefined {
  try {
    const args = JSON.parse(argumentsText) as { name?: unknown };
    return typeof args.name === 'string' ? args.name.slice(0, MAX_NAME_CHARS) : undefined;
  } catch {
    return undefined;
  }
}
