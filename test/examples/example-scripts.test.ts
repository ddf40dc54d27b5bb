/**
 * The example scripts for the scripted model, played against the real example servers: each turn is
 * answered by the project's script engine, each tool call it makes goes to the compiled server, and
 * the tool's real result is fed back, the way a host's loop does. So a script that names a tool
 * wrongly, passes arguments the server rejects, or hard-codes an answer fails here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerFromScript } from '../../src/testing/answer-from-script.js';
import { loadScript } from '../../src/testing/load-script.js';
import type { ConversationView, Script } from '../../src/testing/script-types.js';
import { connectOverStdio, type ExampleServerName, resultText } from './compiled-servers.js';

const scriptsFolder = fileURLToPath(new URL('../../examples/scripts/', import.meta.url));

/** Host tool names are `<server>__<tool>`, as in a config naming the servers after the examples. */
const SEPARATOR = '__';
/** A script that keeps calling tools past this many turns is broken. */
const MAX_TURNS = 5;

type Servers = Partial<Record<ExampleServerName, Client>>;

interface Played {
  text: string | undefined;
  calls: { name: string; arguments: Record<string, unknown> }[];
}

async function play(script: Script, prompt: string, servers: Servers): Promise<Played> {
  const toolNames: string[] = [];
  for (const [serverName, client] of Object.entries(servers)) {
    const { tools } = await client.listTools();
    toolNames.push(...tools.map((tool) => `${serverName}${SEPARATOR}${tool.name}`));
  }
  const calls: Played['calls'] = [];
  let lastToolResults: ConversationView['lastToolResults'] = [];
  for (let assistantTurns = 0; assistantTurns < MAX_TURNS; assistantTurns++) {
    const view: ConversationView = {
      model: 'scripted',
      stream: false,
      toolNames,
      firstUserText: prompt,
      assistantTurns,
      lastToolResults,
    };
    const answer = answerFromScript(script, view);
    if (answer.kind === 'error') throw new Error(answer.message);
    if (answer.toolCalls.length === 0) return { text: answer.text, calls };
    lastToolResults = await Promise.all(
      answer.toolCalls.map(async (call) => {
        calls.push({ name: call.name, arguments: call.arguments });
        const [serverName, toolName] = call.name.split(SEPARATOR) as [ExampleServerName, string];
        const client = servers[serverName];
        if (client === undefined) throw new Error(`the script calls ${call.name}, but no server ${serverName} runs`);
        const result = await client.callTool({ name: toolName, arguments: call.arguments });
        return { text: resultText(result), isError: result.isError === true };
      }),
    );
  }
  throw new Error(`the script was still calling tools after ${MAX_TURNS} turns`);
}

describe('five-plus-seven script with the calculator', () => {
  let script: Script;
  let calculator: Client;
  beforeAll(async () => {
    script = await loadScript(join(scriptsFolder, 'five-plus-seven.json'));
    calculator = await connectOverStdio('calculator');
  });
  afterAll(async () => {
    await calculator?.close();
  });

  it('answers "What is 5 plus 7?" with the sum the tool computed', async () => {
    const played = await play(script, 'What is 5 plus 7?', { calculator });
    expect(played.calls).toEqual([{ name: 'calculator__add_numbers', arguments: { a: 5, b: 7 } }]);
    expect(played.text).toBe('5 plus 7 is 12.');
  });

  it('takes its numbers from the prompt and the answer from the tool', async () => {
    const played = await play(script, 'quick: 123+877?', { calculator });
    expect(played.text).toBe('123 plus 877 is 1000.');
  });

  it('explains itself and how to use a real model when the prompt is not understood', async () => {
    const played = await play(script, 'Write me a poem', { calculator });
    expect(played.calls).toEqual([]);
    expect(played.text).toMatch(/offline scripted model/);
    expect(played.text).toMatch(/5 plus 7/);
    expect(played.text).toMatch(/ANTHROPIC_API_KEY/);
    expect(played.text).toMatch(/--model anthropic:claude-sonnet-4-6/);
    // Every provider the host has, not only the first one it had.
    expect(played.text).toMatch(/OPENAI_API_KEY/);
    expect(played.text).toMatch(/GEMINI_API_KEY/);
    expect(played.text).toMatch(/ollama:/);
    expect(played.text).not.toMatch(/come later/);
  });

  it('refuses to run without the calculator tool on offer', async () => {
    await expect(play(script, 'What is 5 plus 7?', {})).rejects.toThrow(/calculator__add_numbers/);
  });
});

describe('inventory script with the inventory server', () => {
  let script: Script;
  let folder: string;
  let inventory: Client;
  beforeAll(async () => {
    script = await loadScript(join(scriptsFolder, 'inventory.json'));
    folder = await mkdtemp(join(tmpdir(), 'inventory-script-'));
    inventory = await connectOverStdio('inventory', { INVENTORY_DB: join(folder, 'inventory.db') });
  });
  afterAll(async () => {
    await inventory?.close();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  // In order: each prompt sees the stock the previous ones left.
  it('answers a stock question, a reservation and a refused reservation from the tools', async () => {
    const asked = await play(script, 'How many WIDGET-1 are in stock?', { inventory });
    expect(asked.calls).toEqual([{ name: 'inventory__get_stock_level', arguments: { sku: 'WIDGET-1' } }]);
    expect(asked.text).toBe('The inventory server says: 10 units of WIDGET-1 in stock.');

    const reserved = await play(script, 'Reserve 2 WIDGET-1', { inventory });
    expect(reserved.calls).toEqual([{ name: 'inventory__reserve', arguments: { sku: 'WIDGET-1', quantity: 2 } }]);
    expect(reserved.text).toMatch(
      /^The reservation's result:\n\n> reserved 2 units of WIDGET-1: reservation \d+, 8 left in stock$/,
    );

    const refused = await play(script, 'Please reserve 9 units of WIDGET-1', { inventory });
    expect(refused.text).toMatch(/^The reservation's result:\n\n> insufficient stock: 8 left.*nothing was reserved$/);

    const listed = await play(script, 'What is in stock?', { inventory });
    expect(listed.calls).toEqual([{ name: 'inventory__list_skus', arguments: {} }]);
    expect(listed.text).toMatch(/"sku":"WIDGET-1","name":"Widget","stock":8/);
  });

  it('explains itself when the prompt is not understood', async () => {
    const played = await play(script, 'Hello', { inventory });
    expect(played.calls).toEqual([]);
    expect(played.text).toMatch(/Reserve 2 WIDGET-1/);
    expect(played.text).toMatch(/ANTHROPIC_API_KEY/);
  });
});
