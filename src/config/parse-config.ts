/**
 * From config text (or an already-parsed object) to a validated `HostConfig`. Accepts the files Claude Desktop,
 * Claude Code and Cursor write (`mcpServers`), VS Code's (`servers`, with `type`) and VS Code's settings.json
 * (`mcp.servers`), plus the host's own settings. Comments and trailing commas are allowed, as VS Code allows them.
 */

import path from 'node:path';
import { MAX_JSON_DEPTH, offsetTooDeep } from '../json/json-depth.js';
import { buildRoots, buildSamplingSettings } from './client-feature-settings.js';
import { ConfigError, describeConfigFile } from './config-error.js';
import { firstIssue, PERMISSION_KEYS, TOP_LEVEL_KEYS, topLevelSchema } from './config-schema.js';
import { findDuplicateKey } from './duplicate-key.js';
import { type Environment, substituteEnvironment } from './env-substitution.js';
import { buildGatewaySettings, buildProfiles } from './gateway-settings.js';
import { findJsonSyntaxProblem, lineAndColumn } from './json-syntax-error.js';
import { blankJsoncExtras } from './jsonc-text.js';
import { describeValue, formatKeyPath, isPlainObject, type KeyPathSegment, valueAtPath } from './key-path.js';
import { findPrototypeKey, PROTOTYPE_KEY } from './prototype-key.js';
import { buildServerConfig } from './server-entry.js';
import { isEditorSection, listSections, type ServerSection, serverSectionsOf, serversAt } from './server-sections.js';
import type { HostConfig, ServerConfig } from './types.js';
import { unknownKeyNote } from './unknown-key.js';

export interface ValidateConfigOptions {
  /** Where the config came from; relative paths resolve against its folder. Absolute, or resolved against `cwd`. */
  file?: string;
  /** Folder for relative paths when there is no file, and for resolving a relative `file`. Default `process.cwd()`. */
  cwd?: string;
  /** Variables for `${env:VAR}` substitution. Default `process.env`. */
  env?: Environment;
}

/** A config with no servers and no settings, for when no file was found. */
export function createEmptyConfig(): HostConfig {
  return { servers: [], permissions: { allow: [], ask: [], deny: [] }, secrets: [], warnings: [] };
}

/**
 * Parses JSON config text (comments and trailing commas allowed) and validates it. `file` is used in messages and as the base for relative paths.
 * Throws `ConfigError`.
 */
export function parseConfig(
  text: string,
  file: string | undefined,
  env: Environment = process.env,
  options: { cwd?: string } = {},
): HostConfig {
  const absoluteFile = file === undefined ? undefined : path.resolve(options.cwd ?? process.cwd(), file);
  const value = parseConfigJson(text, absoluteFile);
  return validateConfig(value, { ...options, env, ...(absoluteFile === undefined ? {} : { file: absoluteFile }) });
}

/**
 * Validates an already-parsed config object (e.g. one passed to the library in code). Throws `ConfigError`, with the
 * warnings gathered before it (a misspelt key often explains the error) but those about keys inside what it names.
 */
export function validateConfig(input: unknown, options: ValidateConfigOptions = {}): HostConfig {
  const warnings: string[] = [];
  try {
    return buildConfig(input, options, warnings);
  } catch (error) {
    if (ConfigError.isInstance(error)) error.warnings = warnings.filter((warning) => !isWarningWithin(warning, error));
    throw error;
  }
}

/** A warning about a key inside the part the error is about: the error names that part's keys itself. */
function isWarningWithin(warning: string, error: ConfigError): boolean {
  if (error.keyPath === '') return false;
  const part = `${describeConfigFile(error.file)}: ${error.keyPath}`;
  return warning.startsWith(`${part}.`) || warning.startsWith(`${part}[`);
}

