/**
 * `read_skill_file(name, path)`: a file a skill refers to (a reference, a template, a script to read), confined to
 * the skill's folder. The path comes from the model, so it is untrusted: absolute paths and `..` are refused before
 * anything is opened, symbolic links are resolved and must still land inside the folder, only regular files are
 * read, and a file over the size cap is refused without being read. Text only: the host never runs what it reads.
 * What is read must be what was approved: its hash is checked against the one the skill was pinned by, so a file
 * changed (or swapped for a link) after the pin was checked, or added since, is refused rather than handed over.
 */

import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInside, type Skill } from './discover-skills.js';
import { readBoundedFileBytes } from './read-bounded-text.js';

/** One supporting file handed to the model, in bytes. */
const MAX_SKILL_FILE_READ_BYTES = 256 * 1024;
const MAX_PATH_LENGTH = 1_024;

type ReadSkillFileResult = { ok: true; text: string } | { ok: false; error: string };

export function readSkillFile(
  skill: Pick<Skill, 'name' | 'folder' | 'fileHashes'>,
  requested: unknown,
): ReadSkillFileResult {
  const fail = (error: string): ReadSkillFileResult => ({ ok: false, error });
  if (typeof requested !== 'string' || requested.trim() === '') {
    return fail('"path" must be a file path inside the skill\'s folder, e.g. "reference.md"');
  }
  if (requested.length > MAX_PATH_LENGTH || requested.includes('\0')) return fail('"path" is not a usable file path');
  const segments = requested.split(/[\\/]/);
  if (path.isAbsolute(requested) || /^[A-Za-z]:/.test(requested) || requested.startsWith('\\')) {
    return fail(`"${requested}" is absolute; give a path relative to the skill's folder`);
  }
  if (segments.includes('..')) return fail(`"${requested}" leaves the skill's folder ("..")`);
  const candidate = path.join(skill.folder, ...segments);
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    return fail(`skill "${skill.name}" has no file "${requested}"`);
  }
  if (!isInside(real, skill.folder)) {
    return fail(`"${requested}" leads outside the skill's folder (a symbolic link); it is not read`);
  }
  const stat = statSync(real);
  if (!stat.isFile()) return fail(`"${requested}" is not a file`);
  if (stat.size > MAX_SKILL_FILE_READ_BYTES) {
    return fail(`"${requested}" is ${stat.size} bytes; skill files are read up to ${MAX_SKILL_FILE_READ_BYTES} bytes`);
  }
  let bytes: Buffer;
  try {
    bytes = readBoundedFileBytes(real, MAX_SKILL_FILE_READ_BYTES, 'a skill file');
  } catch (error) {
    return fail(`"${requested}" cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const approved = skill.fileHashes.get(path.relative(skill.folder, real).split(path.sep).join('/'));
  if (approved !== createHash('sha256').update(bytes).digest('hex')) {
    return fail(
      `"${requested}" ${approved === undefined ? 'was added' : 'changed'} since skill "${skill.name}" was approved; it is not read until the skill is approved again`,
    );
  }
  const text = bytes.toString('utf8');
  if (text.includes('\0')) return fail(`"${requested}" is a binary file; only text files are read`);
  return { ok: true, text };
}
