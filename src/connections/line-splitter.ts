/**
 * Splits a byte stream into newline-terminated lines in linear time with a bounded line length.
 *
 * The SDK's `ReadBuffer` re-concatenates its whole buffer on every chunk (quadratic for a 50 MB
 * message arriving in 64 KB chunks) and silently drops lines that are not JSON; the host needs
 * both linear parsing and a diagnostic for every non-protocol line, so it splits lines itself and
 * reuses the SDK only for message validation and serialisation.
 *
 * A line that spans chunks is decoded chunk by chunk as it arrives and each chunk let go at once, rather than
 * kept until the newline and joined into one buffer: a 100 MB answer is then never held as its chunks, their
 * joined copy and its text all at the same time.
 */
import { StringDecoder } from 'node:string_decoder';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export class LineSplitter {
  /** The unfinished line, decoded so far (a multi-byte character cut by a chunk waits in the decoder). */
  private pending: string[] = [];
  private pendingBytes = 0;
  private discarding = false;
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversize: (bytesSoFar: number) => void,
  ) {}

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
          this.onLine(chunk.toString('utf8', start, stop));
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

  private keep(text: string): void {
    if (text.length > 0) this.pending.push(text);
  }

  /** The finished line, without the CR of a CRLF ending; the pieces are let go before the line is handed on. */
  private takePending(): string {
    this.keep(this.decoder.end());
    const pieces = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    const last = pieces.length - 1;
    if (last >= 0 && pieces[last]!.charCodeAt(pieces[last]!.length - 1) === CARRIAGE_RETURN) {
      pieces[last] = pieces[last]!.slice(0, -1);
    }
    return pieces.length === 1 ? pieces[0]! : pieces.join('');
  }

  private dropPending(): void {
    this.decoder.end();
    this.pending = [];
    this.pendingBytes = 0;
  }
}
