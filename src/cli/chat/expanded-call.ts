/**
 * One tool call in full, for `/expand`: its arguments as indented JSON with secrets redacted (the same redaction as
 * the compact line), and its result as the model received it — text parts as written, images by type and size.
 * The arguments show every invisible character as its escape, as the approval view does; the result is stripped of
 * control codes. Both are bounded, so a huge result cannot flood the terminal.
 */
import { redactArguments, redactArgumentText } from '../../audit/redact.js';
import { MAX_SHOWN_ARGUMENTS } from '../../policy/approval-view.js';
import { showInvisibleCharacters } from '../../text/invisible-characters.js';
import { escapeJsonControlCodes, stripControlCodes } from '../../text/strip-control-codes.js';
import type { ChatStyles } from './chat-output.js';
import type { LoggedToolCall } from './tool-call-log.js';

/** Characters of the result shown (all parts together). */
export const MAX_EXPANDED_RESULT = 16_000;

/** `text` cut at `max` characters, saying how many of the `total` were left out. */
function bounded(text: string, max: number, total = text.length): string {
  if (total <= max) return text;
  return `${text.slice(0, max)}\n… (${total - max} more characters not shown)`;
}

function argumentsText(call: LoggedToolCall, secrets: readonly string[]): string {
  const { view } = call;
  const text =
    view.arguments !== undefined
      ? escapeJsonControlCodes(JSON.stringify(redactArguments(view.arguments, { secrets }), null, 2))
      : redactArgumentText(view.argumentsText ?? '', secrets);
  // What the call sent, every invisible character shown, as the approval view shows arguments.
  return bounded(showInvisibleCharacters(text), MAX_SHOWN_ARGUMENTS);
}

function resultText(call: LoggedToolCall, secrets: readonly string[]): string {
  const parts = call.result.content.map((part) =>
    part.type === 'text'
      ? part.text
      : `[${part.type} ${part.mimeType}, ${Math.floor((part.data.length * 3) / 4)} bytes]`,
  );
  if (parts.length === 0) return '(no content)';
  const text = stripControlCodes(parts.join('\n'));
  // Redacting takes longer the longer the text: only what can be shown is redacted, with room for a secret that
  // starts before the bound and ends after it.
  const room = MAX_EXPANDED_RESULT + Math.max(0, ...secrets.map((secret) => secret.length));
  return bounded(redactArgumentText(text.slice(0, room), secrets), MAX_EXPANDED_RESULT, text.length);
}

/** The lines `/expand` prints for `call` (already stripped of control codes; styled by the chat only). */
export function formatExpandedCall(
  call: LoggedToolCall,
  secrets: readonly string[],
  styles: ChatStyles,
  /** Whether the call was made before the conversation was resumed. */
  before: boolean,
  /** Whether a compaction summarised the call: the model has only the summary of it now. */
  summarised = false,
): string[] {
  const where = call.view.server === undefined ? call.view.tool : `${call.view.server} ${call.view.tool}`;
  // A call known from the transcript only has what it saved: no duration, no outcome.
  const how =
    call.outcome === undefined
      ? styles.dim(before ? '· from before the resume (as saved)' : '· not finished (as saved)')
      : `${styles.dim(`· ${call.durationMs} ms ·`)} ${call.outcome === 'ok' ? styles.good('ok') : styles.bad(call.outcome)}`;
  return [
    `${styles.bold(`[${call.number}] ${showInvisibleCharacters(where)}`)} ${how}${call.result.isError ? styles.dim(' (marked as an error)') : ''}${summarised ? styles.dim(' · summarised by a compaction: the model has only the summary') : ''}`,
    styles.dim('arguments:'),
    ...argumentsText(call, secrets).split('\n'),
    styles.dim('result, as the model received it:'),
    ...resultText(call, secrets).split('\n'),
  ];
}
