/**
 * A skill's fingerprint: sha256 over every file in its folder (relative path, size and content hash, in sorted
 * order), so that a change to any of them — the body, a reference, a script — shows up as a changed skill and is
 * withheld until approved again, just as a changed tool definition is. Symbolic links are not followed: their
 * target text is hashed instead, so a link repointed elsewhere counts as a change too.
 */

import { createHash } from 'node:crypto';
import { closeSync, lstatSync, openSync, readdirSync, readlinkSync, readSync } from 'node:fs';
import path from 'node:path';
import { OPEN_WITHOUT_WAITING } from '../json/read-bounded-file.js';
import { SkillError } from './skill-error.js';

/**
 * Entries (files and folders) in one skill, and folder depth below the skill's folder. A skill beyond either is not
 * used: a file left out of the fingerprint could change unnoticed and still be read with read_skill_file.
 */
const MAX_FINGERPRINT_FILES = 2_000;
const MAX_FINGERPRINT_DEPTH = 8;
/**
 * Bytes hashed for one skill, all files together: every run hashes them all before it starts, and a cloned
 * repository's 4 GB file of zeros (a few MB in git) would otherwise cost each run 20 seconds or more.
 */
const MAX_FINGERPRINT_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;

/** A fingerprint as `hashSkillFolder` makes it and `skills show` prints it. */
const FINGERPRINT_PATTERN = /^sha256:[0-9a-f]{64}$/;

export function isSkillFingerprint(value: string): boolean {
  return FINGERPRINT_PATTERN.test(value);
}

export function fingerprintSkillFolder(folder: string): string {
  return hashSkillFolder(folder).fingerprint;
}

interface SkillFolderHashes {
  fingerprint: string;
  /**
   * Each regular file's sha256 (hex), by its path relative to the folder with `/` between names: what was approved,
   * for `read_skill_file` to hand over only that, should the file change after the pin was checked.
   */
  files: ReadonlyMap<string, string>;
  /** Each symbolic link's target text, by its path as in `files`: what was hashed in place of following it. */
  links: ReadonlyMap<string, string>;
  /** The file asked to be kept, as hashed: its size, and its bytes unless past the bound asked for or unreadable. */
  kept?: { size: number; bytes?: Buffer };
}

/**
 * A file whose bytes are kept while they are hashed (a skill's SKILL.md), up to `maxBytes`: what is used of it is
 * then exactly what the fingerprint covers, with no second read a writer could slip other text into.
 */
interface KeepFile {
  /** Relative to the folder, with `/` between names, as in `files`. */
  file: string;
  maxBytes: number;
}

export function hashSkillFolder(folder: string, keep?: KeepFile): SkillFolderHashes {
  const entries: string[] = [];
  const files = new Map<string, string>();
  const links = new Map<string, string>();
  let kept: SkillFolderHashes['kept'];
  let count = 0;
  let bytesLeft = MAX_FINGERPRINT_BYTES;
  const tooLarge = () =>
    new SkillError(
      folder,
      `holds more than ${MAX_FINGERPRINT_BYTES} bytes of files; a skill is pinned by all its files, so it is not used`,
    );
  const walk = (directory: string, relative: string, depth: number): void => {
    if (depth > MAX_FINGERPRINT_DEPTH) {
      throw new SkillError(
        directory,
        `is nested more than ${MAX_FINGERPRINT_DEPTH} folders deep in the skill ${folder}; a skill is pinned by all its files, so it is not used`,
      );
    }
    let names: string[];
    try {
      names = readdirSync(directory).sort();
    } catch {
      return;
    }
    for (const name of names) {
      count += 1;
      if (count > MAX_FINGERPRINT_FILES) {
        throw new SkillError(
          folder,
          `has more than ${MAX_FINGERPRINT_FILES} files and folders; a skill is pinned by all its files, so it is not used`,
        );
      }
      const absolute = path.join(directory, name);
      const relativeName = relative === '' ? name : `${relative}/${name}`;
      const stat = lstatSync(absolute, { throwIfNoEntry: false });
      if (stat === undefined) continue;
      if (stat.isSymbolicLink()) {
        const target = readlinkSync(absolute);
        links.set(relativeName, target);
        entries.push(`link ${relativeName} -> ${target}`);
      } else if (stat.isDirectory()) walk(absolute, relativeName, depth + 1);
      else if (stat.isFile()) {
        if (stat.size > bytesLeft) throw tooLarge();
        const keepUpTo = relativeName === keep?.file ? keep.maxBytes : undefined;
        const hashed = hashFile(absolute, bytesLeft, keepUpTo);
        if (hashed === undefined) throw tooLarge();
        const { hash, bytes } = hashed;
        bytesLeft -= bytes;
        files.set(relativeName, hash);
        entries.push(`file ${relativeName} ${stat.size} ${hash}`);
        if (keepUpTo !== undefined)
          kept = { size: bytes, ...(hashed.kept === undefined ? {} : { bytes: hashed.kept }) };
      }
    }
  };
  walk(folder, '', 0);
  entries.push(`count ${count}`);
  const fingerprint = `sha256:${createHash('sha256').update(entries.join('\n')).digest('hex')}`;
  return { fingerprint, files, links, ...(kept === undefined ? {} : { kept }) };
}

/**
 * Read in chunks, so a 50 MB file is hashed without holding it in memory; undefined once past `maxBytes` (a file
 * that grows while it is read). With `keepUpTo`, the bytes hashed are kept too while they are no more than that.
 */
function hashFile(
  file: string,
  maxBytes: number,
  keepUpTo?: number,
): { hash: string; bytes: number; kept?: Buffer } | undefined {
  let bytes = 0;
  const hash = createHash('sha256');
  const kept: Buffer[] | undefined = keepUpTo === undefined ? undefined : [];
  let readable = true;
  let descriptor: number | undefined;
  try {
    // Without waiting: the file may have been swapped for a named pipe since it was listed.
    descriptor = openSync(file, OPEN_WITHOUT_WAITING);
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const read = readSync(descriptor, buffer, 0, CHUNK_BYTES, null);
      if (read === 0) break;
      bytes += read;
      if (bytes > maxBytes) return undefined;
      hash.update(buffer.subarray(0, read));
      if (kept !== undefined && bytes <= keepUpTo!) kept.push(Buffer.from(buffer.subarray(0, read)));
    }
  } catch (error) {
    readable = false;
    hash.update(`unreadable ${(error as NodeJS.ErrnoException).code ?? ''}`);
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
  const whole = kept !== undefined && readable && bytes <= keepUpTo!;
  return { hash: hash.digest('hex'), bytes, ...(whole ? { kept: Buffer.concat(kept, bytes) } : {}) };
}
