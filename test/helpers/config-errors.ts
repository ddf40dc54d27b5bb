/** The ConfigError a config step raises, for tests that assert on its fields (code, key path, line, message). */
import { ConfigError } from '../../src/config/config-error.js';

/** The ConfigError `run` throws; any other error is rethrown, and throwing nothing fails the test. */
export function thrownConfigError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

/** The ConfigError `run` rejects with; any other error is rethrown, and resolving fails the test. */
export async function rejectedConfigError(run: () => Promise<unknown>): Promise<ConfigError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}
