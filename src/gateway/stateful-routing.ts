/**
 * Which requests of a stateless gateway's session must reach a stateful server (`"stateful": true`) through the
 * replica that owns the session: a call of one of its tools (directly or through the `call_tool` meta-tool) and a
 * prompt of its own. Resource reads, subscriptions and completions carry no server name, so they go to the owner
 * whenever the profile has a stateful server. Everything else (listing, ping, initialize) any replica answers.
 */

import { CALL_TOOL } from '../host/tool-discovery.js';
import type { ProfileHost } from './gateway-hosts.js';
import { promptOf } from './prompt-names.js';

const UNNAMED_SERVER_METHODS: ReadonlySet<string> = new Set([
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
]);

function fieldsOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function statefulServersOf(profile: ProfileHost): ReadonlySet<string> {
  return new Set(profile.host.config.servers.filter((server) => server.stateful === true).map((server) => server.name));
}

/** Whether any of the body's requests may reach a stateful server of the profile. */
export async function reachesStatefulServer(messages: readonly unknown[], profile: ProfileHost): Promise<boolean> {
  const stateful = statefulServersOf(profile);
  if (stateful.size === 0) return false;
  for (const message of messages) {
    if (await reachesStateful(message, profile, stateful)) return true;
  }
  return false;
}

/** Whether one request may reach a stateful server; a prompt's server is the one its name was listed for. */
async function reachesStateful(
  message: unknown,
  profile: ProfileHost,
  stateful: ReadonlySet<string>,
): Promise<boolean> {
  const { method, params } = fieldsOf(message);
  if (typeof method !== 'string') return false;
  if (UNNAMED_SERVER_METHODS.has(method)) return true;
  const fields = fieldsOf(params);
  if (method === 'prompts/get') {
    const prompt = typeof fields.name === 'string' ? await promptOf(profile, fields.name) : undefined;
    return prompt !== undefined && stateful.has(prompt.server);
  }
  if (method !== 'tools/call') return false;
  let name = fields.name;
  if (name === CALL_TOOL) name = fieldsOf(fields.arguments).name;
  if (typeof name !== 'string') return false;
  const entry = profile.host.catalog().resolve(name);
  return entry !== undefined && stateful.has(entry.server);
}
