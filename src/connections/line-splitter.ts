/**
 * Splits a byte stream into newline-terminated lines in linear time with a bounded line length.
 *
 * The SDK's `ReadBuffer` re-concatenates its whole buffer on every chunk (quadratic for a 50 MB
 * message arriving in 64 KB chunks) and silently drops lines that are not JSON; the host needs
 * both linear parsing and a diagnostic for every non-protocol line, so it splits lines itself and
 * reuses the SDK only for message validation and serialisation.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversize: (bytesSoFar: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.discarding) {
        const piece = chunk.subarray(start, end);
        if (this.pendingBytes + piece.length > this.maxLineBytes) {
          const seen = this.pendingBytes + piece.length;
          this.pending = [];
          this.pendingBytes = 0;
          // Skip the rest of this line so memory stays bounded, and report it once.
          this.discarding = true;
          this.onOversize(seen);
        } else if (piece.length > 0) {
          this.pending.push(piece);
          this.pendingBytes += piece.length;
        }
      }
      if (newline === -1) return;
      if (this.discarding) {
        this.discarding = false;
      } else {
        const line = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
        this.pending = [];
        this.pendingBytes = 0;
        const text = line.toString('utf8');
        this.onLine(text.endsWith('\r') ? text.slice(0, -1) : text);
      }
      start = newline + 1;
    }
  }
}
