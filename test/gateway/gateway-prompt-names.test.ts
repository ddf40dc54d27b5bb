/**
 * A gateway's prompt names are `SERVER__NAME`, and a server's own name may hold `__`: with servers `team` and
 * `team__notes` behind the built CLI's `mcp-host serve`, `team__notes__greet` reaches `greet` of `team__notes`
 * (the longest server name it starts with), for prompts/get and for completion alike. Where two prompts would get
 * one name, one takes a hash suffix, as a tool would, and each is reached by its own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('two prompts that would get one name', () => {
  let both: Client;

  beforeAll(async () => {
    const stateDir = await temporaryDirectory('mcp-host-prompt-names-state-');
    const server = (prompts: string) => ({
      command: process.execPath,
      args: [fixtureServer('forwarding.mjs')],
      env: { PROMPT_NAMES: prompts },
      trust: 'trusted',
    });
    // b__x of a and x of a__b are both a__b__x.
    const config = await writeConfig({ mcpServers: { a: server('b__x'), a__b: server('x') } });
    both = new Client({ name: 'prompt-names-test', version: '1.0.0' });
    await connectStdioGateway(both, config, stateDir);
  }, 60_000);

  afterAll(async () => {
    await both?.close();
  });

  it('are listed under distinct names, the server listed first keeping the plain one, and each is reached', async () => {
    const listed = (await both.listPrompts()).prompts
      .map((prompt) => prompt.name)
      .filter((name) => name.startsWith('a__b__x'));
    expect(listed).toHaveLength(2);
    expect(listed).toContain('a__b__x');
    const other = listed.find((name) => name !== 'a__b__x')!;
    expect(other).toMatch(/^a__b__x_[0-9a-f]{6}$/);

    const texts = async (name: string) =>
      (await both.getPrompt({ name, arguments: {} })).messages.map((message) => message.content);
    expect(await texts('a__b__x')).toEqual([{ type: 'text', text: 'b__x' }]);
    expect(await texts(other)).toEqual([{ type: 'text', text: 'x' }]);
  }, 30_000);
});

describe('getting a prompt by the name it was listed under', () => {
  let client: Client;
  let otherLog: string;

  beforeAll(async () => {
    const stateDir = await temporaryDirectory('mcp-host-prompt-names-state-');
    otherLog = join(stateDir, 'other-events.log');
    const config = await writeConfig({
      mcpServers: {
        notes: { command: process.execPath, args: [fixtureServer('forwarding.mjs')], trust: 'trusted' },
        other: {
          command: process.execPath,
          args: [fixtureServer('forwarding.mjs')],
          env: { EVENT_LOG: otherLog, PROMPT_NAMES: 'other_prompt' },
          trust: 'trusted',
        },
      },
    });
    client = new Client({ name: 'prompt-names-test', version: '1.0.0' });
    await connectStdioGateway(client, config, stateDir);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
  });

  const listingsOfOther = () =>
    readFileSync(otherLog, 'utf8')
      .split('\n')
      .filter((line) => line === 'prompts/list');

  it('asks only the server that has it, not every server for its list', async () => {
    const listed = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(listed).toContain('notes__greet');
    expect(listed).toContain('other__other_prompt');
    const before = listingsOfOther().length;
    expect(before).toBeGreaterThan(0);

    const got = await client.getPrompt({ name: 'notes__greet', arguments: { name: 'Ada' } });
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }]);
    expect(listingsOfOther()).toHaveLength(before);
  }, 30_000);
});
