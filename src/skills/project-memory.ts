/**
 * Episodic memory, small and explicit: facts the user asked the host to remember in this project, one Markdown list
 * item each, in `.mcp-host/memory.md` beside the config. The user can read and edit the file; nothing else is kept.
 * It goes into the system prompt with the project instructions (and is off with them).
 */

import { existsSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { leadsOutside } from './discover-skills.js';
import { readBoundedText } from './read-bounded-text.js';

/** Relative to the project folder (the config's folder, or the working folder without a config). */
export const MEMORY_FILE = path.join('.mcp-host', 'memory.md');
/** One remembered fact, in characters: memory is for short facts, not documents. */
const MAX_MEMORY_ENTRY_CHARACTERS = 1_000;
/** The memory file as a whole; adding beyond this is refused (forget something first). */
const MAX_MEMORY_FILE_BYTES = 64 * 1024;
/** A file edited by hand (or come with a cloned folder) is read up to what the instructions read it up to. */
const MAX_MEMORY_READ_BYTES = 1024 * 1024;

const HEADER = `# Project memory

Facts to remember in this project, added with \`mcp-host memory add\` or \`/remember\` in chat. Edit freely.

`;
const ENTRY = /^[-*] (.*)$/;

export function memoryFile(projectFolder: string): string {
  return path.join(projectFolder, MEMORY_FILE);
}

/** The remembered facts, in file order (list items only; other lines of the file are the user's and stay). */
export function readMemory(projectFolder: string): string[] {
  return lines(projectFolder).flatMap((line) => {
    const match = ENTRY.exec(line);
    return match === null ? [] : [match[1]!];
  });
}

/** Appends one fact (made one line, bounded); returns it as stored. */
export function addMemory(projectFolder: string, text: string): string {
  const entry = text.replace(/\s+/g, ' ').trim();
  if (entry === '') throw new Error('nothing to remember: the text is empty');
  if (entry.length > MAX_MEMORY_ENTRY_CHARACTERS) {
    throw new Error(
      `a memory entry may be at most ${MAX_MEMORY_ENTRY_CHARACTERS} characters (this one has ${entry.length})`,
    );
  }
  const file = confinedMemoryFile(projectFolder);
  const current = read(file);
  const next = `${current === undefined ? HEADER : current.endsWith('\n') || current === '' ? current : `${current}\n`}- ${entry}\n`;
  if (Buffer.byteLength(next) > MAX_MEMORY_FILE_BYTES) {
    throw new Error(
      `${file} would grow past ${MAX_MEMORY_FILE_BYTES} bytes; forget something first (mcp-host memory forget N)`,
    );
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, next);
  return entry;
}

/** Removes fact number `index` (1-based, as `memory list` numbers them); returns it. */
export function forgetMemory(projectFolder: string, index: number): string {
  const all = lines(projectFolder);
  const positions = all.flatMap((line, position) => (ENTRY.test(line) ? [position] : []));
  const position = positions[index - 1];
  if (!Number.isInteger(index) || index < 1 || position === undefined) {
    throw new Error(`no memory entry ${index}; there ${positions.length === 1 ? 'is 1' : `are ${positions.length}`}`);
  }
  const [removed] = all.splice(position, 1);
  writeFileSync(confinedMemoryFile(projectFolder), all.join('\n'));
  return ENTRY.exec(removed!)![1]!;
}

function read(file: string): string | undefined {
  try {
    return readBoundedText(file, MAX_MEMORY_READ_BYTES, 'the memory file');
  } catch (error) {
    // The file not there yet is an empty memory; `SkillError` says what else was wrong with it.
    if (!existsSync(file)) return undefined;
    throw error;
  }
}

function lines(projectFolder: string): string[] {
  return (read(confinedMemoryFile(projectFolder)) ?? '').split('\n');
}

/**
 * The memory file, refused when it or `.mcp-host` is a symbolic link leading out of the project folder: a cloned
 * repository could point it at `~/.bashrc`, and remembering a fact would then write there (or, dangling, create it).
 */
function confinedMemoryFile(projectFolder: string): string {
  const file = memoryFile(projectFolder);
  for (const candidate of [path.dirname(file), file]) {
    const stat = lstatSync(candidate, { throwIfNoEntry: false });
    if (stat === undefined) break;
    if (!stat.isSymbolicLink()) continue;
    if (leadsOutside(candidate, projectFolder)) {
      throw new Error(
        `${candidate} is a symbolic link out of ${projectFolder}; the project memory is kept only inside the project`,
      );
    }
  }
  return file;
}
