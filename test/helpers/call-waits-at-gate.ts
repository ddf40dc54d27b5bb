import { readFile } from 'node:fs/promises';
import { waitUntil } from './gateway-process.js';

/** Waits until the asks-when-told fixture writes to `eventLog` that a call waits for `gate`. */
export function callWaitsAtGate(eventLog: string, gate: string): Promise<void> {
  return waitUntil(
    async () => (await readFile(eventLog, 'utf8').catch(() => '')).includes(`waiting ${gate}\n`),
    `the server to wait for ${gate}`,
  );
}
