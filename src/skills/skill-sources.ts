/**
 * Where skills are looked for, in order (the first skill of a name wins; later ones of the same name are reported
 * as shadowed): the folders the config lists under `skills`, then `skills/` beside the config file (or in the
 * working folder when there is none), then `skills/` in the user's config folder.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ApprovalsPlace, trustConfigCommand } from '../config/trust-commands.js';
import type { HostConfig } from '../config/types.js';
import { resolveUserConfigDir } from '../config/user-config-dir.js';

export type SkillSourceKind = 'config' | 'project' | 'user';

export interface SkillSource {
  kind: SkillSourceKind;
  /** Absolute: one skill's folder, or a folder of skill folders. */
  folder: string;
}

/** The folder beside the config (or in `cwd`) that holds the project's skills. */
export const PROJECT_SKILLS_FOLDER = 'skills';

type SkillsConfig = Pick<HostConfig, 'file' | 'skills' | 'awaitingApproval'>;

/**
 * A config found in the working folder that is not approved yet is not used at all (see `awaitingApproval`), and
 * the skills folder beside it comes from the same place: it is left out too, until the config is approved.
 */
export function skillSources(
  config: SkillsConfig,
  options: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): SkillSource[] {
  if (config.skills === false) return [];
  const projectFolder = config.file === undefined ? path.resolve(options.cwd) : path.dirname(config.file);
  return [
    ...(config.skills ?? []).map((folder): SkillSource => ({ kind: 'config', folder })),
    ...(config.awaitingApproval === undefined
      ? [{ kind: 'project' as const, folder: path.join(projectFolder, PROJECT_SKILLS_FOLDER) }]
      : []),
    { kind: 'user', folder: path.join(resolveUserConfigDir(options.env, options.cwd), PROJECT_SKILLS_FOLDER) },
  ];
}

/** Why the skills beside a config awaiting approval are not used, when there is such a folder; undefined otherwise. */
export function unapprovedProjectSkillsNote(
  config: SkillsConfig,
  place: Pick<ApprovalsPlace, 'stateDir'> = {},
): string | undefined {
  if (config.awaitingApproval === undefined || config.file === undefined) return undefined;
  const folder = path.join(path.dirname(config.file), PROJECT_SKILLS_FOLDER);
  if (!existsSync(folder)) return undefined;
  return `the skills in ${folder} are not used until ${config.file} is approved: ${trustConfigCommand(config.file, place)}`;
}
