/**
 * A config file's text, read with a bound: a config is a few kilobytes, and a path naming a device or a huge file
 * (`--config /dev/zero`) must end in an error that says so, not in reading until memory runs out. A pipe named on the
 * command line (`--config <(…)`) is read as it comes.
 */

import { BoundedReadError, readBoundedFile } from '../json/read-bounded-file.js';
import { ConfigError } from './config-error.js';

/** Far beyond any config (an editor's settings file included), far below what would strain memory. */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** The file's text, or undefined when it does not exist; other failures, a size past the bound included, are a `ConfigError`. */
export async function readConfigText(file: string): Promise<string | undefined> {
  try {
    return readBoundedFile(file, MAX_CONFIG_BYTES);
  } catch (error) {
    if (!(error instanceof BoundedReadError)) throw error;
    if (error.failure.reason === 'missing') return undefined;
    const tooLarge = error.failure.reason === 'too-large';
    throw new ConfigError({
      code: 'config-unreadable',
      file,
      keyPath: '',
      expected: tooLarge ? `a config file of at most ${MAX_CONFIG_BYTES / 1024 / 1024} MiB` : 'a readable file',
      found: error.describe(MAX_CONFIG_BYTES),
    });
  }
}
