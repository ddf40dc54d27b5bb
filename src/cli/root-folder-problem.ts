/**
 * What is wrong with a `--root` value, checked as the option is read: a misspelt folder would otherwise be offered
 * to the servers as a root that is not there, without a word, and a URL of another scheme failed later as a crash.
 */
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rootUrl } from '../config/root-url.js';

/** A sentence saying what is wrong with `value` as a root, or undefined for a folder that is there. */
export function rootFolderProblem(value: string, folder = process.cwd()): string | undefined {
  const url = rootUrl(value, folder);
  if (url?.protocol !== 'file:') return 'It must be a folder path or a file:// URI.';
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch (error) {
    return `It is not a file:// URI of a folder on this machine (${(error as Error).message}).`;
  }
  try {
    return statSync(path).isDirectory() ? undefined : `${path} is not a folder.`;
  } catch {
    return `There is no folder at ${path}.`;
  }
}
