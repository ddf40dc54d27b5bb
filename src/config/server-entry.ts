/**
 * Turns one raw server entry (`mcpServers.NAME`) into a `ServerConfig`: shape check, transport inference from `type`
 * or from `command`/`url`, environment substitution, paths made absolute, host defaults applied.
 */

import path from 'node:path';
import { setOwnProperty } from '../json/own-property.js';
import { closeNames } from '../text/close-names.js';
import { SECRET_KEY_PATTERN } from '../text/redact-secrets.js';
import { ConfigError, describeConfigFile } from './config-error.js';
import {
  firstIssue,
  REMOTE_ONLY_KEYS,
  SERVER_ENTRY_KEYS,
  type ServerEntry,
  STDIO_ONLY_KEYS,
  serverEntrySchema,
  TRANSPORT_TYPES,
} from './config-schema.js';
import { readEnvFile } from './env-file.js';
import { type Environment, type SubstitutionContext, substituteEnvironment } from './env-substitution.js';
import { describeValue, formatKeyPath, isPlainObject, type KeyPathSegment, quoteKey, valueAtPath } from './key-path.js';
import { buildOAuthSettings } from './oauth-settings.js';
import { isReservedServerName, RESERVED_SERVER_NAME_EXPECTED } from './reserved-names.js';
import { DEFAULT_TOOL_TIMEOUT_MS, DEFAULT_VERSION_NEGOTIATION, type ServerConfig } from './types.js';
import { unknownKeyNote } from './unknown-key.js';

interface ServerEntryContext {
  file: string | undefined;
  /** Folder that relative paths resolve against. */
  baseDirectory: string;
  /** What `${workspaceFolder}` stands for. */
  workspaceFolder: string;
  env: Environment;
  secrets: Set<string>;
  warnings: string[];
}

