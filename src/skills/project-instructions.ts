/**
 * Project instructions — the semantic memory an agent reads before it starts: `AGENTS.md` (and `CLAUDE.md` where a
 * project has one) from the repository root down to the config's folder, after the user's own `AGENTS.md` in the
 * user config folder, and before the project memory (`.mcp-host/memory.md`). Outer files come first and nearer ones
 * later, so the most specific words are read last. The whole is bounded in tokens; a file that would cross the
 * bound is cut with a note saying so, and the files after it are left out (and reported).
 * Characters no editor shows are removed, with a note naming the file (see hidden-characters.ts).
 *
 * The project's files come with the repository, as a config found in the working folder does: beside such a config
 * that is not approved yet, only the user's own file is read, until `mcp-host trust config` (as for its skills).
 */

import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { type ApprovalsPlace, trustConfigCommand } from '../config/trust-commands.js';
import type { HostConfig } from '../config/types.js';
import { estimateTextTokens } from '../providers/token-estimate/index.js';
import { leadsOutside } from './discover-skills.js';
import { withoutHiddenCharacters } from './hidden-characters.js';
import { MEMORY_FILE } from './project-memory.js';
import { readBoundedText } from './read-bounded-text.js';
import { pathInMessage } from './skill-error.js';

const INSTRUCTION_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;
/** Instructions and memory together, in tokens (o200k estimate), unless `maxInstructionTokens` says otherwise. */
export const DEFAULT_MAX_INSTRUCTION_TOKENS = 8_000;
/** A larger instruction file is not read at all (it could not fit the budget anyway). */
const MAX_INSTRUCTION_FILE_BYTES = 1024 * 1024;
/** Folders walked up from the config's folder looking for the repository root. */
const MAX_FOLDERS_UP = 32;

type InstructionKind = 'user' | 'project' | 'memory';

export interface InstructionFile {
  kind: InstructionKind;
  file: string;
  text: string;
  tokens: number;
  /** The file was cut to fit the budget. */
  cut?: boolean;
}

interface LoadedInstructions {
  files: InstructionFile[];
  /** Files left out or cut, and files that could not be read: one line each, for stderr. */
  notes: string[];
}

/** The repository root: the nearest folder at or above `folder` holding `.git`; none when there is no repository. */
function findRepositoryRoot(folder: string): string | undefined {
  let current = path.resolve(folder);
  for (let step = 0; step < MAX_FOLDERS_UP; step += 1) {
    if (existsSync(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
}

interface FoundInstructionFile {
  kind: InstructionKind;
  file: string;
  /** The project's files come with the repository: they are read only from inside it (see `leadsOutside`). */
  within?: string;
}

/** Every instruction file that exists, in the order they go into the system prompt. */
function findInstructionFiles(projectFolder: string, userConfigDir: string): FoundInstructionFile[] {
  const found: FoundInstructionFile[] = [];
  const root = findRepositoryRoot(projectFolder) ?? path.resolve(projectFolder);
  const add = (kind: InstructionKind, file: string): void => {
    if (statSync(file, { throwIfNoEntry: false })?.isFile() !== true) return;
    found.push(kind === 'user' ? { kind, file } : { kind, file, within: root });
  };
  add('user', path.join(userConfigDir, 'AGENTS.md'));
  const folders: string[] = [];
  for (let current = path.resolve(projectFolder); ; current = path.dirname(current)) {
    folders.unshift(current);
    if (current === root || path.dirname(current) === current) break;
  }
  for (const folder of folders) for (const name of INSTRUCTION_FILE_NAMES) add('project', path.join(folder, name));
  add('memory', path.join(projectFolder, MEMORY_FILE));
  return found;
}

/**
 * The project's instruction and memory files, left out while the config beside them awaits approval: the user's
 * own file only then. A folder without a config, or with one named by the user or approved, reads them all.
 */
export function projectInstructionsWithheld(config: Pick<HostConfig, 'file' | 'awaitingApproval'>): boolean {
  return config.awaitingApproval !== undefined && config.file !== undefined;
}

/** Why the project's instruction files that exist are not used, while its config awaits approval; else undefined. */
export function unapprovedInstructionsNote(
  config: Pick<HostConfig, 'file' | 'awaitingApproval'>,
  projectFolder: string,
  userConfigDir: string,
  place: Pick<ApprovalsPlace, 'stateDir'> = {},
): string | undefined {
  if (!projectInstructionsWithheld(config)) return undefined;
  const withheld = findInstructionFiles(projectFolder, userConfigDir).filter(({ kind }) => kind !== 'user');
  if (withheld.length === 0) return undefined;
  const files = withheld.map(({ file }) => file).join(', ');
  return `the instructions in ${files} are not used until ${config.file} is approved: ${trustConfigCommand(config.file!, place)}`;
}

export function loadInstructions(
  projectFolder: string,
  userConfigDir: string,
  maxTokens = DEFAULT_MAX_INSTRUCTION_TOKENS,
  { userOnly = false }: { userOnly?: boolean } = {},
): LoadedInstructions {
  const files: InstructionFile[] = [];
  const notes: string[] = [];
  let left = maxTokens;
  for (const { kind, file, within } of findInstructionFiles(projectFolder, userConfigDir)) {
    if (userOnly && kind !== 'user') continue;
    if (within !== undefined && leadsOutside(file, within)) {
      notes.push(
        `instructions: ${file} not used: it is a symbolic link out of ${within}; a project's instructions are read only from inside it`,
      );
      continue;
    }
    let text: string;
    try {
      text = readBoundedText(
        file,
        MAX_INSTRUCTION_FILE_BYTES,
        kind === 'memory' ? 'the memory file' : 'an instruction file',
      ).trim();
    } catch (error) {
      notes.push(`instructions: ${file} not used: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const forModel = withoutHiddenCharacters(text);
    text = forModel.text.trim();
    if (forModel.removed !== undefined) {
      notes.push(
        `instructions: ${pathInMessage(file)} holds characters no editor shows; the model reads it without them (${forModel.removed})`,
      );
    }
    if (text === '') continue;
    if (left <= 0) {
      notes.push(`instructions: ${file} left out: the instructions budget (${maxTokens} tokens) is spent`);
      continue;
    }
    const tokens = estimateTextTokens(text);
    if (tokens <= left) {
      files.push({ kind, file, text, tokens });
      left -= tokens;
      continue;
    }
    const kept = cutToTokens(text, left);
    const cutText = `${kept}\n[… cut: ${file} is longer than what is left of the instructions budget (${maxTokens} tokens)]`;
    files.push({ kind, file, text: cutText, tokens: estimateTextTokens(cutText), cut: true });
    notes.push(`instructions: ${file} cut to fit the instructions budget (${maxTokens} tokens; maxInstructionTokens)`);
    left = 0;
  }
  return { files, notes };
}

/** The longest prefix (at a line end where possible) within `tokens`: halving keeps the tokenizer calls few. */
function cutToTokens(text: string, tokens: number): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (estimateTextTokens(text.slice(0, middle)) <= tokens - 40) low = middle;
    else high = middle - 1;
  }
  const prefix = text.slice(0, low);
  const lineEnd = prefix.lastIndexOf('\n');
  return lineEnd > prefix.length / 2 ? prefix.slice(0, lineEnd) : prefix;
}
