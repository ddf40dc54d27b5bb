/**
 * How `tools call` shows a result: the server's own text (not the compact JSON the model may be sent), images,
 * audio and blobs written to files with `--save DIR` (else one line saying what they are), `structuredContent`
 * only when the server gave no text. A failed call's text goes to stderr. A text too long to hold in memory is printed
 * whole, read back from its stored copy a piece at a time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { redactText } from '../audit/redact.js';
import { stripControlCodes } from '../text/strip-control-codes.js';
import { writeCleaned, writeError, writeLine, writeStderrText } from './output.js';
import { openWholeText, type WholeTextOf, wholeTextRuns } from './whole-text-runs.js';

interface RawPart {
  type?: unknown;
  text?: unknown;
  data?: unknown;
  mimeType?: unknown;
  uri?: unknown;
  name?: unknown;
  resource?: { uri?: unknown; text?: unknown; blob?: unknown; mimeType?: unknown };
}

interface PrintableResult {
  content?: unknown;
  structuredContent?: unknown;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'application/pdf': 'pdf',
  'application/json': 'json',
};

interface PrintCallResultOptions {
  /** `--save DIR`: where images, audio and blobs are written (created if missing). */
  saveDirectory?: string;
  /** The call failed: its text goes to stderr. */
  isError: boolean;
  /** Known secrets, replaced by `[redacted]` in everything printed (a server may echo a key it was given). */
  secrets?: readonly string[];
  /** The whole text a result's text stands in for, when it was too long to hold in memory. */
  wholeTextOf?: WholeTextOf;
  /** Stops printing a whole text (Ctrl-C). */
  signal?: AbortSignal;
}

/**
 * Prints `result` (the server's raw result, or the host's own when the call never reached a server). Resolves to
 * false when a text too long to hold in memory could not be read back whole: its two ends were printed instead.
 */
export async function printCallResult(result: PrintableResult, options: PrintCallResultOptions): Promise<boolean> {
  const write = options.isError ? writeStderrText : writeLine;
  const secrets = options.secrets ?? [];
  const print = (text: string): void => write(redactText(text, secrets));
  let whole = true;
  const printText = async (text: string): Promise<void> => {
    const pieces = options.wholeTextOf?.(text);
    const opened = pieces === undefined ? undefined : await openWholeText(pieces);
    if (opened === undefined || 'unreadable' in opened) {
      if (opened !== undefined) {
        whole = false;
        writeError(`mcp-host: the whole text cannot be printed, only its two ends: ${opened.unreadable}`);
      }
      print(text);
      return;
    }
    // As `print` would write the whole text: redacted, without control codes, then a newline.
    const target = options.isError ? 'stderr' : 'stdout';
    let last = '';
    for await (const run of wholeTextRuns(opened.pieces, secrets)) {
      if (options.signal?.aborted) return;
      const cleaned = stripControlCodes(redactText(run, secrets));
      if (cleaned !== '') last = cleaned;
      if (!(await writeCleaned(target, cleaned))) return;
    }
    // stderr gets a newline only where the text has none at its end, as `writeStderrText` adds it.
    if (target === 'stdout' || !last.endsWith('\n')) await writeCleaned(target, '\n');
  };
  const parts = Array.isArray(result.content) ? (result.content as RawPart[]) : [];
  let saved = 0;
  const binary = (kind: string, data: unknown, mimeType: unknown): void => {
    const type = typeof mimeType === 'string' ? mimeType : 'application/octet-stream';
    const bytes = typeof data === 'string' ? Buffer.from(data, 'base64') : Buffer.alloc(0);
    if (options.saveDirectory === undefined) {
      print(`[${kind} ${type}, ${bytes.length} bytes; --save DIR writes it to a file]`);
      return;
    }
    mkdirSync(options.saveDirectory, { recursive: true });
    saved += 1;
    const file = resolve(join(options.saveDirectory, `${kind}-${saved}.${EXTENSIONS[type] ?? 'bin'}`));
    writeFileSync(file, bytes);
    print(`[${kind} ${type}, ${bytes.length} bytes, saved to ${file}]`);
  };
  let printedText = false;
  for (const part of parts) {
    if (part.type === 'text' && typeof part.text === 'string') {
      await printText(part.text);
      printedText = true;
    } else if (part.type === 'image' || part.type === 'audio') {
      binary(part.type, part.data, part.mimeType);
    } else if (part.type === 'resource' && part.resource) {
      if (typeof part.resource.text === 'string') {
        print(part.resource.text);
        printedText = true;
      } else binary('blob', part.resource.blob, part.resource.mimeType);
    } else if (part.type === 'resource_link') {
      print(`[resource link ${String(part.uri)}${typeof part.name === 'string' ? ` (${part.name})` : ''}]`);
    }
  }
  if (!printedText && result.structuredContent !== undefined) {
    print(JSON.stringify(result.structuredContent, null, 2));
  }
  return whole;
}
