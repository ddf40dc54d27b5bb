/** What a command says when no config file was given and none is in the working folder: that, and where it looked. */
import { CONFIG_FILE_NAMES } from '../config/load-config.js';

export function noConfigFound(cwd: string): string {
  return `no config file found (looked for ${CONFIG_FILE_NAMES.join(' and ')} in ${cwd})`;
}
