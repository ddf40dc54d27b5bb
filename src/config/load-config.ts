/**
 * Finds and reads the config file. Without an explicit path the host looks for `mcp-host.json`, then `.mcp.json`
 * (the file Claude Code writes in a project), in the working folder. Finding neither is not an error here: the
 * caller decides whether a host without servers is useful. A file found this way may come with a cloned
 * repository, so it is used only once the user approved its content (see config-approvals.ts).
 */

import path from 'node:path';
import { configApprovalState } from './config-approvals.js';
import { ConfigError } from './config-error.js';
import type { Environment } from './env-substitution.js';
import { createEmptyConfig, parseConfig } from './parse-config.js';
import { readConfigText } from './read-config-text.js';
import { resolveStateDir } from './state-dir.js';
import type { HostConfig } from './types.js';

/** Looked for in this order in the working folder. */
export const CONFIG_FILE_NAMES = ['mcp-host.json', '.mcp.json'] as const;

interface LoadConfigOptions {
  /** An explicit config file; relative to `cwd`. It must exist. */
  configPath?: string;
  /** Where to look for a config file and what a relative `configPath` is relative to. Default `process.cwd()`. */
  cwd?: string;
  /** Variables for `${env:VAR}` substitution. Default `process.env`. */
  env?: Environment;
  /** The state folder holding the approved configs (`--state-dir`); default as `resolveStateDir`. */
  stateDir?: string;
  /**
   * Default true: a config found by discovery is used only once the user approved its content
   * (`mcp-host trust config`); until then an empty config with `awaitingApproval` set is returned.
   */
  requireApproval?: boolean;
}

/**
 * The file a `--config` path names, as an absolute path (sessions record it so), and its text. Throws `ConfigError`
 * when it does not exist or cannot be read.
 */
export async function readNamedConfigText(configPath: string, cwd: string): Promise<{ file: string; text: string }> {
  const file = path.resolve(cwd, configPath);
  const text = await readConfigText(file);
  if (text === undefined) {
    throw new ConfigError({
      code: 'config-not-found',
      file,
      keyPath: '',
      expected: 'a config file at this path',
      found: 'no such file',
      hint: `Check the path, or leave it out to use ${CONFIG_FILE_NAMES.join(' or ')} in the working folder.`,
    });
  }
  return { file, text };
}

/**
 * Throws `ConfigError`. Returns an empty config with `file` undefined when no path was given and no file was found,
 * and an empty config with `file` and `awaitingApproval` when the file found is not approved (see `requireApproval`).
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<HostConfig> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;

  if (options.configPath !== undefined) {
    const { file, text } = await readNamedConfigText(options.configPath, cwd);
    return parseConfig(text, file, env, { cwd });
  }

  for (const name of CONFIG_FILE_NAMES) {
    const file = path.join(cwd, name);
    const text = await readConfigText(file);
    if (text === undefined) continue;
    return approvedConfig(file, text, options, env, cwd);
  }
  return createEmptyConfig();
}

/**
 * The config file a saved session names (absolute), held to the approvals of a config found by discovery: the user
 * did not name it on this command line. Undefined when the file is no longer there.
 */
export async function loadRecordedConfig(
  file: string,
  options: Pick<LoadConfigOptions, 'env' | 'stateDir'> = {},
): Promise<HostConfig | undefined> {
  const text = await readConfigText(file);
  if (text === undefined) return undefined;
  const config = approvedConfig(file, text, options, options.env ?? process.env, process.cwd());
  return config.awaitingApproval === undefined ? config : { ...config, recordedBySession: true };
}

/** `file` parsed once the user approved its content (see `requireApproval`); until then empty, awaiting approval. */
function approvedConfig(
  file: string,
  text: string,
  options: LoadConfigOptions,
  env: Environment,
  cwd: string,
): HostConfig {
  if (options.requireApproval !== false) {
    const stateDir = resolveStateDir({
      ...(options.stateDir === undefined ? {} : { flag: options.stateDir }),
      env,
      cwd,
    });
    const state = configApprovalState(stateDir, file, text);
    // Not even parsed: its env files, servers, rules and trust marks are all the file's say.
    if (state !== 'approved') return { ...createEmptyConfig(), file, awaitingApproval: state };
  }
  return parseConfig(text, file, env, { cwd });
}
