/** Exit codes are part of the interface: scripts rely on them. */
export const EXIT_OK = 0;
/** The command failed: a provider error, the turn bound, a failed tool call from `tools call`, an unreadable log … */
export const EXIT_RUN_FAILED = 1;
/** Usage or config error: fix the command line or the config file. */
export const EXIT_USAGE = 2;

/** An error the CLI reports as one line and an exit code, without a stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
