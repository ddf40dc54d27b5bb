/**
 * The client features as a command line uses them: on a terminal, the person there answers servers' sampling
 * and elicitation requests and sees progress; without one, requests are declined (sampling only allowed with
 * `--allow-sampling`). With `--verbose`, servers' log messages are shown as they arrive. Everything is written to
 * the given output (stderr), never to stdout, where a script reads the answer.
 */

import type { ToolProgressUpdate } from '../loop/tool-call-types.js';
import { createLinePrompter, type LinePrompter } from '../policy/line-prompter.js';
import { stripControlCodes } from '../text/strip-control-codes.js';
import type { ClientRequestApprover } from './client-request-approver.js';
import { TERMINAL_HOSTNAME_MARK } from './client-request-views.js';
import { createHeadlessClientRequestApprover } from './headless-client-request-approver.js';
import { formatServerLogLine, type ServerLogEntry } from './server-log.js';
import { createTerminalClientRequestApprover } from './terminal-client-request-approver.js';

export interface TerminalClientFeaturesOptions {
  /** Someone can answer: input and output are terminals. */
  interactive: boolean;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  allowSampling?: boolean;
  verbose?: boolean;
  /** Prefix of every line written (e.g. `mcp-host: `). */
  prefix?: string;
}

export interface TerminalClientFeatures {
  clientRequestApprover?: ClientRequestApprover;
  allowSampling: boolean;
  onServerLog?: (entry: ServerLogEntry) => void;
  onProgress?: (update: ToolProgressUpdate) => void;
  /** The one reader of the terminal, to share with the tool-call approver (undefined when not interactive). */
  prompter?: LinePrompter;
  /** Stops reading the terminal. */
  close(): void;
}

/** `tool 3/5 (60%) message` — one line per update. */
export function formatProgress(update: ToolProgressUpdate): string {
  const total = update.total !== undefined && update.total > 0 ? update.total : undefined;
  const amount =
    total !== undefined
      ? `${update.progress}/${total} (${Math.round((update.progress / total) * 100)}%)`
      : `${update.progress}`;
  return `${update.tool}: ${amount}${update.message ? ` ${update.message}` : ''}`;
}

export function createTerminalClientFeatures(options: TerminalClientFeaturesOptions): TerminalClientFeatures {
  const prefix = options.prefix ?? '';
  const writeLine = (text: string): void => {
    // Progress messages are the server's words: printed as text, never as terminal commands.
    options.output.write(`${prefix}${stripControlCodes(text)}\n`);
  };
  let prompter: LinePrompter | undefined;
  if (options.interactive) prompter = createLinePrompter({ input: options.input, output: options.output });
  return {
    ...(prompter ? { prompter } : {}),
    ...(prompter
      ? {
          clientRequestApprover: createTerminalClientRequestApprover({
            prompter,
            hostnameMark: TERMINAL_HOSTNAME_MARK,
          }),
        }
      : {
          // No one to ask: declined, and said, so a call that went wrong for want of an answer is explained.
          clientRequestApprover: createHeadlessClientRequestApprover({
            allowSampling: options.allowSampling === true,
            onDecline: (what) => writeLine(what),
          }),
        }),
    allowSampling: options.allowSampling === true,
    ...(options.verbose
      ? { onServerLog: (entry: ServerLogEntry) => writeLine(`[${entry.server}] ${formatServerLogLine(entry)}`) }
      : {}),
    ...(options.interactive ? { onProgress: (update: ToolProgressUpdate) => writeLine(formatProgress(update)) } : {}),
    close() {
      prompter?.close();
    },
  };
}
