/**
 * Splits a byte stream into newline-terminated lines in linear time with a bounded line length.
 *
 * The SDK's `ReadBuffer` re-concatenates its whole buffer on every chunk (quadratic for a 50 MB
 * message arriving in 64 KB chunks) and silently drops lines that are not JSON; the host needs
 * both linear parsing and a diagnostic for every non-protocol line, so it splits lines itself and
 * reuses the SDK only for message validation and serialisation.
 *
 * A line that spans chunks is decoded chunk by chunk as it arrives and each chunk let go at once, rather than
 * kept until the newline and joined into one buffer; its long JSON strings are taken out as they come (see
 * json-line-builder.ts). A 100 MB answer is then never held as its chunks, their joined copy and its text at once.
 */
import { StringDecoder } from 'node:string_decoder';
import { type BuiltLine, JsonLineBuilder, type JsonLineBuilderOptions } from './json-line-builder.js';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const CARRIAGE_RETURN_TEXT = '\r';

export class LineSplitter {
  /** The unfinished line, decoded so far (a multi-byte character cut by a chunk waits in the decoder). */
  private pending: JsonLineBuilder;
  private pendingBytes = 0;
  /** Whether the decoded text so far ends with a CR, which is dropped if the newline follows it. */
  private pendingCarriageReturn = false;
  private discarding = false;
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: BuiltLine) => void,
    private readonly onOversize: (bytesSoFar: number) => void,
    /** How lines are built (where a tool result's very long text is written out). */
    private readonly builderOptions: JsonLineBuilderOptions = {},
  ) {
    this.pending = new JsonLineBuilder(builderOptions);
  }

  /** The stream ended: a line left unfinished is let go (a text it was writing out is deleted). */
  close(): void {
    this.dropPending();
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.discarding) {
        const length = end - start;
        if (this.pendingBytes + length > this.maxLineBytes) {
          const seen = this.pendingBytes + length;
          this.dropPending();
          // Skip the rest of this line so memory stays bounded, and report it once.
          this.discarding = true;
          this.onOversize(seen);
        } else if (newline !== -1 && this.pendingBytes === 0) {
          // The whole line is in this chunk: the common case, decoded straight from it.
          const stop = end > start && chunk[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
          this.onLine({ text: chunk.toString('utf8', start, stop), longStrings: [] });
        } else if (length > 0) {
          this.keep(this.decoder.write(chunk.subarray(start, end)));
          this.pendingBytes += length;
        }
      }
      if (newline === -1) return;
      if (this.discarding) this.discarding = false;
      else if (this.pendingBytes > 0) this.onLine(this.takePending());
      start = newline + 1;
    }
  }

  /**
   * Hands decoded text on to the line being built, holding back a final CR until it is known whether the newline
   * follows it (a CRLF ending) or more of the line does.
   */
  private keep(text: string): void {
    if (text.length === 0) return;
    if (this.pendingCarriageReturn) this.pending.add(CARRIAGE_RETURN_TEXT);
    this.pendingCarriageReturn = text.endsWith(CARRIAGE_RETURN_TEXT);
    const kept = this.pendingCarriageReturn ? text.slice(0, -1) : text;
    if (kept.length > 0) this.pending.add(kept);
  }

  /** The finished line, without the CR of a CRLF ending; the builder is let go before the line is handed on. */
  private takePending(): BuiltLine {
    const rest = this.decoder.end();
    if (rest.length > 0) this.keep(rest);
    const line = this.pending.finish();
    this.resetPending();
    return line;
  }

  private dropPending(): void {
    this.decoder.end();
    this.pending.discard();
    this.resetPending();
  }

  private resetPending(): void {
    this.pending = new JsonLineBuilder(this.builderOptions);
    this.pendingBytes = 0;
    this.pendingCarriageReturn = false;
  }
}
