/**
 * How the CLI reports an error that reached the top: one `mcp-host:` line and an exit code. Errors the user can fix
 * (usage, config, model choice, a damaged trust store, state others could change) exit 2; anything else exits 1. A stack trace is for
 * developers: only with MCP_HOST_DEBUG=1.
 */
import { CommanderError } from 'commander';
import { exitCodeOfCommanderError } from './command-conventions.js';
import { writeConfigWarnings } from './config-warnings.js';
import { CliError, EXIT_RUN_FAILED, EXIT_USAGE } from './exit-codes.js';
import { listenErrorMessage } from './listen-error-message.js';
import { writeError } from './output.js';

/** Errors whose message already says what was wrong and how to fix it. */
const USER_FIXABLE_ERRORS = new Set([
  'ConfigError',
  'ModelChoiceError',
  'TrustStoreError',
  'PromptChoiceError',
  'UnknownSessionError',
  'SessionInUseError',
  'LockFileError',
  'UnsafePathError',
  'StateDirError',
]);

function debugEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.MCP_HOST_DEBUG;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Prints what the user needs about `error` and returns the exit code. */
export function reportError(error: unknown): number {
  // Commander already printed its one line (see command-conventions.ts).
  if (error instanceof CommanderError) return exitCodeOfCommanderError(error);
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : '';
  let exitCode: number;
  const listenFailure = listenErrorMessage(error);
  if (listenFailure !== undefined) {
    writeError(`mcp-host: ${listenFailure}`);
    exitCode = EXIT_RUN_FAILED;
  } else if (error instanceof CliError) {
    writeError(`mcp-host: ${message}`);
    exitCode = error.exitCode;
  } else if (USER_FIXABLE_ERRORS.has(name)) {
    // A config's warnings read before its error (a misspelt key) often explain it. Told by the error's name, as the
    // set above is: importing the config's error class would load the config layer for every command, --help too.
    if (name === 'ConfigError') writeConfigWarnings(error as { warnings?: readonly string[] });
    writeError(`mcp-host: ${message}`);
    exitCode = EXIT_USAGE;
  } else {
    writeError(`mcp-host: ${message}${debugEnabled() ? '' : ' (set MCP_HOST_DEBUG=1 to see where it happened)'}`);
    exitCode = EXIT_RUN_FAILED;
  }
  if (debugEnabled() && error instanceof Error && error.stack) writeError(error.stack);
  return exitCode;
}
