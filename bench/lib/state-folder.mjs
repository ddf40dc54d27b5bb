/**
 * A throw-away state folder per host under test. mcp-host keeps its trust store, audit log and
 * stored results there; the benchmarks measure that real path (the JSONL audit file included)
 * without touching the user's own state folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function createStateFolder() {
  const path = mkdtempSync(join(tmpdir(), 'mcp-host-bench-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
