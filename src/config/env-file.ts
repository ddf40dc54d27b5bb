/**
 * A server's `envFile`: variables in the dotenv format VS Code reads for the same key, so a config written for VS
 * Code starts its servers with the same environment here. Lines are `NAME=value` (an `export ` prefix is allowed);
 * `#` starts a comment line; a value may be in single quotes (taken literally) or double quotes (`\n`, `\t`, `\"`,
 * `\\` escapes). Values are not substituted: the file is the place variables come from.
 */

import { setOwnProperty } from '../json/own-property.js';
import { BoundedReadError, readBoundedFile } from '../json/read-bounded-file.js';
import { ConfigError } from './config-error.js';

/** An env file is a handful of variables; a larger file is more likely a wrong path than a real one. */
const MAX_ENV_FILE_BYTES = 1024 * 1024;

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;

interface EnvFileContext {
  /** The config file, for messages. */
  file: string | undefined;
  /** The key path of `envFile`, for messages. */
  keyPath: string;
}

/** The variables in the file at `envPath` (absolute). Throws `ConfigError` naming the key and the file. */
export function readEnvFile(envPath: string, context: EnvFileContext): Record<string, string> {
  const fail = (found: string, line?: number): ConfigError =>
    new ConfigError({
      code: 'config-invalid',
      file: context.file,
      keyPath: context.keyPath,
      expected: line === undefined ? `a readable env file at ${envPath}` : `NAME=value lines in ${envPath}`,
      found: line === undefined ? found : `${found} on line ${line}`,
    });
  let text: string;
  try {
    // Only a regular file, opened so that a named pipe cannot block: the path is the config's say, which may not
    // have been approved yet (`trust config` reads it to show what the file runs).
    text = readBoundedFile(envPath, MAX_ENV_FILE_BYTES, { regularFileOnly: true });
  } catch (error) {
    if (!(error instanceof BoundedReadError)) throw error;
    const found = error.describe(MAX_ENV_FILE_BYTES);
    throw fail(error.failure.reason === 'too-large' ? `${found} (the limit is ${MAX_ENV_FILE_BYTES})` : found);
  }
  return parseEnvText(text, fail);
}

function parseEnvText(text: string, fail: (found: string, line: number) => ConfigError): Record<string, string> {
  const variables: Record<string, string> = {};
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = LINE.exec(line);
    if (match === null) throw fail('a line that is not NAME=value', index + 1);
    setOwnProperty(
      variables,
      match[1]!,
      unquote(match[2]!.trim(), () => fail('an unterminated quoted value', index + 1)),
    );
  }
  return variables;
}

function unquote(raw: string, unterminated: () => ConfigError): string {
  const quote = raw[0];
  if (quote !== '"' && quote !== "'") {
    // An unquoted value ends at a ` #` comment, as in dotenv.
    const comment = raw.search(/\s#/);
    return (comment === -1 ? raw : raw.slice(0, comment)).trim();
  }
  if (quote === "'") {
    const close = raw.indexOf(quote, 1);
    if (close === -1) throw unterminated();
    return raw.slice(1, close);
  }
  let value = '';
  for (let index = 1; index < raw.length; index++) {
    const character = raw[index]!;
    if (character === '"') return value;
    if (character === '\\' && index + 1 < raw.length) {
      const next = raw[++index]!;
      value += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'r' ? '\r' : next;
    } else {
      value += character;
    }
  }
  throw unterminated();
}
