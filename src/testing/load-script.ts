/**
 * Reads and validates a script file, so a mistake in a hand-written script is reported with the
 * file and the key path (`scenarios[0].turns[1].toolCalls[0].name`) instead of surfacing later as
 * a puzzling model answer.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { findJsonSyntaxProblem } from '../config/json-syntax-error.js';
import { scriptSchema } from './script-schema.js';
import type { Script } from './script-types.js';

/** Loads a JSON script file. Throws an Error naming the file, the key path and what was expected. */
export async function loadScript(path: string): Promise<Script> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read script file ${path}: ${(error as Error).message}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Where it goes wrong, as a config's JSON mistake is told: Node's own message may name no place at all.
    const problem = findJsonSyntaxProblem(text);
    const where =
      problem === undefined
        ? ` is not valid JSON: ${(error as Error).message}`
        : `:${problem.line}:${problem.column}: expected ${problem.expected}, found ${problem.found}.${problem.hint === undefined ? '' : ` ${problem.hint}`}`;
    throw new Error(`Script file ${path}${where}`, { cause: error });
  }
  return parseScript(value, path);
}

/**
 * Validates a script given as a value (e.g. built in a test). `source` names where it came from
 * in error messages.
 */
export function parseScript(value: unknown, source = 'script'): Script {
  const result = scriptSchema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) =>
    // A misspelt key is named where it is, not as the object around it being "Invalid input".
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => `  ${formatPath([...issue.path, key])}: not a key of the script format`).join('\n')
      : `  ${formatPath(issue.path)}: ${issue.message}`,
  );
  throw new Error(`Invalid script ${source}:\n${problems.join('\n')}`);
}

function formatPath(path: z.core.$ZodIssue['path']): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text === '' ? '(root)' : text;
}
