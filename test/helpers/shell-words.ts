import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

/** The words bash reads from each of `commandLines`: each printed NUL-terminated by printf, in one bash for all lines. */
export function wordsAsBashReadsThem(commandLines: readonly string[]): string[][] {
  const script = commandLines.map((line) => `printf '%s\\0' ${line}; printf '\\1'`).join('\n');
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8' });
  expect(result.status).toBe(0);
  return result.stdout
    .split('\u0001')
    .slice(0, -1)
    .map((words) => words.split('\0').slice(0, -1));
}
