/**
 * The names a gateway gives its servers' prompts: `SERVER__NAME`, given as tool names are (tool-naming.ts), so
 * they are distinct. A server's name may hold `__` itself: with servers `a` and `a__b`, `b__x` of `a` and `x` of
 * `a__b` would both be `a__b__x`; the prompt of the server listed first keeps the name and the other takes a hash
 * suffix. A name is therefore taken apart by naming the prompts the profile offers now, not by cutting it.
 */
import type { Prompt } from '@modelcontextprotocol/client';
import { assignToolNames } from '../catalog/tool-naming.js';
import type { ProfileHost } from './gateway-hosts.js';

export interface PromptReference {
  server: string;
  /** The prompt's name on its server. */
  name: string;
}

export interface GatewayPrompt extends PromptReference {
  /** Its name through the gateway. */
  gatewayName: string;
  prompt: Prompt;
}

/**
 * The names the profile's prompts were last listed under. A client asks for a prompt by the name it was given, so
 * that name is looked up first: getting one prompt then asks only its own server, where naming them afresh would ask
 * every server with prompts for its list, and wait for the slowest.
 */
const namesListed = new WeakMap<ProfileHost, Map<string, PromptReference>>();

/** The prompts the profile's servers offer now, each with its gateway name, in the servers' order. */
export async function gatewayPrompts(profile: ProfileHost): Promise<GatewayPrompt[]> {
  const offered: Array<{ server: string; prompt: Prompt }> = [];
  for (const listing of await profile.host.prompts.list()) {
    if (!profile.offersServer(listing.server)) continue;
    const seen = new Set<string>();
    for (const prompt of listing.prompts) {
      // A server listing a name twice: the first is the one its prompts/get finds.
      if (seen.has(prompt.name)) continue;
      seen.add(prompt.name);
      offered.push({ server: listing.server, prompt });
    }
  }
  const named = assignToolNames(
    offered.map(({ server, prompt }) => ({ server, tool: prompt.name })),
    { serverOrder: profile.host.config.servers.map((server) => server.name) },
  );
  const nameOf = new Map(named.map((entry) => [JSON.stringify([entry.server, entry.tool]), entry.name]));
  const prompts = offered.map(({ server, prompt }) => ({
    server,
    name: prompt.name,
    gatewayName: nameOf.get(JSON.stringify([server, prompt.name]))!,
    prompt,
  }));
  namesListed.set(profile, new Map(prompts.map(({ gatewayName, server, name }) => [gatewayName, { server, name }])));
  return prompts;
}

/** The profile's prompt a gateway name stands for, or undefined when none of its prompts has that name. */
export async function promptOf(profile: ProfileHost, gatewayName: string): Promise<PromptReference | undefined> {
  const listed = namesListed.get(profile)?.get(gatewayName);
  if (listed !== undefined && profile.offersServer(listed.server)) return listed;
  const found = (await gatewayPrompts(profile)).find((prompt) => prompt.gatewayName === gatewayName);
  return found === undefined ? undefined : { server: found.server, name: found.name };
}
