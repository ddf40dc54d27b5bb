/**
 * `tools call --json`: the outcome and the server's raw result as indented JSON, secrets redacted. A text too long to
 * hold in memory is written whole in its place, read back from its stored copy and escaped a piece at a time, so the
 * output is the same bytes as if the text had been held.
 */
import { randomUUID } from 'node:crypto';
import { redactText, redactValues } from '../audit/redact.js';
import { escapeJsonControlCodes } from '../text/strip-control-codes.js';
import { writeCleaned, writeError, writeJson } from './output.js';
import { openWholeText, type WholeTextOf, wholeTextRuns } from './whole-text-runs.js';

interface PrintCallJsonOptions {
  secrets: readonly string[];
  wholeTextOf?: WholeTextOf;
  /** Stops printing a whole text (Ctrl-C). */
  signal?: AbortSignal;
}

/** Prints `value` (`result` its raw result). Resolves to false when a long text could be printed only by its ends. */
export async function printCallJson(
  value: { outcome: string; isError: boolean | undefined; result: unknown },
  options: PrintCallJsonOptions,
): Promise<boolean> {
  const redacted = { ...value, result: redactValues(value.result, { secrets: options.secrets }) };
  const content = (redacted.result as { content?: unknown } | undefined)?.content;
  const rawContent = (value.result as { content?: unknown } | undefined)?.content;
  // Each text printed whole is a unique marker in the JSON, replaced by the text as it is read.
  const wholeTexts = new Map<string, AsyncIterable<string>>();
  let whole = true;
  if (options.wholeTextOf !== undefined && Array.isArray(content) && Array.isArray(rawContent)) {
    for (const [index, part] of rawContent.entries()) {
      const text = (part as { type?: unknown; text?: unknown } | null)?.text;
      const pieces = typeof text === 'string' ? options.wholeTextOf(text) : undefined;
      const copy = content[index] as { text?: unknown } | undefined;
      if (pieces === undefined || typeof copy?.text !== 'string') continue;
      const opened = await openWholeText(pieces);
      if ('unreadable' in opened) {
        whole = false;
        writeError(`mcp-host: the whole text cannot be printed, only its two ends: ${opened.unreadable}`);
        continue;
      }
      const marker = `mcp-host-whole-text-${randomUUID()}`;
      copy.text = marker;
      wholeTexts.set(marker, opened.pieces);
    }
  }
  if (wholeTexts.size === 0) {
    writeJson(redacted);
    return whole;
  }
  const json = `${escapeJsonControlCodes(JSON.stringify(redacted, null, 2))}\n`;
  let from = 0;
  for (const [marker, pieces] of wholeTexts) {
    const at = json.indexOf(`"${marker}"`, from);
    await writeCleaned('stdout', json.slice(from, at + 1));
    for await (const run of wholeTextRuns(pieces, options.secrets)) {
      if (options.signal?.aborted) return whole;
      // Runs never split a surrogate pair, so each escapes as it would inside the whole string.
      const escaped = escapeJsonControlCodes(JSON.stringify(redactText(run, options.secrets)).slice(1, -1));
      if (!(await writeCleaned('stdout', escaped))) return whole;
    }
    from = at + 1 + marker.length;
  }
  await writeCleaned('stdout', json.slice(from));
  return whole;
}
