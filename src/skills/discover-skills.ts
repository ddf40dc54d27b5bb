/**
 * Finds the skills in each source folder (see `skillSources`), reads and validates their SKILL.md, and fingerprints
 * their folders. A skill that cannot be used is a problem to report, never a reason for the host not to start.
 */

import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { MAX_SKILL_FILE_BYTES, parseSkillFile, type SkillFrontMatter } from './parse-skill-file.js';
import { pathInMessage, SkillError } from './skill-error.js';
import { type HashedEntry, hashSkillFolder } from './skill-fingerprint.js';
import type { SkillSource, SkillSourceKind } from './skill-sources.js';

const SKILL_FILE_NAME = 'SKILL.md';
/** Skills taken from all sources together; more would make the listing in every request a cost of its own. */
const MAX_SKILLS = 200;

export interface Skill extends SkillFrontMatter {
  /** The skill's folder, with symbolic links resolved: files are read only from inside it. */
  folder: string;
  /** Its SKILL.md. */
  file: string;
  source: SkillSourceKind;
  /** The Markdown body `load_skill` returns. */
  body: string;
  /** Of every file in the folder (see `hashSkillFolder`). */
  fingerprint: string;
  /** Each file's hash as fingerprinted: `read_skill_file` hands over a file only while it still matches. */
  fileHashes: ReadonlyMap<string, string>;
  /** Every file and symbolic link the fingerprint covers, as it covers them: what `skills show` lists. */
  files: readonly HashedEntry[];
}

export interface SkillProblem {
  file: string;
  message: string;
}

export interface DiscoveredSkills {
  /** Sorted by name. */
  skills: Skill[];
  /** Skills that could not be used, and why (the message names the file and the field). */
  problems: SkillProblem[];
  /** Non-fatal notes: unknown front-matter fields, skills shadowed by an earlier one of the same name. */
  warnings: string[];
}