function buildConfig(input: unknown, options: ValidateConfigOptions, warnings: string[]): HostConfig {
  const cwd = options.cwd ?? process.cwd();
  const file = options.file === undefined ? undefined : path.resolve(cwd, options.file);
  const baseDirectory = file === undefined ? path.resolve(cwd) : path.dirname(file);
  const workspaceFolder = workspaceFolderOf(baseDirectory);
  const env = options.env ?? process.env;
  const invalid = (keyPath: string, expected: string, found?: string): ConfigError =>
    new ConfigError({ code: 'config-invalid', file, keyPath, expected, ...(found === undefined ? {} : { found }) });
  const sections = isPlainObject(input) ? serverSectionsOf(input) : [];
  if (sections.length > 1) {
    throw new ConfigError({
      code: 'config-invalid',
      file,
      keyPath: formatKeyPath(sections[1]!),
      expected: `server entries under only one of ${listSections(sections)}`,
      found: sections.length === 2 ? 'both' : `all ${sections.length}`,
      hint: 'One would be read and the rest ignored without a word; keep the servers under one.',
    });
  }
  const section: ServerSection = sections[0] ?? ['mcpServers'];
  // An editor's settings file: only its `mcp` section is about servers; its other settings are not ours to warn about.
  const editorFile = isPlainObject(input) && isEditorSection(section);
  const value = editorFile ? { servers: serversAt(input, section) } : input;

  const prototypeKey = findPrototypeKey(value);
  if (prototypeKey !== undefined) {
    throw new ConfigError({
      code: 'config-invalid',
      file,
      keyPath: formatKeyPath(prototypeKey),
      expected: 'no key named `__proto__`',
      found: 'one',
      hint: `No setting is called ${PROTOTYPE_KEY}, and it would be dropped without effect; remove or rename it.`,
    });
  }
  const raw = (isPlainObject(value) ? value : {}) as Record<string, unknown>;
  const warnUnknownKeys = (object: object, known: ReadonlySet<string>, parent: string[], why: string): void => {
    for (const key of Object.keys(object)) {
      if (!known.has(key)) {
        warnings.push(
          `${describeConfigFile(file)}: ${formatKeyPath([...parent, key])}: ${unknownKeyNote(key, known, why)}`,
        );
      }
    }
  };
  // Before the shape is checked: a misspelt key said before an error often explains it.
  warnUnknownKeys(raw, TOP_LEVEL_KEYS, [], 'not a setting mcp-host uses; ignored');
  if (isPlainObject(raw.permissions)) {
    warnUnknownKeys(
      raw.permissions,
      PERMISSION_KEYS,
      ['permissions'],
      'not a permission list (allow, ask, deny); ignored',
    );
  }

  const parsed = topLevelSchema.safeParse(value);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    const segments = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
    // An editor's servers were checked as `servers`; the message names where the file has them.
    if (editorFile && segments[0] === 'servers') segments.splice(0, 1, ...section);
    const found =
      issue.unknownKey === undefined
        ? describeValue(valueAtPath(value, issue.path))
        : `an object with the key ${JSON.stringify(issue.unknownKey)}, which is not one of them`;
    throw invalid(formatKeyPath(segments), issue.expected, found);
  }
  const top = parsed.data;

  const entries = top.servers ?? top.mcpServers ?? {};

  const secrets = new Set<string>();
  const servers: ServerConfig[] = Object.entries(entries).map(([name, entry]) =>
    buildServerConfig(section, name, entry, { file, baseDirectory, workspaceFolder, env, secrets, warnings }),
  );

  const config: HostConfig = {
    servers,
    permissions: {
      allow: top.permissions?.allow ?? [],
      ask: top.permissions?.ask ?? [],
      deny: top.permissions?.deny ?? [],
    },
    secrets: [],
    warnings,
  };
  if (file !== undefined) config.file = file;
  for (const key of [
    'maxTurns',
    'maxOutputTokens',
    'maxParallelCalls',
    'maxTotalTimeoutMs',
    'maxResultTokens',
    'maxTurnResultTokens',
    'maxInstructionTokens',
    'contextTokens',
  ] as const) {
    if (top[key] !== undefined) config[key] = top[key];
  }
  if (top.instructions !== undefined) config.instructions = top.instructions;
  if (top.system !== undefined) config.system = top.system;
  if (top.toolDiscovery !== undefined) config.toolDiscovery = top.toolDiscovery;
  if (top.nativeToolSearch !== undefined) config.nativeToolSearch = top.nativeToolSearch;
  if (top.strictTools !== undefined) config.strictTools = top.strictTools;
  if (top.modelPrices !== undefined) config.modelPrices = top.modelPrices;
  if (top.skills !== undefined) {
    config.skills =
      top.skills === false
        ? false
        : top.skills.map((folder, index) =>
            path.resolve(baseDirectory, substituteEnvironment(folder, `skills[${index}]`, { env, file, secrets })),
          );
  }
  if (top.auditFile !== undefined) {
    config.auditFile = path.resolve(
      baseDirectory,
      substituteEnvironment(top.auditFile, 'auditFile', { env, file, secrets, workspaceFolder }),
    );
  }
  if (top.roots !== undefined) config.roots = buildRoots(top.roots, { file, baseDirectory });
  if (top.sampling !== undefined) {
    config.sampling = buildSamplingSettings(top.sampling, raw.sampling as Record<string, unknown>, {
      file,
      baseDirectory,
      serverNames: new Set(servers.map((server) => server.name)),
      warnings,
    });
  }
  if (top.gateway !== undefined) config.gateway = buildGatewaySettings(top.gateway, { file, env, secrets });
  if (top.profiles !== undefined) {
    config.profiles = buildProfiles(top.profiles, new Set(servers.map((server) => server.name)), file);
  }
  if (top.model !== undefined) {
    const model = substituteEnvironment(top.model, 'model', { env, file, secrets, workspaceFolder });
    config.model = resolveModelPath(model, baseDirectory);
  }
  config.secrets = [...secrets].sort((left, right) => right.length - left.length || (left < right ? -1 : 1));
  return config;
}

