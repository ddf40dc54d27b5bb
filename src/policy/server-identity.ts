/**
 * Who a server is, for pinning: its name plus a hash of what the host actually runs or reaches (the command line
 * for a local server, the URL for a remote one). If the config is edited so that the same name now runs something
 * else, approvals given to the old program must not carry over. Only the hash is stored: a command line can hold
 * secrets substituted from the environment.
 */

import { createHash } from 'node:crypto';
import type { ServerConfig } from '../config/types.js';

export interface ServerIdentity {
  name: string;
  /** sha256 hex of the command line or URL. */
  hash: string;
}

export function serverIdentity(server: ServerConfig): ServerIdentity {
  // Streamable HTTP and legacy SSE at one URL are the same server reached two ways, so both count as `remote`.
  const target =
    server.transport === 'stdio'
      ? { kind: 'stdio', command: server.command, args: server.args }
      : { kind: 'remote', url: server.url };
  return { name: server.name, hash: createHash('sha256').update(JSON.stringify(target)).digest('hex') };
}

/** The command line or URL for people, every secret value replaced by `[redacted]`. */
export function describeServerTarget(server: ServerConfig, secrets: readonly string[] = []): string {
  const text =
    server.transport === 'stdio' ? [server.command, ...server.args].map(quoteArgument).join(' ') : server.url;
  let redacted = text;
  for (const secret of secrets) {
    if (secret !== '') redacted = redacted.split(secret).join('[redacted]');
  }
  return redacted;
}

function quoteArgument(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replace(/'/g, `'\\''`)}'`;
}