export function discoverSkills(sources: readonly SkillSource[]): DiscoveredSkills {
  const byName = new Map<string, Skill>();
  const problems: SkillProblem[] = [];
  const warnings: string[] = [];
  for (const source of sources) {
    for (const folder of skillFolders(source.folder)) {
      const file = path.join(folder, SKILL_FILE_NAME);
      // A skill's name is its folder's name, so a skill that would not be used is known before it is read: a
      // repository with thousands of skills costs their folder names, not reading and hashing every file in them.
      const earlier = byName.get(path.basename(folder));
      if (earlier !== undefined) {
        warnings.push(
          `skill "${earlier.name}" in ${pathInMessage(folder)} is shadowed by the one in ${pathInMessage(earlier.folder)}`,
        );
        continue;
      }
      if (byName.size >= MAX_SKILLS) {
        problems.push({
          file,
          message: `${pathInMessage(file)}: not used: more than ${MAX_SKILLS} skills are installed`,
        });
        continue;
      }
      try {
        const skill = readSkill(folder, file, source.kind, warnings);
        byName.set(skill.name, skill);
      } catch (error) {
        problems.push({ file, message: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  const skills = [...byName.values()].sort((left, right) => (left.name < right.name ? -1 : 1));
  return { skills, problems, warnings };
}

/** The folder itself when it holds a SKILL.md, else its subfolders that do; none when it does not exist. */
function skillFolders(folder: string): string[] {
  if (isFile(path.join(folder, SKILL_FILE_NAME))) return [folder];
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch {
    return [];
  }
  return names
    .map((name) => path.join(folder, name))
    .filter((candidate) => isFile(path.join(candidate, SKILL_FILE_NAME)));
}

function isFile(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

/**
 * The one place a SKILL.md is read: its text comes from the very bytes its fingerprint hashed, so what the model is
 * given (the listing's description, `load_skill`'s body, `allowed-tools`) and what `skills show` shows is always what
 * the pin covers. Read once for the text and again for the fingerprint, a writer racing the host could have the first
 * read's text used under the approved fingerprint of the second.
 */
function readSkill(folder: string, file: string, source: SkillSourceKind, warnings: string[]): Skill {
  const realFolder = realpathSync(folder);
  const realFile = realpathSync(file);
  // The fingerprint hashes a symbolic link's target text, not what it leads to: a SKILL.md kept outside the folder
  // could change without the skill's pin noticing. It is refused, as read_skill_file refuses such links.
  if (!isInside(realFile, realFolder)) {
    throw new SkillError(
      file,
      "leads outside the skill's folder (a symbolic link); a skill is read only from its folder",
    );
  }
  const relative = path.relative(realFolder, realFile).split(path.sep).join('/');
  const hashes = hashSkillFolder(realFolder, {
    file: relative,
    maxBytes: MAX_SKILL_FILE_BYTES,
    tooLarge: (size) =>
      new SkillError(
        file,
        `is ${size ?? `more than ${MAX_SKILL_FILE_BYTES}`} bytes; a skill file may be at most ${MAX_SKILL_FILE_BYTES} bytes`,
      ),
  });
  // Where SKILL.md leads by the links as hashed: elsewhere if it, or a link to it, was replaced during the read.
  if (hashedLinkTarget(hashes, realFolder, SKILL_FILE_NAME) !== relative) {
    throw new SkillError(file, 'was replaced while the skill was read (it or a link to it); it is not used');
  }
  const { kept } = hashes;
  if (kept === undefined) throw new SkillError(file, 'cannot be read as a regular file');
  const parsed = parseSkillFile(kept.toString('utf8'), file, path.basename(folder));
  warnings.push(...parsed.warnings);
  return {
    ...parsed.frontMatter,
    folder: realFolder,
    file,
    source,
    body: parsed.body,
    fingerprint: hashes.fingerprint,
    fileHashes: hashes.files,
    files: hashes.entries,
  };
}

/** Links followed in {@link hashedLinkTarget} before it gives up: a loop of links leads nowhere. */
const MAX_LINK_HOPS = 40;

/**
 * The hashed file `name` leads to through the links as hashed (not as they are now), a linked folder on the way
 * included, relative to `folder` with `/` between names; undefined when a link leads out of the folder or round in a
 * loop, or the path ends at no hashed file.
 */
function hashedLinkTarget(
  hashes: { files: ReadonlyMap<string, string>; links: ReadonlyMap<string, string> },
  folder: string,
  name: string,
): string | undefined {
  let pending = name.split('/');
  let resolved: string[] = [];
  let hops = 0;
  while (pending.length > 0) {
    const segment = pending.shift()!;
    const target = hashes.links.get([...resolved, segment].join('/'));
    if (target === undefined) {
      resolved.push(segment);
      continue;
    }
    hops += 1;
    const absolute = path.resolve(folder, ...resolved, target);
    if (hops > MAX_LINK_HOPS || !isInside(absolute, folder)) return undefined;
    // The target may pass through links of its own: it is walked again from the folder.
    const relative = path.relative(folder, absolute);
    pending = [...(relative === '' ? [] : relative.split(path.sep)), ...pending];
    resolved = [];
  }
  const file = resolved.join('/');
  return hashes.files.has(file) ? file : undefined;
}

/** Whether `real` (a resolved path) is `folder` or lies inside it. */
export function isInside(real: string, folder: string): boolean {
  return real === folder || real.startsWith(`${folder}${path.sep}`);
}

/**
 * Whether `file`, its links followed, lands outside `folder` (also resolved), or cannot be resolved at all (a dangling
 * link): a cloned repository's link to `~/.aws/credentials` or `~/.bashrc` is not read or written through.
 */
export function leadsOutside(file: string, folder: string): boolean {
  try {
    return !isInside(realpathSync(file), realpathSync(folder));
  } catch {
    return true;
  }
}
