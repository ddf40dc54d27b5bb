import type { Client } from '@modelcontextprotocol/client';
import type { HostConfig } from '../../src/config/types.js';
import { hostConfig, stdioServer } from './configs.js';
import { fixtureServer } from './project.js';
import { textOf } from './text-of.js';

/** A host config of the forwarding fixture server alone (it answers every log level it was asked for), trusted. */
export function forwardingHostConfig(): HostConfig {
  return hostConfig([stdioServer('forwarding', [fixtureServer('forwarding.mjs')], { trust: 'trusted' })]);
}

/** The text `client`'s call of the forwarding fixture's `tool`, without arguments, answered through a gateway. */
export async function callForwarding(client: Client, tool: string): Promise<string> {
  return textOf(await client.callTool({ name: `forwarding__${tool}`, arguments: {} }));
}
