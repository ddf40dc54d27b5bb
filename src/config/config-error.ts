/**
 * The one error the config layer throws. A user who wrote a config file by hand must be able to fix it from the
 * message alone, so every error names the file, the key path inside it and what was expected there.
 */

type ConfigErrorCode =
  /** An explicitly named config file does not exist. */
  | 'config-not-found'
  /** The file exists but could not be read (permissions, a directory, …). */
  | 'config-unreadable'
  /** The file is not strict JSON. `line` and `column` point at the problem. */
  | 'config-invalid-json'
  /** A key holds a value of the wrong shape. */
  | 'config-invalid'
  /** A `${env:VAR}` / `${VAR}` reference names a variable that is not set. `variable` holds its name. */
  | 'config-missing-variable';

interface ConfigErrorDetails {
  code: ConfigErrorCode;
  /** Absolute path of the config file; undefined for a config that came from memory. */
  file: string | undefined;
  /** Where in the file, e.g. `mcpServers.fs.timeoutMs` or `mcpServers["my.server"].args[0]`; `''` for the whole file. */
  keyPath: string;
  /** What belongs there, phrased to follow "expected": `a positive whole number of milliseconds`. */
  expected: string;
  /** A short description of what was there instead. */
  found?: string;
  /** What to do, when that is not obvious from `expected`. */
  hint?: string;
  /** 1-based, for JSON syntax errors. */
  line?: number;
  /** 1-based, for JSON syntax errors. */
  column?: number;
  /** The environment variable that was missing. */
  variable?: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code: ConfigErrorCode;
  readonly file: string | undefined;
  readonly keyPath: string;
  readonly expected: string;
  readonly found: string | undefined;
  readonly hint: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly variable: string | undefined;
  /** The config's warnings gathered before the error, to be shown with it. */
  warnings: readonly string[] = [];

  constructor(details: ConfigErrorDetails) {
    super(formatConfigErrorMessage(details));
    this.code = details.code;
    this.file = details.file;
    this.keyPath = details.keyPath;
    this.expected = details.expected;
    this.found = details.found;
    this.hint = details.hint;
    this.line = details.line;
    this.column = details.column;
    this.variable = details.variable;
  }

  /** Works across copies of this module (e.g. a bundled and an installed one), unlike `instanceof`. */
  static isInstance(value: unknown): value is ConfigError {
    return value instanceof Error && value.name === 'ConfigError' && 'keyPath' in value && 'expected' in value;
  }
}

/** How a config with no file is named in messages. */
const INLINE_CONFIG_LABEL = '<inline config>';

export function describeConfigFile(file: string | undefined): string {
  return file ?? INLINE_CONFIG_LABEL;
}

function formatConfigErrorMessage(details: ConfigErrorDetails): string {
  let where = describeConfigFile(details.file);
  if (details.line !== undefined) where += `:${details.line}:${details.column ?? 1}`;
  const key = details.keyPath === '' ? '' : ` ${details.keyPath}:`;
  const found = details.found === undefined ? '' : `, found ${details.found}`;
  const hint = details.hint === undefined ? '' : ` ${details.hint}`;
  return `${where}:${key} expected ${details.expected}${found}.${hint}`;
}
