/**
 * The host's own tools for skills, offered when at least one skill is: `load_skill(name)` returns a skill's
 * instructions (the SKILL.md body, nothing else, so loading costs the body only; without the characters no editor
 * shows, see hidden-characters.ts) and makes the skill active for the rest of the run; `read_skill_file(name, path)`
 * returns one of its files (see `readSkillFile`). Both only read; like every call they are audited. A withheld skill
 * is not loadable.
 */

import type { ActiveSkills } from './active-skills.js';
import type { Skill } from './discover-skills.js';
import { withoutHiddenCharacters } from './hidden-characters.js';
import { readSkillFile } from './read-skill-file.js';

export const LOAD_SKILL_TOOL = 'load_skill';
const READ_SKILL_FILE_TOOL = 'read_skill_file';

interface SkillToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export const skillToolDefinitions: readonly SkillToolDefinition[] = [
  {
    name: LOAD_SKILL_TOOL,
    description:
      "Load a skill's instructions by name (the skills are listed in the system prompt). Call it when a task matches a skill's description, then follow the instructions.",
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The skill name, as listed.' } },
      required: ['name'],
      additionalProperties: false,
    },
  },
  {
    name: READ_SKILL_FILE_TOOL,
    description:
      "Read a file inside a skill's folder that its instructions refer to (e.g. reference.md, templates/report.md). Text files only; nothing is run.",
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The skill name.' },
        path: { type: 'string', description: "The file's path relative to the skill's folder." },
      },
      required: ['name', 'path'],
      additionalProperties: false,
    },
  },
];

interface SkillToolResult {
  text: string;
  isError: boolean;
}

interface SkillToolsOptions {
  /** Skills the model may load, by name. */
  offered: ReadonlyMap<string, Skill>;
  /** Skills found but withheld, by name, with why (so the model can tell the user). */
  withheld: ReadonlyMap<string, string>;
  active: ActiveSkills;
  /**
   * Why an offered skill may no longer be used, asked at each call: `mcp-host trust revoke skill:NAME` in another
   * terminal takes effect in a running chat, as revoking a tool does. Undefined while it is still approved.
   */
  withdrawn?: (skill: Skill) => string | undefined;
}

export function createSkillToolHandlers(options: SkillToolsOptions) {
  const find = (name: unknown): Skill | string => {
    if (typeof name !== 'string' || name === '') return '"name" must be a skill name from the list';
    const skill = options.offered.get(name);
    if (skill !== undefined) {
      const why = options.withdrawn?.(skill);
      return why === undefined ? skill : `${why}. Tell the user; it cannot be used until they approve it again.`;
    }
    const withheld = options.withheld.get(name);
    if (withheld !== undefined) return `${withheld}. Tell the user; it cannot be used until they approve it.`;
    return `no skill named "${name}"; skills: ${[...options.offered.keys()].join(', ') || '(none)'}`;
  };
  return {
    [LOAD_SKILL_TOOL]: (args: Record<string, unknown>, runId: string): SkillToolResult => {
      const skill = find(args.name);
      if (typeof skill === 'string') return { text: skill, isError: true };
      options.active.activate(runId, skill);
      return { text: withoutHiddenCharacters(skill.body).text, isError: false };
    },
    [READ_SKILL_FILE_TOOL]: (args: Record<string, unknown>): SkillToolResult => {
      const skill = find(args.name);
      if (typeof skill === 'string') return { text: skill, isError: true };
      const read = readSkillFile(skill, args.path);
      return read.ok ? { text: read.text, isError: false } : { text: read.error, isError: true };
    },
  };
}
