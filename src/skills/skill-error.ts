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
    super(`${file}: ${field === undefined ? '' : `front matter field "${field}": `}${problem}`);
  }
}
