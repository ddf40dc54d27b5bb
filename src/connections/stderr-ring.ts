/**
 * Keeps the last bytes a server wrote to stderr, bounded, so failures can show their tail
 * without a chatty or flooding server growing the host's memory.
 */
const DEFAULT_STDERR_RING_BYTES = 64 * 1024;

export class StderrRing {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = 0;

  constructor(private readonly capacity = DEFAULT_STDERR_RING_BYTES) {}

  push(chunk: Buffer): void {
    const piece = chunk.length > this.capacity ? chunk.subarray(chunk.length - this.capacity) : chunk;
    this.dropped += chunk.length - piece.length;
    this.chunks.push(piece);
    this.size += piece.length;
    while (this.size > this.capacity && this.chunks.length > 0) {
      const first = this.chunks[0]!;
      const excess = this.size - this.capacity;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
        this.dropped += first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
        this.dropped += excess;
      }
    }
  }

  /** The last `maxLines` lines, for error messages. */
  tail(maxLines = 20): string {
    const text = Buffer.concat(this.chunks).toString('utf8');
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines.slice(-maxLines).join('\n');
  }

  get droppedBytes(): number {
    return this.dropped;
  }
}
