/**
 * The server a namespaced name (`SERVER__NAME`, as a permission rule names a tool) belongs to. A server's name may
 * hold `__` itself (`team__notes`), so a name is taken apart by the servers there are, not at its first `__`: the
 * longest server name it starts with, so `team__notes__daily` belongs to `team__notes` even beside a server `team`.
 */
import { TOOL_NAME_SEPARATOR } from './tool-naming.js';

/** The longest of `servers` that `name` starts with, followed by `__`, among those `accepts` takes. */
export function serverOfName(
  name: string,
  servers: Iterable<string>,
  accepts: (server: string) => boolean = () => true,
): string | undefined {
  let owner: string | undefined;
  for (const server of servers) {
    if (owner !== undefined && server.length <= owner.length) continue;
    if (name.startsWith(`${server}${TOOL_NAME_SEPARATOR}`) && accepts(server)) owner = server;
  }
  return owner;
}
