/**
 * From config text (or an already-parsed object) to a validated `HostConfig`. Accepts the files Claude Desktop,
 * Claude Code and Cursor write (`mcpServers`) and VS Code's (`servers`, with `type`), plus the host's own settings.
 */

import path from 'node:path';
import { buildRoots, buildSamplingSettings } from './client-feature-settings.js';
import { ConfigError, describeConfigFile } from './config-error.js';
import { firstIssue, PERMISSION_KEYS, TOP_LEVEL_KEYS, topLevelSchema } from './config-schema.js';
import { type Environment, substituteEnvironment } from './env-substitution.js';
import { buildGatewaySettings, buildProfiles } from './gateway-settings.js';
import { findJsonSyntaxProblem } from './json-syntax-error.js';
import { describeValue, formatKeyPath, valueAtPath } from './key-path.js';
import { buildServerConfig } from './server-entry.js';
import type { HostConfig, ServerConfig } from './types.js';

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
 * Parses strict JSON config text and validates it. `file` is used in messages and as the base for relative paths.
 * Throws `ConfigError`.
 */
export function parseConfig(
  text: string,
  file: string | undefined,
  env: Environment = process.env,
  options: { cwd?: string } = {},
): HostConfig {
  const absoluteFile = file === undefined ? undefined : path.resolve(options.cwd ?? process.cwd(), file);
  const value = parseStrictJson(text, absoluteFile);
  return validateConfig(value, { ...options, env, ...(absoluteFile === undefined ? {} : { file: absoluteFile }) });
}

/** Validates an already-parsed config object (e.g. one passed to the library in code). Throws `ConfigError`. */
export function validateConfig(value: unknown, options: ValidateConfigOptions = {}): HostConfig {
  const cwd = options.cwd ?? process.cwd();
  const file = options.file === undefined ? undefined : path.resolve(cwd, options.file);
  const baseDirectory = file === undefined ? path.resolve(cwd) : path.dirname(file);
  const env = options.env ?? process.env;
  const invalid = (keyPath: string, expected: string, found?: string): ConfigError =>
    new ConfigError({ code: 'config-invalid', file, keyPath, expected, ...(found === undefined ? {} : { found }) });

  const parsed = topLevelSchema.safeParse(value);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    const segments = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
    throw invalid(formatKeyPath(segments), issue.expected, describeValue(valueAtPath(value, issue.path)));
  }
  const top = parsed.data;
  const raw = value as Record<string, unknown>;

  const warnings: string[] = [];
  const warnUnknownKeys = (object: object, known: ReadonlySet<string>, parent: string[], why: string): void => {
    for (const key of Object.keys(object)) {
      if (!known.has(key)) warnings.push(`${describeConfigFile(file)}: ${formatKeyPath([...parent, key])}: ${why}`);
    }
  };
  warnUnknownKeys(raw, TOP_LEVEL_KEYS, [], 'not a setting mcp-host uses; ignored');
  if (top.permissions !== undefined) {
    warnUnknownKeys(
      raw.permissions as object,
      PERMISSION_KEYS,
      ['permissions'],
      'not a permission list (allow, ask, deny); ignored',
    );
  }

  if (top.mcpServers !== undefined && top.servers !== undefined) {
    throw invalid('servers', 'server entries under only one of `mcpServers` or `servers`', 'both');
  }
  const section = top.servers !== undefined ? 'servers' : 'mcpServers';
  const entries = top.servers ?? top.mcpServers ?? {};

  const secrets = new Set<string>();
  const servers: ServerConfig[] = Object.entries(entries).map(([name, entry]) =>
    buildServerConfig(section, name, entry, { file, baseDirectory, env, secrets, warnings }),
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
    'maxParallelCalls',
    'maxTotalTimeoutMs',
    'maxResultTokens',
    'maxTurnResultTokens',
    'maxInstructionTokens',
  ] as const) {
    if (top[key] !== undefined) config[key] = top[key];
  }
  if (top.instructions !== undefined) config.instructions = top.instructions;
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
      substituteEnvironment(top.auditFile, 'auditFile', { env, file, secrets }),
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
    const model = substituteEnvironment(top.model, 'model', { env, file, secrets });
    config.model = resolveModelPath(model, baseDirectory);
  }
  config.secrets = [...secrets].sort((left, right) => right.length - left.length || (left < right ? -1 : 1));
  return config;
}

const SCRIPTED_PREFIX = 'scripted:';

/** A `scripted:PATH` model reads a script file, which belongs beside the config that names it. */
function resolveModelPath(model: string, baseDirectory: string): string {
  if (!model.startsWith(SCRIPTED_PREFIX)) return model;
  const scriptPath = model.slice(SCRIPTED_PREFIX.length);
  if (scriptPath === '') return model;
  return `${SCRIPTED_PREFIX}${path.resolve(baseDirectory, scriptPath)}`;
}

/** `JSON.parse` with a `ConfigError` that gives line, column and the likely cause. A UTF-8 byte order mark is skipped. */
export function parseStrictJson(text: string, file: string | undefined): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') {
    throw new ConfigError({
      code: 'config-invalid-json',
      file,
      keyPath: '',
      expected: 'a JSON object with an `mcpServers` key',
      found: 'an empty file',
    });
  }
  try {
    return JSON.parse(body);
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
}
