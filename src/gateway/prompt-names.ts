/**
 * The names a gateway gives its servers' prompts: `SERVER__NAME`, the server's name in front as tools have it. A
 * server's name may hold `__` itself (`team__notes`), so a name is taken apart by the servers there are, not at its
 * first `__` (see server-of-name.ts): `team__notes__daily` is `daily` of `team__notes` even beside a server `team`.
 */
import { serverOfName } from '../catalog/server-of-name.js';
import type { ProfileHost } from './gateway-hosts.js';

const SEPARATOR = '__';

export interface PromptReference {
  server: string;
  /** The prompt's name on its server. */
  name: string;
}

export function gatewayPromptName(server: string, prompt: string): string {
  return `${server}${SEPARATOR}${prompt}`;
}

/** The profile's prompt a gateway name stands for, or undefined when it begins with none of its servers' names. */
export function promptOf(profile: ProfileHost, name: string): PromptReference | undefined {
  const owner = serverOfName(
    name,
    profile.host.config.servers.map((server) => server.name),
    // A name that is only `SERVER__` names no prompt of that server.
    (server) => name.length > server.length + SEPARATOR.length && profile.offersServer(server),
  );
  return owner === undefined ? undefined : { server: owner, name: name.slice(owner.length + SEPARATOR.length) };
}