/** Folders editors keep their per-project MCP config in; `${workspaceFolder}` is the folder holding them. */
const EDITOR_CONFIG_FOLDERS = new Set(['.vscode', '.cursor']);

function workspaceFolderOf(baseDirectory: string): string {
  return EDITOR_CONFIG_FOLDERS.has(path.basename(baseDirectory)) ? path.dirname(baseDirectory) : baseDirectory;
}

/** Whether `value` is an editor's settings file: it keeps its servers in an `mcp` section, and nothing else is ours. */
function isEditorSettings(value: unknown): boolean {
  const [section] = isPlainObject(value) ? serverSectionsOf(value) : [];
  return section !== undefined && isEditorSection(section);
}

const SCRIPTED_PREFIX = 'scripted:';

/** A `scripted:PATH` model reads a script file, which belongs beside the config that names it. */
function resolveModelPath(model: string, baseDirectory: string): string {
  if (!model.startsWith(SCRIPTED_PREFIX)) return model;
  const scriptPath = model.slice(SCRIPTED_PREFIX.length);
  if (scriptPath === '') return model;
  return `${SCRIPTED_PREFIX}${path.resolve(baseDirectory, scriptPath)}`;
}

/**
 * JSON with comments and trailing commas, with a `ConfigError` that gives line, column and the likely cause. A UTF-8
 * byte order mark is skipped.
 */
function parseConfigJson(text: string, file: string | undefined): unknown {
  const body = strictBody(text);
  if (body.trim() === '') {
    throw new ConfigError({
      code: 'config-invalid-json',
      file,
      keyPath: '',
      expected: 'a JSON object with an `mcpServers` key',
      found: 'an empty file',
    });
  }
  refuseTooDeep(body, file);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const problem = findJsonSyntaxProblem(body);
    if (problem === undefined) throw error;
    throw new ConfigError({
      code: 'config-invalid-json',
      file,
      keyPath: '',
      expected: problem.expected,
      found: problem.found,
      line: problem.line,
      column: problem.column,
      ...(problem.hint === undefined ? {} : { hint: problem.hint }),
    });
  }
  refuseDuplicateKey(body, value, file);
  return value;
}

/** The text without a byte order mark, its comments and trailing commas blanked (positions kept). */
function strictBody(text: string): string {
  return blankJsoncExtras(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

/**
 * The loader's error, for a command about to edit `text`, for nesting no setting needs (the edit's walk of it would
 * overflow the stack) and for a key written twice where the host reads (the loader reads the last of the two and an
 * edit changes the first, so the edit would change what is not run). Text that is not JSON is left to the caller.
 */
export function refuseBeforeEdit(text: string, file: string): void {
  const body = strictBody(text);
  refuseTooDeep(body, file);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return;
  }
  refuseDuplicateKey(body, value, file);
}

/** Nesting no setting needs, refused before anything walks it (a walk that deep would overflow the stack). */
function refuseTooDeep(body: string, file: string | undefined): void {
  const offset = offsetTooDeep(body, MAX_JSON_DEPTH);
  if (offset === -1) return;
  throw new ConfigError({
    code: 'config-invalid-json',
    file,
    keyPath: '',
    expected: `objects and arrays nested at most ${MAX_JSON_DEPTH} levels deep`,
    found: 'one level more here',
    ...lineAndColumn(body, offset),
  });
}

/** A key written twice where the host reads: JSON keeps the last without a word, so the file would not mean what it shows. */
function refuseDuplicateKey(body: string, value: unknown, file: string | undefined): void {
  const duplicate = findDuplicateKey(body, isEditorSettings(value) ? isServersSection : undefined);
  if (duplicate === undefined) return;
  const { objectPath, key, first, second } = duplicate;
  throw new ConfigError({
    code: 'config-invalid',
    file,
    keyPath: formatKeyPath([...objectPath, key]),
    expected: 'each key once in an object',
    found: `it a second time (first at line ${first.line}, column ${first.column})`,
    hint: 'Only the last would count; remove the one that is wrong.',
    line: second.line,
    column: second.column,
  });
}

/** In an editor's settings file, whether a key of the object at `objectPath` is in its servers section. */
function isServersSection(objectPath: ReadonlyArray<KeyPathSegment>, key: string): boolean {
  const [first, second] = objectPath;
  if (first === 'mcp.servers') return true;
  if (first !== 'mcp') return objectPath.length === 0 && (key === 'mcp' || key === 'mcp.servers');
  return objectPath.length === 1 ? key === 'servers' : second === 'servers';
}
