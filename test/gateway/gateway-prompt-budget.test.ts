/**
 * A server's prompt through `mcp-host serve` is held to the output budget of one result (`maxResultTokens`), as a
 * call's answer is and as `run --prompt` holds it: all its messages together, each text over it cut with a notice
 * that names the prompt and the stored full text, which the client reads with the tool it is offered; an image that
 * does not fit is named instead; a prompt within it, an embedded resource included, is passed on as the server sent
 * it, and the description of its result while it fits in what the messages left; the `_meta` of its result is not,
 * as a call's is not. Over stdio and Streamable HTTP, the official v2 SDK client in front of the built CLI, a real
 * fixture server behind it.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCut } from '../content/notice.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { connectGatewayClient } from '../helpers/gateway-client.js';
import { temporaryDirectory } from '../helpers/project.js';

const READ_TOOL = 'mcp-host__read_stored_result';
const BUDGET = 1_000;

function textOf(content: { type: string; text?: string }): string {
  if (content.type !== 'text' || content.text === undefined) throw new Error(`not a text: ${content.type}`);
  return content.text;
}

describe.each(['stdio', 'http'] as const)('a server’s prompt through mcp-host serve over %s', (over) => {
  const client = new Client({ name: 'prompt-budget-test', version: '1.0.0' });
  let connection: { close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    const config = await writeFixtureServersConfig(
      { big: { file: 'big-prompt.mjs' } },
      { allowAlso: [READ_TOOL], fields: { maxResultTokens: BUDGET } },
    );
    connection = await connectGatewayClient(client, over, config, await temporaryDirectory('mcp-host-prompt-budget-'));
  }, 90_000);
  afterAll(async () => {
    await connection?.close();
  });

  it('is passed on as the server sent it while it fits the budget of one result', async () => {
    const got = await client.getPrompt({ name: 'big__big_prompt', arguments: { kilobytes: '0' } });
    expect(got.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'BEGIN big prompt\n\nEND big prompt' } },
      { role: 'assistant', content: { type: 'text', text: 'ASSISTANT said this.' } },
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: 'notes://big', mimeType: 'text/plain', text: 'BEGIN big resource\n\nEND big resource' },
        },
      },
    ]);
  }, 30_000);

  it('is cut as a whole to the budget of one result past it, its full text read with the tool offered', async () => {
    const got = await client.getPrompt({ name: 'big__big_prompt', arguments: { kilobytes: '100' } });
    expect(got.messages.map((message) => [message.role, message.content.type])).toEqual([
      ['user', 'text'],
      ['assistant', 'text'],
      ['user', 'text'],
    ]);
    const texts = got.messages.map((message) => textOf(message.content));
    expect(texts[1]).toBe('ASSISTANT said this.');
    // Two texts of 100 KB each, in about 4,000 characters together.
    expect(texts.join('').length).toBeLessThan(4 * BUDGET * 2);
    const prompt = parseCut(texts[0]!);
    const resource = parseCut(texts[2]!);
    expect([prompt.subject, resource.subject]).toEqual(['this prompt', 'this prompt']);
    expect(prompt.head.startsWith('BEGIN big prompt\n')).toBe(true);
    expect(resource.head).toContain('BEGIN big resource\n');

    // Offered once a text was stored, as after a cut call's answer.
    await expect
      .poll(async () => (await client.listTools()).tools.map((tool) => tool.name), { timeout: 10_000 })
      .toContain(READ_TOOL);
    const read = await client.callTool({
      name: READ_TOOL,
      arguments: { id: prompt.resultId, offset: prompt.offset, length: 200 },
    });
    expect(read.isError, JSON.stringify(read.content)).not.toBe(true);
    expect(textOf((read.content as Array<{ type: string; text?: string }>)[0]!)).toMatch(/line \d{7} \.{50}/);
  }, 30_000);

  it('passes on the description of its result while it fits in what the messages left of the budget', async () => {
    const small = await client.getPrompt({
      name: 'big__big_prompt',
      arguments: { kilobytes: '0', descriptionKilobytes: '0' },
    });
    expect(small.description).toBe('BEGIN big description\n\nEND big description');
    // The server's text as much as its messages: a client may give it to its model with them.
    const large = await client.getPrompt({
      name: 'big__big_prompt',
      arguments: { kilobytes: '0', descriptionKilobytes: '100' },
    });
    expect(large.description).toBeUndefined();
    expect(large.messages).toEqual(small.messages);
  }, 30_000);

  it('leaves out the _meta of its result, as a call’s answer leaves out the _meta of its result', async () => {
    const plain = await client.getPrompt({ name: 'big__big_prompt', arguments: { kilobytes: '0' } });
    const got = await client.getPrompt({
      name: 'big__big_prompt',
      arguments: { kilobytes: '0', metaKilobytes: '100' },
    });
    expect(got._meta).toBeUndefined();
    expect(got).toEqual(plain);
  }, 30_000);

  it('names an image that does not fit instead of passing it on', async () => {
    const got = await client.getPrompt({ name: 'big__big_image', arguments: {} });
    expect(got.messages.map((message) => message.content.type)).toEqual(['text', 'text']);
    expect(textOf(got.messages[1]!.content)).toMatch(
      /^\[image left out \(image\/png, .*\): it does not fit in this prompt's output budget of 1,000 tokens\.\]$/,
    );
  }, 30_000);
});
