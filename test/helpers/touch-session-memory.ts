import type { Client } from '@modelcontextprotocol/client';
import { textOf } from './text-of.js';

/**
 * Calls `memory__touch` of the session-memory fixture served as `memory`: it sends an update for each URI it is
 * subscribed to and answers how many it sent.
 */
export async function touchSessionMemory(client: Client): Promise<number> {
  return Number(textOf(await client.callTool({ name: 'memory__touch', arguments: {} })));
}
