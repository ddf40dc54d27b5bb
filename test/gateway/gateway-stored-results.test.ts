/**
 * A result cut to its output budget through `mcp-host serve`: the notice names the stored full text and the tool that
 * reads it, and a client of the gateway is offered that tool (announced as a tools change once the first result is
 * stored) and reads the rest with it, as the host's own model would.
 */
import { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { connectGatewayClient } from '../helpers/gateway-client.js';
import { temporaryDirectory } from '../helpers/project.js';

const READ_TOOL = 'mcp-host__read_stored_result';
/** About 10,000 tokens of text, cut to a budget of 500. */
const LONG_TEXT = Array.from({ length: 4_000 }, (_, index) => `line${String(index).padStart(5, '0')}`).join('\n');

let config: string;
beforeAll(async () => {
  config = await writeFixtureServersConfig(
    { media: { file: 'echo-content.mjs', budgets: { echo_content: 500 } } },
    { allowAlso: [READ_TOOL] },
  );
});

describe.each(['stdio', 'http'] as const)('a cut result through the gateway over %s', (over) => {
  it('names its stored full text, which the client reads with the tool it is offered', async () => {
    const client = new Client({ name: 'stored-results-test', version: '1.0.0' });
    let toolsChanged = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      toolsChanged += 1;
    });
    const connection = await connectGatewayClient(client, over, config, await temporaryDirectory('mcp-host-stored-'));
    try {
      const cut = await client.callTool({
        name: 'media__echo_content',
        arguments: { content: [{ type: 'text', text: LONG_TEXT }] },
      });
      const text = (cut.content as Array<{ type: string; text: string }>)[0]!.text;
      expect(text.startsWith('line00000')).toBe(true);
      const notice = /call the tool `([^`]+)` with id "([^"]+)", offset (\d+), length (\d+)/.exec(text);
      expect(notice?.[1]).toBe(READ_TOOL);
      const [, , id, offset, length] = notice!;

      await expect.poll(() => toolsChanged, { timeout: 10_000 }).toBeGreaterThan(0);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain(READ_TOOL);

      const read = await client.callTool({
        name: READ_TOOL,
        arguments: { id, offset: Number(offset), length: Number(length) },
      });
      expect(read.isError).not.toBe(true);
      const rest = (read.content as Array<{ type: string; text: string }>).map((part) => part.text).join('');
      expect(rest).toContain(LONG_TEXT.slice(Number(offset), Number(offset) + 200));
    } finally {
      await connection.close();
    }
  });
});
