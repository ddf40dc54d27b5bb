/**
 * A gateway's prompt names are `SERVER__NAME`, and a server's own name may hold `__`: with servers `team` and
 * `team__notes` behind the built CLI's `mcp-host serve`, `team__notes__greet` reaches `greet` of `team__notes`
 * (the longest server name it starts with), for prompts/get and for completion alike.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, temporaryDirectory, writeConfig } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';

let client: Client;

beforeAll(async () => {
  const stateDir = await temporaryDirectory('mcp-host-prompt-names-state-');
  const config = await writeConfig({
    mcpServers: {
      // Listed first and a prefix of the other's name; it has no prompts, so a wrong split cannot find greet there.
      team: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' },
      team__notes: { command: process.execPath, args: [fixtureServer('forwarding.mjs')], trust: 'trusted' },
    },
  });
  client = new Client({ name: 'prompt-names-test', version: '1.0.0' });
  await connectStdioGateway(client, config, stateDir);
}, 60_000);

afterAll(async () => {
  await client?.close();
});

describe('a prompt of a server whose name holds __', () => {
  it('is listed under its server name and reached by it', async () => {
    const listed = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(listed).toEqual(['team__notes__greet']);

    const got = await client.getPrompt({ name: 'team__notes__greet', arguments: { name: 'Ada' } });
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }]);

    const completed = await client.complete({
      ref: { type: 'ref/prompt', name: 'team__notes__greet' },
      argument: { name: 'name', value: 'A' },
    });
    expect(completed.completion.values).toEqual(['Ada', 'Alan']);
  }, 30_000);

  it('is refused when no server has it, naming how prompt names are made', async () => {
    await expect(client.getPrompt({ name: 'team__greet', arguments: {} })).rejects.toThrow();
    await expect(client.getPrompt({ name: 'nosuch__greet', arguments: {} })).rejects.toThrow(
      'no prompt is named "nosuch__greet" (prompt names are SERVER__NAME)',
    );
  }, 30_000);
});
