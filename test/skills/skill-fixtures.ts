/** Skill folders written for tests, and the published ones shipped as fixtures. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../helpers/project.js';

export const publishedSkills = join(repoRoot, 'test', 'fixtures', 'skills', 'published');
export const PUBLISHED_SKILL_NAMES = ['codebase-documenter', 'tech-debt-analyzer', 'test-specialist'];

export interface SkillSpec {
  name: string;
  description: string;
  body?: string;
  /** Extra front-matter lines, written as given. */
  extra?: string;
  /** Other files, by path relative to the skill's folder. */
  files?: Record<string, string>;
}

/** Writes `<parent>/<name>/SKILL.md` (and its files); returns the skill's folder. */
export function writeSkill(parent: string, spec: SkillSpec): string {
  const folder = join(parent, spec.name);
  mkdirSync(folder, { recursive: true });
  const front = [`name: ${spec.name}`, `description: ${JSON.stringify(spec.description)}`, spec.extra]
    .filter((line) => line !== undefined)
    .join('\n');
  writeFileSync(join(folder, 'SKILL.md'), `---\n${front}\n---\n\n${spec.body ?? `# ${spec.name}\n\nDo the thing.\n`}`);
  for (const [path, text] of Object.entries(spec.files ?? {})) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}
