/**
 * Over HTTP the gateway's clients are token holders, each with its own user: an approval one of them gives is for
 * its own call. "Always allow" would be kept in the trust store and silence the question for every other client,
 * and for the host's own chat, so the gateway does not offer it there and does not take it unasked. Two official v2
 * SDK clients with different tokens against the built CLI.
 */
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { startGatewayProcess } from '../helpers/gateway-process.js';
import { exampleServer, temporaryDirectory, writeConfig } from '../helpers/project.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

interface Asked {
  offered: string[][];
}

async function connect(url: string, token: string, answers: string[]): Promise<{ client: Client; asked: Asked }> {
  const asked: Asked = { offered: [] };
  const client = new Client(
    { name: `client-${token}`, version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const schema = request.params.mode === 'url' ? undefined : request.params.requestedSchema;
    const decision = schema?.properties.decision as { enum?: string[] } | undefined;
    asked.offered.push(decision?.enum ?? []);
    return { action: 'accept', content: { decision: answers.shift() ?? 'deny' } };
  });
  await client.connect(bearerTransport(url, token));
  cleanups.push(() => client.close());
  return { client, asked };
}

const add = (client: Client) => client.callTool({ name: 'calculator__add_numbers', arguments: { a: 1, b: 2 } });

describe('mcp-host serve --http and "always allow"', () => {
  it("neither offers nor takes it, so one client's answer leaves the next client asked", async () => {
    const stateDir = await temporaryDirectory('mcp-host-gateway-always-');
    const config = await writeConfig({
      // Untrusted: its tools are asked about by the policy, not by a rule, where "always allow" is otherwise offered.
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')] } },
      gateway: {
        tokens: [
          { name: 'alice', sha256: sha256('alice-token-of-enough-length') },
          { name: 'bob', sha256: sha256('bob-token-of-enough-length') },
        ],
      },
    });
    const gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir]);
    cleanups.push(gateway.stop);

    // Alice's client answers "always" although it is not offered: not taken, the call is denied. Then "once".
    const alice = await connect(gateway.url, 'alice-token-of-enough-length', ['allow-always', 'allow-once']);
    expect((await add(alice.client)).isError).toBe(true);
    expect((await add(alice.client)).isError).toBe(false);
    expect(alice.asked.offered).toEqual([
      ['allow-once', 'deny'],
      ['allow-once', 'deny'],
    ]);
    const bob = await connect(gateway.url, 'bob-token-of-enough-length', ['allow-once']);
    expect((await add(bob.client)).isError).toBe(false);
    expect(bob.asked.offered).toHaveLength(1);
  }, 90_000);
});
