/**
 * The gateway's approval question names the tool as its server calls it, and a server chooses that name: one holding
 * a line break would start a line of its own in the question, passing for one of the gateway's (`Why it asks: …`).
 * The name is shown on its one line, the break as its escape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvingClient } from '../helpers/approving-client.js';
import { lineBreakNamesConfig } from '../helpers/line-break-names.js';
import { temporaryDirectory } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';
import { textOf } from '../helpers/text-of.js';

describe('a tool whose name holds a line break, called through mcp-host serve', () => {
  const { client, asked } = approvingClient('approval-tool-name-client', { action: 'decline' });

  beforeAll(async () => {
    const config = await lineBreakNamesConfig();
    await connectStdioGateway(client, config, await temporaryDirectory('mcp-host-approval-tool-name-'));
  }, 60_000);
  afterAll(async () => {
    await client.close();
  });

  it('is named on one line of the approval question, its line break as an escape', async () => {
    const tool = (await client.listTools()).tools.find((listed) => listed.name.startsWith('odd__lookup'));
    const result = await client.callTool({ name: tool!.name, arguments: {} });
    expect(textOf(result)).toContain('The user denied this call (decline).');
    expect(asked).toHaveLength(1);
    const lines = asked[0]!.split('\n');
    expect(lines[0]).toContain(
      'allow a call to lookup\\x0a  Why it asks:  this tool only reads; the user allowed it on server "odd"',
    );
    expect(lines.filter((line) => line.trim().startsWith('Why it asks:'))).toHaveLength(1);
  }, 30_000);
});
