/**
 * Splits the audit log's bytes into lines, in linear time and bounded memory. A line is kept as the pieces it arrived
 * in and joined once, at its newline: joining what was held with each new chunk instead took half a minute for a
 * 30 MB line. A line past the bound is let go as it grows and counted, so a log of no newlines (a sparse file, a
 * hostile line) cannot take the reader's memory.
 */

const NEWLINE = 0x0a;

/**
 * The longest line read as a record: the largest protocol message a server may send, which a call's arguments
 * cannot outgrow.
 */
export const MAX_AUDIT_LINE_BYTES = 64 * 1024 * 1024;

export class AuditLineSplitter {
  private pieces: Buffer[] = [];
  private heldBytes = 0;
  /** Whether the line being read is past the bound and is being passed over to its newline. */
  private passingOver = false;
  /** Bytes fed so far. */
  private fed = 0;
  /** Bytes fed up to the end of the last complete line (where a reader coming back should start). */
  consumed = 0;

  constructor(
    private readonly onLine: (line: string) => void,
    /** A line past the bound, counted once however long it goes on. */
    private readonly onOverlong: () => void,
    private readonly maxLineBytes = MAX_AUDIT_LINE_BYTES,
  ) {}

  /** Feeds the next bytes; `chunk` must not be reused by the caller, as pieces of it may be held. */
  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.passingOver) {
        if (this.heldBytes + (end - start) > this.maxLineBytes) {
          this.pieces = [];
          this.heldBytes = 0;
          this.passingOver = true;
          this.onOverlong();
        } else if (end > start) {
          this.pieces.push(chunk.subarray(start, end));
          this.heldBytes += end - start;
        }
      }
      if (newline === -1) break;
      if (this.passingOver) this.passingOver = false;
      else this.onLine(this.takeHeld());
      start = newline + 1;
      this.consumed = this.fed + start;
    }
    this.fed += chunk.length;
  }

  /** The unfinished last line, if it has any bytes and is within the bound. */
  rest(): string | undefined {
    return this.passingOver || this.heldBytes === 0
      ? undefined
      : Buffer.concat(this.pieces, this.heldBytes).toString('utf8');
  }

  private takeHeld(): string {
    const line = Buffer.concat(this.pieces, this.heldBytes).toString('utf8');
    this.pieces = [];
    this.heldBytes = 0;
    return line;
  }
}
