/**
 * A tool's structured output through `mcp-host serve`, over stdio and Streamable HTTP, with the official SDK client
 * in front of the built CLI and a real fixture server behind it: the tool's `outputSchema` is listed as the server
 * listed it, and the call's `structuredContent` is passed on, which the client checks against that schema. One over
 * the output budget is refused as an error that names its size and the budget, rather than silently left out. The
 * server's own text blocks beside it reach the client as it sent them (the model is given the JSON instead), held to
 * the same budget. One gateway per transport serves both tests: the calls leave nothing behind that the other could
 * see.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { connectGatewayClient } from '../helpers/gateway-client.js';
import { fixtureServer, temporaryDirectory } from '../helpers/project.js';

/** Small enough that 500 numbers are over it and 5 are well within it. */
const BUDGET_TOKENS = 100;
/** Room for a few short blocks, none for a text of 40,000 characters (about 10,000 tokens). */
const ECHO_BUDGET_TOKENS = 2_000;

let config: string;
/** `numbers` as the fixture itself lists it, to a client connected to it directly. */
let listedByServer: unknown;

beforeAll(async () => {
  config = await writeFixtureServersConfig({
    forwarding: { file: 'forwarding.mjs', budgets: { numbers: BUDGET_TOKENS } },
    media: { file: 'echo-content.mjs', budgets: { echo_structured: ECHO_BUDGET_TOKENS } },
  });
  const direct = new Client({ name: 'structured-content-test', version: '1.0.0' });
  await direct.connect(
    new StdioClientTransport({ command: process.execPath, args: [fixtureServer('forwarding.mjs')] }),
  );
  try {
    listedByServer = (await direct.listTools()).tools.find((tool) => tool.name === 'numbers')?.outputSchema;
  } finally {
    await direct.close();
  }
  expect(listedByServer).toMatchObject({ type: 'object', required: ['count', 'numbers'] });
}, 60_000);

describe.each(['stdio', 'http'] as const)('a tool with structured output, through the gateway over %s', (over) => {
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  let connection: { close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    connection = await connectGatewayClient(
      client,
      over,
      config,
      await temporaryDirectory('mcp-host-structured-state-'),
    );
  }, 90_000);
  afterAll(async () => {
    await connection?.close();
  });

  it('is listed with its outputSchema and answers with its structuredContent; one over the budget is an error', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'forwarding__numbers')?.outputSchema).toEqual(listedByServer);
    // A tool without one is listed without one.
    expect(tools.find((tool) => tool.name === 'forwarding__log')).not.toHaveProperty('outputSchema');

    // The client checks structuredContent against the listed schema, and refuses an answer without it.
    const small = await client.callTool({ name: 'forwarding__numbers', arguments: { count: 5 } });
    expect(small.isError).toBe(false);
    expect(small.structuredContent).toEqual({ count: 5, numbers: [1, 2, 3, 4, 5] });
    expect(small.content).toEqual([{ type: 'text', text: JSON.stringify(small.structuredContent) }]);

    const large = await client.callTool({ name: 'forwarding__numbers', arguments: { count: 500 } });
    expect(large.isError).toBe(true);
    expect(large.structuredContent).toBeUndefined();
    const notice = (large.content as Array<{ type: string; text?: string }>)[0];
    expect(notice?.text).toMatch(
      new RegExp(
        `^The structured result of forwarding__numbers is too large to pass on: about [\\d,]+ tokens \\(\\d+(\\.\\d)? KB of JSON\\), over the output budget of ${BUDGET_TOKENS} tokens for one result`,
      ),
    );
  }, 90_000);

  it("passes on the server's text blocks as it sent them beside the structuredContent; one over the budget stays cut and says so", async () => {
    const structuredContent = { count: 2, items: ['a', 'b'] };
    // Not the JSON of the structuredContent: what the server says about it, in its own words and order.
    const sent = [
      { type: 'text', text: 'Found 2 items:' },
      { type: 'resource_link', uri: 'file:///items/a.txt', name: 'a.txt' },
      { type: 'text', text: '- a\n- b' },
    ];
    const whole = await client.callTool({
      name: 'media__echo_structured',
      arguments: { content: sent, structuredContent },
    });
    expect(whole.isError).toBe(false);
    expect(whole.structuredContent).toEqual(structuredContent);
    expect(whole.content).toEqual(sent);

    const long = [{ type: 'text', text: 'x'.repeat(40_000) }];
    const cut = await client.callTool({
      name: 'media__echo_structured',
      arguments: { content: long, structuredContent },
    });
    expect(cut.isError).toBe(false);
    expect(cut.structuredContent).toEqual(structuredContent);
    const cutContent = cut.content as Array<{ type: string; text: string }>;
    expect(cutContent).toHaveLength(1);
    expect(cutContent[0]?.text).toMatch(
      /^x+\n\n\[… [\d,]+ characters \(about [\d,]+ tokens\) left out here to keep this tool result within its output budget.*\]\n\nx+$/s,
    );
    expect(cutContent[0]?.text.length).toBeLessThan(ECHO_BUDGET_TOKENS * 4);
  }, 90_000);
});
