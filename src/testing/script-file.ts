/**
 * Whether a scripted model's script is there, checked before anything starts (servers, a mock server's port), by
 * `run`, `chat` and `mock-llm` alike. Its own file: the command line loads it without the script schema.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * What stands in the way of reading a script at `path` (resolved from `folder`) before anything else starts: no file
 * there, or a folder; undefined when a file is there. Worded to follow "…, and" or a colon.
 */
export function scriptFileProblem(path: string, folder = process.cwd()): string | undefined {
  const file = resolve(folder, path);
  try {
    if (statSync(file).isDirectory()) return `${file} is a folder, not a script file`;
    return undefined;
  } catch {
    return `there is no file at ${file}`;
  }
}
