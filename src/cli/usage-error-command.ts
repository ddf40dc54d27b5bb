/** A commander command whose usage errors exit with the code mcp-host promises for them. */
import { Command, type ErrorOptions as CommanderErrorOptions } from 'commander';
import { EXIT_USAGE } from './exit-codes.js';

/** Commander reports usage errors with exit code 1; mcp-host promises 2 for them. Runtime failures pass 1 explicitly. */
export class UsageErrorCommand extends Command {
  override createCommand(name?: string): Command {
    return new UsageErrorCommand(name);
  }

  override error(message: string, errorOptions?: CommanderErrorOptions): never {
    return super.error(message, { ...errorOptions, exitCode: errorOptions?.exitCode ?? EXIT_USAGE });
  }
}
