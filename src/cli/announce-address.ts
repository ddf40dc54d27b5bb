/**
 * How every command that listens (`ui`, `serve --http`, `mock-llm`) says where, once it does: the address alone on
 * stdout, one line a script reads whatever the command, and one sentence on stderr saying what answers there and how
 * to stop it. `serve` over stdio announces nothing: its stdout is the protocol channel.
 */
import { writeError, writeLine } from './output.js';

/** `what`: what answers at the address, e.g. "the web UI"; `more`: anything else worth knowing about it. */
export function announceAddress(url: string, what: string, more?: string): void {
  writeLine(url);
  writeError(`mcp-host: serving ${url} (${what}${more === undefined ? '' : `; ${more}`}); Ctrl-C to stop`);
}