/** `section` is where the server map is (`mcpServers`, `servers` or `mcp.servers`), for key paths. */
export function buildServerConfig(
  section: ReadonlyArray<KeyPathSegment>,
  name: string,
  raw: unknown,
  context: ServerEntryContext,
): ServerConfig {
  const basePath: KeyPathSegment[] = [...section, name];
  const invalid = (segments: ReadonlyArray<KeyPathSegment>, expected: string, found?: string): ConfigError =>
    new ConfigError({
      code: 'config-invalid',
      file: context.file,
      keyPath: formatKeyPath([...basePath, ...segments]),
      expected,
      ...(found === undefined ? {} : { found }),
    });

  if (name === '') throw invalid([], 'a non-empty server name');
  if (isReservedServerName(name)) {
    throw new ConfigError({
      code: 'config-invalid',
      file: context.file,
      keyPath: formatKeyPath(basePath),
      expected: RESERVED_SERVER_NAME_EXPECTED,
      found: JSON.stringify(name),
      hint: 'Rename the server.',
    });
  }
  if (!isPlainObject(raw)) {
    throw invalid(
      [],
      'a server entry object with `command` (a local process) or `url` (a remote server)',
      describeValue(raw),
    );
  }
  const entryObject = raw;
  const parsed = serverEntrySchema.safeParse(entryObject);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    const segments = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
    throw invalid(segments, issue.expected, describeValue(valueAtPath(entryObject, issue.path)));
  }
  const entry: ServerEntry = parsed.data;

  const warn = (key: string, why: string): void => {
    context.warnings.push(`${describeConfigFile(context.file)}: ${formatKeyPath([...basePath, key])}: ${why}`);
  };
  for (const key of Object.keys(entryObject)) {
    if (!SERVER_ENTRY_KEYS.has(key))
      warn(key, unknownKeyNote(key, SERVER_ENTRY_KEYS, 'not a setting mcp-host uses; ignored'));
  }

  if (entry.command !== undefined && entry.url !== undefined) {
    throw invalid([], 'either `command` (a local process) or `url` (a remote server), not both');
  }
  const transport =
    entry.type !== undefined ? TRANSPORT_TYPES[entry.type] : entry.command !== undefined ? 'stdio' : 'http';
  if (entry.command === undefined && entry.url === undefined) {
    throw new ConfigError({
      code: 'config-invalid',
      file: context.file,
      keyPath: formatKeyPath(basePath),
      expected: '`command` (a local process) or `url` (a remote server)',
      found: 'neither',
      ...misspeltStartKeyHint(entryObject),
    });
  }
  if (transport === 'stdio' && entry.command === undefined) {
    throw invalid(['command'], `a command to run, since \`type\` is "${entry.type}"`, 'nothing');
  }
  if (transport !== 'stdio' && entry.url === undefined) {
    throw invalid(['url'], `the server's URL, since \`type\` is "${entry.type}"`, 'nothing');
  }

  const disabled = entry.disabled ?? false;
  const substitution: SubstitutionContext = {
    env: context.env,
    file: context.file,
    secrets: context.secrets,
    lenient: disabled,
    workspaceFolder: context.workspaceFolder,
  };
  // An unset variable makes only this server unavailable (the first one is named); the rest of the config stands.
  let unavailable: string | undefined;
  const substitute = (text: string, ...segments: KeyPathSegment[]): string => {
    const keyPath = formatKeyPath([...basePath, ...segments]);
    try {
      return substituteEnvironment(text, keyPath, substitution);
    } catch (error) {
      if (!(error instanceof ConfigError) || error.code !== 'config-missing-variable') throw error;
      unavailable ??= error.message;
      return substituteEnvironment(text, keyPath, { ...substitution, lenient: true });
    }
  };
  const availability = (): { unavailable?: string } => (unavailable === undefined ? {} : { unavailable });

  const common = {
    name,
    trust: entry.trust ?? 'untrusted',
    timeoutMs: entry.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    ...(entry.startupTimeoutMs === undefined ? {} : { startupTimeoutMs: entry.startupTimeoutMs }),
    ...(entry.allowInstructions === undefined ? {} : { allowInstructions: entry.allowInstructions }),
    disabled,
    ...(entry.stateful === undefined ? {} : { stateful: entry.stateful }),
    versionNegotiation: entry.versionNegotiation ?? DEFAULT_VERSION_NEGOTIATION,
    ...(entry.maxTotalTimeoutMs === undefined ? {} : { maxTotalTimeoutMs: entry.maxTotalTimeoutMs }),
    ...(entry.maxResultTokens === undefined ? {} : { maxResultTokens: entry.maxResultTokens }),
    ...(entry.maxMessageBytes === undefined ? {} : { maxMessageBytes: entry.maxMessageBytes }),
    ...(entry.tools === undefined ? {} : { tools: entry.tools }),
  } as const;

  if (transport === 'stdio') {
    for (const key of REMOTE_ONLY_KEYS) if (key in entryObject) warn(key, 'only used by remote servers; ignored');
    const env: Record<string, string> = {};
    if (entry.envFile !== undefined && !disabled) {
      const envPath = path.resolve(context.baseDirectory, substitute(entry.envFile, 'envFile'));
      const keyPath = formatKeyPath([...basePath, 'envFile']);
      for (const [key, value] of Object.entries(readEnvFile(envPath, { file: context.file, keyPath }))) {
        // An env file holds credentials as often as not: its values are redacted like substituted ones.
        if (value !== '') context.secrets.add(value);
        setOwnProperty(env, key, value);
      }
    }
    for (const [key, value] of Object.entries(entry.env ?? {})) {
      const substituted = substitute(value, 'env', key);
      setOwnProperty(env, key, substituted);
      // `"API_KEY": "sk-…"` written literally is as secret as one taken from the environment.
      if (SECRET_KEY_PATTERN.test(key) && substituted !== '') context.secrets.add(substituted);
    }
    const cwd = entry.cwd === undefined ? context.baseDirectory : substitute(entry.cwd, 'cwd');
    const command = substitute(entry.command!, 'command');
    const args = (entry.args ?? []).map((argument, index) => substitute(argument, 'args', index));
    for (const secret of secretArgumentValues(args)) context.secrets.add(secret);
    return {
      ...common,
      transport,
      command,
      args,
      env,
      cwd: path.resolve(context.baseDirectory, cwd),
      ...availability(),
    };
  }

  for (const key of STDIO_ONLY_KEYS) if (key in entryObject) warn(key, 'only used by local (stdio) servers; ignored');
  const url = substitute(entry.url!, 'url');
  if (!disabled && unavailable === undefined && !isHttpUrl(url)) {
    throw invalid(['url'], 'an absolute http:// or https:// URL', describeValue(entry.url));
  }
  for (const secret of secretQueryValues(url)) context.secrets.add(secret);
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(entry.headers ?? {})) {
    const header = substitute(value, 'headers', key);
    // Header values carry credentials (Authorization, API keys) even when written literally in the file.
    if (header !== '') context.secrets.add(header);
    setOwnProperty(headers, key, header);
  }
  if (entryObject.oauth === undefined) return { ...common, transport, url, headers, ...availability() };
  const oauth = buildOAuthSettings(entryObject.oauth, {
    file: context.file,
    serverPath: basePath,
    baseDirectory: context.baseDirectory,
    substitute,
    secrets: context.secrets,
    warnings: context.warnings,
  });
  return { ...common, transport, url, headers, oauth, ...availability() };
}

/** Values given to secret-named flags: `--api-key VALUE`, `--token=VALUE`. */
function secretArgumentValues(args: readonly string[]): string[] {
  const values: string[] = [];
  args.forEach((argument, index) => {
    if (!argument.startsWith('-')) return;
    const equals = argument.indexOf('=');
    const flag = equals < 0 ? argument : argument.slice(0, equals);
    if (!SECRET_KEY_PATTERN.test(flag)) return;
    const value = equals < 0 ? args[index + 1] : argument.slice(equals + 1);
    if (value !== undefined && value !== '' && !(equals < 0 && value.startsWith('-'))) values.push(value);
  });
  return values;
}

/** Values of secret-named query parameters in a server's URL (`?api_key=…`). */
function secretQueryValues(url: string): string[] {
  try {
    return [...new URL(url).searchParams]
      .filter(([key, value]) => SECRET_KEY_PATTERN.test(key) && value !== '')
      .map(([, value]) => value);
  } catch {
    return [];
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * An entry with neither `command` nor `url` often has one of them misspelt (`comand`, `URL`): its warning would be
 * lost with the error, so the error names it.
 */
function misspeltStartKeyHint(entry: Record<string, unknown>): { hint?: string } {
  for (const key of Object.keys(entry)) {
    if (SERVER_ENTRY_KEYS.has(key)) continue;
    const [meant] = closeNames(key, ['command', 'url'], 1);
    if (meant !== undefined) return { hint: `${quoteKey(key)} is no key mcp-host reads: did you mean "${meant}"?` };
  }
  return {};
}
