/** Exit codes are part of the interface: scripts rely on them. */
export const EXIT_OK = 0;
/** The command failed: a provider error, the turn bound, a failed tool call from `tools call`, an unreadable log … */
export const EXIT_RUN_FAILED = 1;
/** Usage or config error: fix the command line or the config file. */
export const EXIT_USAGE = 2;
/** Ended by a signal, as shells report it: 128 + the signal's number. */
export const EXIT_SIGHUP = 129;
export const EXIT_SIGINT = 130;
export const EXIT_SIGTERM = 143;

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
