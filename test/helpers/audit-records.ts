import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The records of the JSONL audit log in `stateDir`, none while it is not written yet. */
export async function auditRecords(stateDir: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(stateDir, 'audit.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
