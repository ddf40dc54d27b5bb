/**
 * Where the host keeps what it must remember between runs: the trust store (pinned tool definitions, approvals)
 * and the audit log. It is state, not configuration, so it follows the XDG base-directory convention for state and
 * can be moved per run (`--state-dir`) or per environment (`MCP_HOST_STATE_DIR`), e.g. for tests and CI.
 */

import { chmodSync, mkdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertPrivatePath, isNotThere } from '../json/private-path.js';

/** Overrides the default state folder; `--state-dir` wins over it. */
const STATE_DIR_ENV_VARIABLE = 'MCP_HOST_STATE_DIR';
/** The folder name under `$XDG_STATE_HOME` or `~/.local/state`. */
const STATE_DIR_NAME = 'mcp-host';
/** Owner only: the folder holds approvals and an audit log of everything the model did. */
const STATE_DIR_MODE = 0o700;

interface ResolveStateDirOptions {
  /** The `--state-dir` value, if given. Relative paths resolve against `cwd`. */
  flag?: string;
  /** Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default `os.homedir()`. */
  homeDirectory?: string;
  /** Default `process.cwd()`. */
  cwd?: string;
}

/**
 * The state folder, absolute, without creating it: `flag` > `MCP_HOST_STATE_DIR` > `$XDG_STATE_HOME/mcp-host` >
 * `~/.local/state/mcp-host`. Empty values count as unset; a relative `XDG_STATE_HOME` is ignored, as the XDG
 * specification requires.
 */
export function resolveStateDir(options: ResolveStateDirOptions = {}): string {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  if (options.flag !== undefined && options.flag !== '') return path.resolve(cwd, options.flag);
  const fromEnvironment = env[STATE_DIR_ENV_VARIABLE];
  if (fromEnvironment !== undefined && fromEnvironment !== '') return path.resolve(cwd, fromEnvironment);
  const xdgStateHome = env.XDG_STATE_HOME;
  if (xdgStateHome !== undefined && path.isAbsolute(xdgStateHome)) return path.join(xdgStateHome, STATE_DIR_NAME);
  return path.join(options.homeDirectory ?? os.homedir(), '.local', 'state', STATE_DIR_NAME);
}

/**
 * The state folder when one was chosen for this run (`--state-dir`), absolute; undefined when the default (or
 * `MCP_HOST_STATE_DIR`) applies. Commands the host prints name a chosen folder, so they act on the same one.
 */
export function chosenStateDir(flag: string | undefined, cwd: string = process.cwd()): string | undefined {
  return flag === undefined || flag === '' ? undefined : path.resolve(cwd, flag);
}

/** A state folder that cannot be used as one (a file in its place, or no way to create it): the user can fix it. */
export class StateDirError extends Error {
  override readonly name = 'StateDirError';
}

/**
 * Whether the state folder is there, for the commands that only read it (and `ensureStateDir`); a file or anything
 * else in its place is refused, naming it, where a reader would find nothing in it without a word.
 */
export function existingStateDir(directory: string): boolean {
  try {
    if (statSync(directory).isDirectory()) return true;
  } catch (error) {
    // Created by a command that writes it, where a file above it fails that as a folder that cannot be created.
    if (isNotThere(error)) return false;
    throw error;
  }
  throw new StateDirError(
    `state folder ${directory} exists but is not a folder; move it away or choose another with --state-dir or ${STATE_DIR_ENV_VARIABLE}.`,
  );
}

/**
 * Creates the folder (and missing parents) with mode 0700 and returns it. A folder that already exists must be
 * private: owned by the user, not writable by group or others, not a symbolic link. Throws an error naming the
 * folder and what to do when it cannot be created, is not a folder or is not private.
 */
export function ensureStateDir(directory: string): string {
  assertPrivatePath(directory, 'folder', 'state folder');
  if (existingStateDir(directory)) return directory;
  try {
    mkdirSync(directory, { recursive: true, mode: STATE_DIR_MODE });
    // The process umask may have removed bits from `mode`; it can only remove, so this is just in case it was odd.
    chmodSync(directory, STATE_DIR_MODE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new StateDirError(
      `could not create the state folder ${directory} (${code}); choose a writable folder with --state-dir or ${STATE_DIR_ENV_VARIABLE}.`,
    );
  }
  return directory;
}
