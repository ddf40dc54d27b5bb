/** Where the audit log lives: `--audit-file`, else `MCP_HOST_AUDIT_FILE`, else `audit.jsonl` in the state folder. */

import path from 'node:path';

export const AUDIT_LOG_FILE_NAME = 'audit.jsonl';
const AUDIT_FILE_ENV_VARIABLE = 'MCP_HOST_AUDIT_FILE';

interface ResolveAuditLogPathOptions {
  /** The `--audit-file` value (or a config setting), relative to `cwd`. */
  flag?: string;
  stateDir: string;
  /** Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default `process.cwd()`. */
  cwd?: string;
}

export function resolveAuditLogPath(options: ResolveAuditLogPathOptions): string {
  const cwd = options.cwd ?? process.cwd();
  if (options.flag !== undefined && options.flag !== '') return path.resolve(cwd, options.flag);
  const fromEnvironment = (options.env ?? process.env)[AUDIT_FILE_ENV_VARIABLE];
  if (fromEnvironment !== undefined && fromEnvironment !== '') return path.resolve(cwd, fromEnvironment);
  return path.join(options.stateDir, AUDIT_LOG_FILE_NAME);
}
