/**
 * Who a server is, for pinning: its name plus a hash of what the host actually runs or reaches: for a local
 * server the command, its arguments, the folder it starts in and the environment the config gives it (another
 * `cwd` can hold another program under the same command; another `PATH` or `NODE_OPTIONS` can load one); for a
 * remote server the URL. If the config is edited so that the same name now runs something else, approvals given
 * to the old program must not carry over. Only hashes are kept: env values and command lines can hold secrets.
 */

import { createHash } from 'node:crypto';
import type { ServerConfig } from '../config/types.js';
import { quoteCommandLine } from '../json/quote-shell-word.js';
import { redactSecrets } from '../text/redact-secrets.js';

interface ServerIdentity {
  name: string;
  /** sha256 hex of the command, args, cwd and env (values hashed) of a local server, or of a remote server's URL. */
  hash: string;
  /**
   * The hash identities had before they covered `cwd` and `env` (command line or URL only). An approval stored
   * under it is taken over once, as approving what runs now under the same command line.
   */
  previousHash: string;
}

export function serverIdentity(server: ServerConfig): ServerIdentity {
  // Streamable HTTP and legacy SSE at one URL are the same server reached two ways, so both count as `remote`.
  if (server.transport !== 'stdio') {
    const hash = sha256(JSON.stringify({ kind: 'remote', url: server.url }));
    return { name: server.name, hash, previousHash: hash };
  }
  const env = Object.keys(server.env)
    .sort()
    .map((key) => [key, sha256(server.env[key] ?? '')]);
  const target = { kind: 'stdio', command: server.command, args: server.args, cwd: server.cwd, env };
  return {
    name: server.name,
    hash: sha256(JSON.stringify({ version: 2, ...target })),
    previousHash: sha256(JSON.stringify({ kind: 'stdio', command: server.command, args: server.args })),
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The command line or URL for people, every secret value replaced by `[redacted]`. */
export function describeServerTarget(server: ServerConfig, secrets: readonly string[] = []): string {
  if (server.transport !== 'stdio') return redactSecrets(server.url, secrets);
  return quoteCommandLine([server.command, ...server.args], secrets);
}
