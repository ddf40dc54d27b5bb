/**
 * One compact line per tool call: server, tool, arguments (secrets redacted, cut short), duration and outcome with
 * the first words of the result. What the model or server sent is shown as text only. The names and the arguments
 * are what the call was, shown with every invisible or direction character as its escape (`\u200b`, `\u202e`), as
 * the approval view shows them; the result is prose (see strip-control-codes.ts).
 */
import { redactArguments, redactArgumentText } from '../../audit/redact.js';
import type { ServerExit } from '../../connections/server-exit.js';
import type { CallOutcome } from '../../loop/events.js';
import type { ToolResult } from '../../providers/types.js';
import { cutLine } from '../../text/cut-line.js';
import { showInvisibleCharacters } from '../../text/invisible-characters.js';
import type { ChatStyles } from './chat-output.js';

export interface ToolCallView {
  server?: string;
  tool: string;
  /** Parsed arguments when the call reached a server; the model's raw text otherwise. */
  arguments?: Record<string, unknown>;
  argumentsText?: string;
}

const MAX_ARGUMENTS = 80;
const MAX_RESULT = 60;
const MIN_RESULT = 12;

function describeArguments(view: ToolCallView, secrets: readonly string[]): string {
  if (view.arguments !== undefined)
    return cutLine(
      JSON.stringify(redactArguments(view.arguments, { secrets })),
      MAX_ARGUMENTS,
      showInvisibleCharacters,
    );
  return cutLine(redactArgumentText(view.argumentsText ?? '', secrets), MAX_ARGUMENTS, showInvisibleCharacters);
}

/** `⚙ calculator add_numbers {"a":5,"b":7} · 4 ms · ok → 12`, within `width` columns when it can be. */
export function formatToolCallLine(
  view: ToolCallView,
  end: { outcome: CallOutcome; durationMs: number; result: ToolResult; serverExit?: ServerExit },
  secrets: readonly string[],
  styles: ChatStyles,
  width = 120,
): string {
  const where = cutLine(
    view.server === undefined ? view.tool : `${view.server} ${view.tool}`,
    60,
    showInvisibleCharacters,
  );
  const args = describeArguments(view, secrets);
  const timing = `· ${end.durationMs} ms ·`;
  const used = `⚙ ${where} ${args} ${timing} ${end.outcome} → `.length;
  // How the server went away was reported above the line as it happened; the line does not begin it again.
  const text =
    end.serverExit === undefined
      ? end.result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ')
      : '';
  const room = Math.max(MIN_RESULT, Math.min(MAX_RESULT, width - 1 - used));
  const summary = text === '' ? '' : ` → ${cutLine(redactArgumentText(text, secrets), room)}`;
  const outcome = end.outcome === 'ok' ? styles.good('ok') : styles.bad(end.outcome);
  return `${styles.dim('⚙')} ${styles.bold(where)} ${styles.dim(args)} ${styles.dim(timing)} ${outcome}${styles.dim(summary)}`;
}
