/**
 * `${env:VAR}` / `${VAR}` substitution in config strings, the way Claude Code and VS Code config files reference
 * secrets without writing them down. Every value taken from the environment is collected so the host can redact it
 * wherever it prints or records data.
 *
 * Syntax:
 * - `${env:NAME}` and `${NAME}`: the variable's value; NAME is letters, digits and underscores, not starting with a
 *   digit. An unset variable is an error naming it.
 * - `${NAME:-fallback}` (also `${env:NAME:-fallback}`): the fallback when NAME is unset or empty, as in a shell and
 *   in Claude Code. A fallback is written in the file, so it is not collected as a secret.
 * - `${workspaceFolder}`: the project folder, as VS Code and Cursor write it (the folder holding `.vscode/` or
 *   `.cursor/` for a file inside one, else the config file's folder). `${env:workspaceFolder}` is the variable.
 * - `$${` is an escape for a literal `${`: `$${HOME}` stays `${HOME}`. A `$` not followed by `{` is literal as is.
 * - Anything else inside `${…}` (VS Code's `${input:…}` prompts included) is an error: a reference the host cannot
 *   resolve should not reach a server as literal text.
 */

import { ConfigError } from './config-error.js';

export type Environment = Readonly<Record<string, string | undefined>>;

export interface SubstitutionContext {
  env: Environment;
  file: string | undefined;
  /** Receives every non-empty value taken from the environment. */
  secrets: Set<string>;
  /**
   * Leave references to unset variables as written instead of failing. Used for disabled servers: a variable that
   * only a switched-off server needs should not stop the host from starting.
   */
  lenient?: boolean;
  /** What `${workspaceFolder}` stands for; without it, the name is looked up as a variable. */
  workspaceFolder?: string;
}

const WORKSPACE_FOLDER = 'workspaceFolder';
const REFERENCE = /^(env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;
const REFERENCE_FORMS =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: this message shows the config syntax.
  '`${env:NAME}` or `${NAME}` (NAME: letters, digits and underscores), or `$${` for a literal `${`';

/** `text` with every reference replaced; `keyPath` names the key in errors. */
export function substituteEnvironment(text: string, keyPath: string, context: SubstitutionContext): string {
  if (!text.includes('$')) return text;
  let result = '';
  let index = 0;
  while (index < text.length) {
    const dollar = text.indexOf('$', index);
    if (dollar === -1) {
      result += text.slice(index);
      break;
    }
    result += text.slice(index, dollar);
    if (text.startsWith('$${', dollar)) {
      result += '${';
      index = dollar + 3;
      continue;
    }
    if (text[dollar + 1] !== '{') {
      result += '$';
      index = dollar + 1;
      continue;
    }
    const close = text.indexOf('}', dollar + 2);
    if (close === -1) {
      throw invalidReference(context, keyPath, text.slice(dollar), 'a closing `}` for the reference');
    }
    const reference = text.slice(dollar, close + 1);
    result += resolveReference(reference, text.slice(dollar + 2, close), keyPath, context);
    index = close + 1;
  }
  return result;
}

function resolveReference(reference: string, inner: string, keyPath: string, context: SubstitutionContext): string {
  const match = REFERENCE.exec(inner);
  if (match === null) {
    if (inner.startsWith('input:')) {
      throw invalidReference(context, keyPath, reference, REFERENCE_FORMS, 'Input prompts are not supported here.');
    }
    throw invalidReference(context, keyPath, reference, REFERENCE_FORMS);
  }
  const name = match[2]!;
  if (name === WORKSPACE_FOLDER && match[1] === undefined && context.workspaceFolder !== undefined) {
    return context.workspaceFolder;
  }
  const fallback = match[3];
  const value = Object.hasOwn(context.env, name) ? context.env[name] : undefined;
  if (fallback !== undefined && (value === undefined || value === '')) return fallback;
  if (value === undefined) {
    if (context.lenient === true) return reference;
    throw new ConfigError({
      code: 'config-missing-variable',
      file: context.file,
      keyPath,
      expected: `the environment variable ${name} to be set (referenced as \`${reference}\`)`,
      hint: `Set ${name} in the environment, or give a fallback with \`\${${name}:-value}\`.`,
      variable: name,
    });
  }
  if (value !== '') context.secrets.add(value);
  return value;
}

function invalidReference(
  context: SubstitutionContext,
  keyPath: string,
  reference: string,
  expected: string,
  hint?: string,
): ConfigError {
  const shown = reference.length > 40 ? `${reference.slice(0, 40)}…` : reference;
  return new ConfigError({
    code: 'config-invalid',
    file: context.file,
    keyPath,
    expected,
    found: `\`${shown}\``,
    ...(hint === undefined ? {} : { hint }),
  });
}
