import { showOnOneLine } from '../text/invisible-characters.js';

/**
 * A path as a message names it, a line break, tab or other invisible character in it written as its escape: a skill
 * folder's name is whatever a cloned repository made it, and a line break in it would start a line of the message's
 * own that could pass for the host's (`mcp-host: skill "deploy" is approved`).
 */
export const pathInMessage = showOnOneLine;

/**
 * The one error the skills layer reports for a skill it cannot use. Skills are written by hand (or installed from
 * somewhere), so every message names the SKILL.md file and, where there is one, the front-matter field at fault.
 */
export class SkillError extends Error {
  override readonly name = 'SkillError';
  constructor(
    readonly file: string,
    readonly problem: string,
    readonly field?: string,
  ) {
    super(`${pathInMessage(file)}: ${field === undefined ? '' : `front matter field "${field}": `}${problem}`);
  }
}
