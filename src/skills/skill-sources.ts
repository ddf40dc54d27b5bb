/**
 * Where skills are looked for, in order (the first skill of a name wins; later ones of the same name are reported
 * as shadowed): the folders the config lists under `skills`, then `skills/` beside the config file (or in the
 * working folder when there is none), then `skills/` in the user's config folder.
 */

import path from 'node:path';
import type { HostConfig } from '../config/types.js';
import { resolveUserConfigDir } from '../config/user-config-dir.js';

export type SkillSourceKind = 'config' | 'project' | 'user';

export interface SkillSource {
  kind: SkillSourceKind;
  /** Absolute: one skill's folder, or a folder of skill folders. */
  folder: string;
}

/** The folder beside the config (or in `cwd`) that holds the project's skills. */
const PROJECT_SKILLS_FOLDER = 'skills';

export function skillSources(
  config: Pick<HostConfig, 'file' | 'skills'>,
  options: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): SkillSource[] {
  if (config.skills === false) return [];
  const projectFolder = config.file === undefined ? path.resolve(options.cwd) : path.dirname(config.file);
  return [
    ...(config.skills ?? []).map((folder): SkillSource => ({ kind: 'config', folder })),
    { kind: 'project', folder: path.join(projectFolder, PROJECT_SKILLS_FOLDER) },
    { kind: 'user', folder: path.join(resolveUserConfigDir(options.env, options.cwd), PROJECT_SKILLS_FOLDER) },
  ];
}
