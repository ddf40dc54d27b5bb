/**
 * The command line and working folder of a local server, as every message about its start prints them: each word
 * quoted so that it pastes back into a shell, the config's secrets redacted, what a terminal would act on escaped,
 * and each cut to a length a person can read, since a config can give either at any length.
 */
import type { StdioServerConfig } from '../config/types.js';
import { quoteCommandLine } from '../json/quote-shell-word.js';
import { cutLine } from '../text/cut-line.js';

/** Room for a long path and its arguments; with the folder, well within an error line. */
const MAX_SHOWN_COMMAND_LINE = 400;
const MAX_SHOWN_FOLDER = 400;

/** `command: WORDS (in FOLDER)`, every secret value replaced by `[redacted]`. */
export function describeStartCommand(config: StdioServerConfig, secrets: readonly string[] = []): string {
  // Cut after quoting and redacting: a cut first could leave part of a secret that the redaction no longer finds.
  const commandLine = bounded(quoteCommandLine([config.command, ...config.args], secrets), MAX_SHOWN_COMMAND_LINE);
  // The folder can be written with `${env:…}` as the command can: its secrets are redacted the same way.
  const folder = bounded(quoteCommandLine([config.cwd], secrets), MAX_SHOWN_FOLDER);
  return `command: ${commandLine} (in ${folder})`;
}

function bounded(text: string, max: number): string {
  return text.length > max ? cutLine(text, max) : text;
}
