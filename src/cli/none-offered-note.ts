/**
 * What `resources list` / `prompts list` say on stderr when they find nothing, so an empty answer is not mistaken for
 * a command that did nothing: which servers were asked. Nothing when no server is connected (the command has said
 * why already).
 */
import type { HostServerStatus } from '../host/host-types.js';

export function noneOfferedNote(
  what: 'resources' | 'prompts',
  servers: readonly HostServerStatus[],
): string | undefined {
  const connected = servers.filter((server) => server.state === 'connected').map((server) => server.name);
  if (connected.length === 0) return undefined;
  const names = connected.map((name) => JSON.stringify(name)).join(', ');
  return connected.length === 1
    ? `the server ${names} offers no ${what}`
    : `none of the ${connected.length} connected servers (${names}) offers ${what}`;
}
