/**
 * The user's own folder of host settings that hold for every project: the user-level instructions (`AGENTS.md`) and
 * the user's skills (`skills/`). It is configuration, not state, so it follows the XDG convention for config and
 * can be moved per environment (`MCP_HOST_CONFIG_DIR`), e.g. for tests and CI.
 */

import os from 'node:os';
import path from 'node:path';

/** Overrides the default user config folder. */
const CONFIG_DIR_ENV_VARIABLE = 'MCP_HOST_CONFIG_DIR';
/** The folder name under `$XDG_CONFIG_HOME` or `~/.config`. */
const CONFIG_DIR_NAME = 'mcp-host';

/**
 * The user config folder, absolute, without creating it: `MCP_HOST_CONFIG_DIR` > `$XDG_CONFIG_HOME/mcp-host` >
 * `~/.config/mcp-host`. Empty values count as unset; a relative `XDG_CONFIG_HOME` is ignored, as XDG requires.
 */
export function resolveUserConfigDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd = process.cwd(),
  homeDirectory = os.homedir(),
): string {
  const fromEnvironment = env[CONFIG_DIR_ENV_VARIABLE];
  if (fromEnvironment !== undefined && fromEnvironment !== '') return path.resolve(cwd, fromEnvironment);
  const xdgConfigHome = env.XDG_CONFIG_HOME;
  if (xdgConfigHome !== undefined && path.isAbsolute(xdgConfigHome)) return path.join(xdgConfigHome, CONFIG_DIR_NAME);
  const home = env.HOME !== undefined && path.isAbsolute(env.HOME) ? env.HOME : homeDirectory;
  return path.join(home, '.config', CONFIG_DIR_NAME);
}
