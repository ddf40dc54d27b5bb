/**
 * Progressive disclosure, first step: the system prompt names each offered skill with a short description and
 * nothing more; the model loads a skill's instructions (`load_skill`) only when a task calls for it. The listing is
 * built from sorted names and fixed text, so it is byte-identical on every request and provider prompt caches hold.
 */

import type { Skill } from './discover-skills.js';

/**
 * The description as listed, in characters: enough to say when the skill applies, bounded so that each listed
 * skill costs about 60 tokens at most. The whole description is in `mcp-host skills show` and the skill itself.
 */
const MAX_LISTED_DESCRIPTION_CHARACTERS = 200;

const SKILLS_HEADING = '# Skills';

const PREAMBLE = `Skills are folders of instructions for particular tasks. When a task matches a skill below, call \`load_skill\` with its name and follow what it says; \`read_skill_file\` reads a file the skill refers to. A skill never grants permissions: its tools still need the user's consent.`;

export function listedDescription(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_LISTED_DESCRIPTION_CHARACTERS) return flat;
  const cut = flat.slice(0, MAX_LISTED_DESCRIPTION_CHARACTERS - 1);
  const wordEnd = cut.lastIndexOf(' ');
  return `${(wordEnd > MAX_LISTED_DESCRIPTION_CHARACTERS / 2 ? cut.slice(0, wordEnd) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/** The system prompt's skills section; empty when no skill is offered. */
export function skillsListing(skills: readonly Pick<Skill, 'name' | 'description'>[]): string {
  if (skills.length === 0) return '';
  const sorted = [...skills].sort((left, right) => (left.name < right.name ? -1 : 1));
  const lines = sorted.map((skill) => `- ${skill.name}: ${listedDescription(skill.description)}`);
  return `${SKILLS_HEADING}\n\n${PREAMBLE}\n\n${lines.join('\n')}`;
}
