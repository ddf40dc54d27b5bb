/**
 * A skill's fingerprint: sha256 over every file in its folder (relative path, size and content hash, in sorted
 * order), so that a change to any of them — the body, a reference, a script — shows up as a changed skill and is
 * withheld until approved again, just as a changed tool definition is. Symbolic links are not followed: their
 * target text is hashed instead, so a link repointed elsewhere counts as a change too.
 */

import { createHash } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync } from 'node:fs';
import path from 'node:path';
import { OPEN_WITHOUT_WAITING } from '../json/read-bounded-file.js';
import { pathInMessage, SkillError } from './skill-error.js';

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

/**
 * A file or symbolic link the fingerprint covers, as it covers it: a regular file by its size, a link by its target
 * text (never followed).
 */
export type HashedEntry = { path: string; bytes: number } | { path: string; linkTarget: string };

interface SkillFolderHashes {
  fingerprint: string;
  /**
   * Every regular file and symbolic link hashed, in the order hashed, from the same pass as the fingerprint: what
   * `skills show` lists, so the listing is exactly what the fingerprint covers, never a second look at the folder.
   */
  entries: readonly HashedEntry[];
  /**
   * Each regular file's sha256 (hex), by its path relative to the folder with `/` between names: what was approved,
   * for `read_skill_file` to hand over only that, should the file change after the pin was checked.
   */
  files: ReadonlyMap<string, string>;
  /** Each symbolic link's target text, by its path as in `files`: what was hashed in place of following it. */
  links: ReadonlyMap<string, string>;
  /** The bytes of the file asked to be kept, as hashed; unset when it was not found as a regular file or unreadable. */
  kept?: Buffer;
}

/**
 * A file whose bytes are kept while they are hashed (a skill's SKILL.md): what is used of it is then exactly what the
 * fingerprint covers, with no second read a writer could slip other text into.
 */
interface KeepFile {
  /** Relative to the folder, with `/` between names, as in `files`. */
  file: string;
  /**
   * Past this size the file is refused before any of it is read, as its open descriptor tells (or as read, should it
   * grow), and nothing more of the folder is hashed: `tooLarge(size)` is thrown, `size` unset when it grew.
   */
  maxBytes: number;
  tooLarge: (size: number | undefined) => Error;
}

export function hashSkillFolder(folder: string, keep?: KeepFile): SkillFolderHashes {
  const lines: string[] = [];
  const entries: HashedEntry[] = [];
  const files = new Map<string, string>();
  const links = new Map<string, string>();
  let kept: Buffer | undefined;
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
        `is nested more than ${MAX_FINGERPRINT_DEPTH} folders deep in the skill ${pathInMessage(folder)}; a skill is pinned by all its files, so it is not used`,
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
        lines.push(`link ${linkNameInLine(relativeName)} -> ${inLine(target)}`);
        entries.push({ path: relativeName, linkTarget: target });
      } else if (stat.isDirectory()) walk(absolute, relativeName, depth + 1);
      else if (stat.isFile()) {
        const keepThis = relativeName === keep?.file ? keep : undefined;
        // The kept file's own bound is checked first, on its descriptor, so it is refused for its size.
        if (keepThis === undefined && stat.size > bytesLeft) throw tooLarge();
        const hashed = hashFile(absolute, bytesLeft, keepThis);
        if (hashed === undefined) throw tooLarge();
        const { hash, bytes } = hashed;
        bytesLeft -= bytes;
        files.set(relativeName, hash);
        lines.push(`file ${inLine(relativeName)} ${stat.size} ${hash}`);
        entries.push({ path: relativeName, bytes: stat.size });
        if (keepThis !== undefined) kept = hashed.kept;
      }
    }
  };
  // Before the walk, which hashes in name order: a LICENSE or README.md sorts ahead of SKILL.md and would be read first.
  if (keep !== undefined) refuseIfTooLarge(path.join(folder, keep.file), keep);
  walk(folder, '', 0);
  lines.push(`count ${count}`);
  const fingerprint = `sha256:${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
  return { fingerprint, entries, files, links, ...(kept === undefined ? {} : { kept }) };
}

/**
 * A name or link target as a fingerprint line writes it: as it is, unless it could be read as more than itself. The
 * skill's author picks its file names, and one holding a line break could spell out the lines of other files, so
 * that a folder with another SKILL.md hashed like the approved one. Such a text, and one that starts with a quote
 * (which would pass for the quoted form), is written as a JSON string: one line, read back one way. Names without
 * them, every usual one, are written as before, so the pins made of them still hold.
 */
function inLine(text: string): string {
  return text.includes('\n') || text.startsWith('"') ? JSON.stringify(text) : text;
}

/** As {@link inLine}; a link's name holding ` -> ` is quoted too, or where it ends and its target begins is unclear. */
function linkNameInLine(name: string): string {
  return name.includes(' -> ') ? JSON.stringify(name) : inLine(name);
}

/**
 * Throws `keep.tooLarge` when the file, as its open descriptor tells, is past `keep.maxBytes`. One it cannot open is
 * left to the walk, which records it as it finds it.
 */
function refuseIfTooLarge(file: string, keep: KeepFile): void {
  let descriptor: number | undefined;
  let size: number | undefined;
  try {
    descriptor = openSync(file, OPEN_WITHOUT_WAITING);
    size = fstatSync(descriptor).size;
  } catch {
    return;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
  if (size > keep.maxBytes) throw keep.tooLarge(size);
}

/**
 * Read in chunks, so a 50 MB file is hashed without holding it in memory; undefined once past `maxBytes` (a file
 * that grows while it is read). With `keep`, the bytes hashed are kept too, and the file is refused past its bound.
 */
function hashFile(
  file: string,
  maxBytes: number,
  keep?: KeepFile,
): { hash: string; bytes: number; kept?: Buffer } | undefined {
  let bytes = 0;
  const hash = createHash('sha256');
  const kept: Buffer[] | undefined = keep === undefined ? undefined : [];
  let readable = true;
  let refusal: Error | undefined;
  let descriptor: number | undefined;
  try {
    // Without waiting: the file may have been swapped for a named pipe since it was listed.
    descriptor = openSync(file, OPEN_WITHOUT_WAITING);
    // Measured by the descriptor then read, not by the path: a file swapped in between is the one measured.
    if (keep !== undefined) {
      const { size } = fstatSync(descriptor);
      if (size > keep.maxBytes) refusal = keep.tooLarge(size);
    }
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    while (refusal === undefined) {
      const read = readSync(descriptor, buffer, 0, CHUNK_BYTES, null);
      if (read === 0) break;
      bytes += read;
      if (bytes > maxBytes) return undefined;
      if (keep !== undefined && bytes > keep.maxBytes) {
        refusal = keep.tooLarge(undefined);
        break;
      }
      hash.update(buffer.subarray(0, read));
      kept?.push(Buffer.from(buffer.subarray(0, read)));
    }
  } catch (error) {
    readable = false;
    hash.update(`unreadable ${(error as NodeJS.ErrnoException).code ?? ''}`);
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
  if (refusal !== undefined) throw refusal;
  const whole = kept !== undefined && readable;
  return { hash: hash.digest('hex'), bytes, ...(whole ? { kept: Buffer.concat(kept, bytes) } : {}) };
}
