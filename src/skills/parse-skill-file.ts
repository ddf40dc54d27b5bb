/**
 * A SKILL.md file, per the open Agent Skills format: YAML front matter between `---` lines, then a Markdown body.
 * Front matter fields: `name` (lowercase letters, digits and hyphens, at most 64 characters, the folder's name),
 * `description` (at most 1,024 characters), and optionally `license`, `compatibility`, `metadata` (strings to
 * strings) and `allowed-tools`. Everything is untrusted text: sizes are bounded before parsing, YAML aliases are
 * capped, and unknown fields are reported rather than used.
 */

import { createRequire } from 'node:module';
import { setOwnProperty } from '../json/own-property.js';
import { pathInMessage, SkillError } from './skill-error.js';

/** The YAML parser (CommonJS), required when a skill file is first read: without skills it is never loaded. */
function loadYaml(): typeof import('yaml') {
  return createRequire(import.meta.url)('yaml') as typeof import('yaml');
}

/** A SKILL.md larger than this is refused: its body goes into the conversation whole when the skill is loaded. */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;
/** Front matter is a few fields; anything larger is not front matter. */
const MAX_FRONT_MATTER_BYTES = 16 * 1024;
const MAX_NAME_LENGTH = 64;
const MAX_DESCRIPTION_LENGTH = 1_024;
const MAX_COMPATIBILITY_LENGTH = 500;
const MAX_ALLOWED_TOOLS = 200;
const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const KNOWN_FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);

export interface SkillFrontMatter {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  /** Tool name patterns (`fs__read_*`) the skill may run while it is active; absent: no narrowing. */
  allowedTools?: string[];
}

interface ParsedSkillFile {
  frontMatter: SkillFrontMatter;
  /** The Markdown after the front matter, as written. */
  body: string;
  /** Fields the format does not define: reported, ignored. */
  warnings: string[];
}

/** Throws `SkillError` naming `file` (and the field) when the file is not a valid SKILL.md for `folderName`. */
export function parseSkillFile(text: string, file: string, folderName: string): ParsedSkillFile {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const opening = /^---[ \t]*\r?\n/.exec(source);
  if (opening === null) throw new SkillError(file, 'expected YAML front matter opening with a `---` line');
  const rest = source.slice(opening[0].length);
  const closing = /^---[ \t]*$/m.exec(rest);
  if (closing === null) throw new SkillError(file, 'the front matter has no closing `---` line');
  const yamlText = rest.slice(0, closing.index);
  if (Buffer.byteLength(yamlText) > MAX_FRONT_MATTER_BYTES) {
    throw new SkillError(file, `the front matter is larger than ${MAX_FRONT_MATTER_BYTES} bytes`);
  }
  const body = rest.slice(closing.index + closing[0].length).replace(/^(?:[ \t]*\r?\n)+/, '');

  const { parseDocument } = loadYaml();
  const document = parseDocument(yamlText, { uniqueKeys: true, prettyErrors: false });
  if (document.errors.length > 0) {
    throw new SkillError(file, `the front matter is not valid YAML (${document.errors[0]!.message.split('\n')[0]})`);
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 16 });
  } catch (error) {
    // Aliases that would expand past the cap (a "billion laughs" front matter) fail here, not in the parse.
    throw new SkillError(file, `the front matter cannot be read (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new SkillError(file, 'expected the front matter to be a YAML mapping with `name` and `description`');
  }
  const fields = data as Record<string, unknown>;
  const warnings = Object.keys(fields)
    .filter((key) => !KNOWN_FIELDS.has(key))
    // Quoted as JSON: a key is the skill author's text, and a line break in it would forge a line of its own.
    .map(
      (key) =>
        `${pathInMessage(file)}: front matter field ${JSON.stringify(key)} is not part of the skill format; ignored`,
    );

  const name = requiredString(fields, 'name', file);
  if (name.length > MAX_NAME_LENGTH || !NAME_PATTERN.test(name)) {
    throw new SkillError(
      file,
      `expected lowercase letters, digits and single hyphens, at most ${MAX_NAME_LENGTH} characters, found ${JSON.stringify(name.slice(0, 80))}`,
      'name',
    );
  }
  if (name !== folderName) {
    throw new SkillError(
      file,
      `expected the name of the skill's folder, "${pathInMessage(folderName)}", found "${name}"`,
      'name',
    );
  }
  const description = requiredString(fields, 'description', file).trim();
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    throw new SkillError(
      file,
      `expected at most ${MAX_DESCRIPTION_LENGTH} characters, found ${description.length}`,
      'description',
    );
  }
  const frontMatter: SkillFrontMatter = { name, description };
  const license = optionalString(fields, 'license', file);
  if (license !== undefined) frontMatter.license = license;
  const compatibility = optionalString(fields, 'compatibility', file);
  if (compatibility !== undefined) {
    if (compatibility.length > MAX_COMPATIBILITY_LENGTH) {
      throw new SkillError(file, `expected at most ${MAX_COMPATIBILITY_LENGTH} characters`, 'compatibility');
    }
    frontMatter.compatibility = compatibility;
  }
  if (fields.metadata !== undefined) frontMatter.metadata = metadataOf(fields.metadata, file);
  if (fields['allowed-tools'] !== undefined) frontMatter.allowedTools = allowedToolsOf(fields['allowed-tools'], file);
  return { frontMatter, body, warnings };
}

function requiredString(fields: Record<string, unknown>, key: string, file: string): string {
  const value = fields[key];
  if (value === undefined || value === null) throw new SkillError(file, 'is required', key);
  if (typeof value !== 'string' || value.trim() === '') {
    throw new SkillError(file, `expected a non-empty string, found ${describe(value)}`, key);
  }
  return value;
}

function optionalString(fields: Record<string, unknown>, key: string, file: string): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new SkillError(file, `expected a string, found ${describe(value)}`, key);
  return value;
}

function metadataOf(value: unknown, file: string): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SkillError(file, `expected a mapping of keys to strings, found ${describe(value)}`, 'metadata');
  }
  const metadata: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') {
      setOwnProperty(metadata, key, String(item));
    } else {
      throw new SkillError(
        file,
        `expected a string, found ${describe(item)}`,
        `metadata.${JSON.stringify(key).slice(1, -1)}`,
      );
    }
  }
  return metadata;
}

/** The format writes a space-separated string; other tools write commas or a YAML list. All three are accepted. */
function allowedToolsOf(value: unknown, file: string): string[] {
  const items =
    typeof value === 'string'
      ? value.split(/[\s,]+/)
      : Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? (value as string[])
        : undefined;
  if (items === undefined) {
    throw new SkillError(
      file,
      `expected tool names separated by spaces, or a list of them, found ${describe(value)}`,
      'allowed-tools',
    );
  }
  const names = items.map((item) => item.trim()).filter((item) => item !== '');
  if (names.length > MAX_ALLOWED_TOOLS) {
    throw new SkillError(file, `expected at most ${MAX_ALLOWED_TOOLS} entries, found ${names.length}`, 'allowed-tools');
  }
  return names;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return value.trim() === '' ? 'an empty string' : 'a string';
  return `${typeof value} ${String(value)}`;
}
