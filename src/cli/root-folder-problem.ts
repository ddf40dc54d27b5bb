/**
 * What is wrong with a `--root` value, checked as the option is read: a misspelt folder would otherwise be offered
 * to the servers as a root that is not there, without a word, and a URL of another scheme failed later as a crash.
 */
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rootUrl } from '../config/root-url.js';

/** What a root is, said after what is wrong with a value that is none. */
const EXPECTED_ROOT = 'a folder path, or a file:// URI of a folder on this machine (file:///path/to/folder)';
/** `file:` with no `//` after it, as a relative file URI is written: read as a path, which is seldom there. */
const FILE_URI_WITHOUT_SLASHES = /^file:(?!\/\/)/i;

/** A sentence saying what is wrong with `value` as a root, or undefined for a folder that is there. */
export function rootFolderProblem(value: string, folder = process.cwd()): string | undefined {
  const url = rootUrl(value, folder);
  if (url === undefined && /^file:/i.test(value))
    return `It is not a valid file:// URI; a root must be ${EXPECTED_ROOT}.`;
  if (url?.protocol !== 'file:') return `It must be ${EXPECTED_ROOT}.`;
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch (error) {
    return `It is not a file:// URI of a folder on this machine (${(error as Error).message}); a root must be ${EXPECTED_ROOT}.`;
  }
  const problem = folderProblem(path);
  if (problem !== undefined && FILE_URI_WITHOUT_SLASHES.test(value)) {
    return `It is a file: URI without //, which names no folder; a root must be ${EXPECTED_ROOT}.`;
  }
  return problem;
}

function folderProblem(path: string): string | undefined {
  try {
    return statSync(path).isDirectory() ? undefined : `${path} is not a folder.`;
  } catch {
    return `There is no folder at ${path}.`;
  }
}
