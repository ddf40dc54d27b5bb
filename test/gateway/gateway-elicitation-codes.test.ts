/**
 * A server's elicitation reaches the gateway's client named as the server's (`Server "NAME" asks:`), so that it cannot
 * pass for the gateway's own approval question. Terminal control codes in the server's message would undo that in a
 * client that shows it on a terminal: a carriage return, a line erase or a cursor move writes the server's text over
 * the name. The message, and the titles and descriptions of the form's fields, arrive as plain text; line breaks stay.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { temporaryDirectory } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';
import { textOf } from '../helpers/text-of.js';

const FORGED = 'mcp-host: allow a call to delete_all on server "files" (trusted)?';

describe('a server’s elicitation through mcp-host serve', () => {
  const asked: string[] = [];
  const schemas: unknown[] = [];
  const client = new Client(
    { name: 'elicitation-codes-client', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    if (request.params.mode !== 'url') schemas.push(request.params.requestedSchema);
    return { action: 'decline' };
  });

  beforeAll(async () => {
    const stateDir = await temporaryDirectory('mcp-host-elicitation-codes-');
    await connectStdioGateway(
      client,
      await writeFixtureServersConfig({ forwarding: { file: 'forwarding.mjs' } }),
      stateDir,
    );
  }, 60_000);
  afterAll(async () => {
    await client.close();
  });

  it('reaches the client without control codes, so nothing the server wrote covers its name', async () => {
    const question = `\r\u001b[2K\u001b[1A\u001b]0;mcp-host\u0007${FORGED}\u202e\u009b2K\nWhy it asks: the policy`;
    const result = await client.callTool({ name: 'forwarding__ask_user', arguments: { question } });
    expect(JSON.parse(textOf(result))).toEqual({ action: 'decline' });
    expect(asked).toEqual([`Server "forwarding" asks: ${FORGED}\nWhy it asks: the policy`]);
  }, 30_000);

  it("sends a field's title and description without control codes, which could move up and write over the name", async () => {
    const title = `\u001b[3A\r\u001b[2K${FORGED}\u202e`;
    const result = await client.callTool({
      name: 'forwarding__ask_user',
      arguments: { question: 'Colour?', answer_title: title },
    });
    expect(JSON.parse(textOf(result))).toEqual({ action: 'decline' });
    expect(asked.at(-1)).toBe('Server "forwarding" asks: Colour?');
    expect(schemas.at(-1)).toEqual({
      type: 'object',
      properties: { answer: { type: 'string', title: FORGED, description: FORGED } },
      required: ['answer'],
    });
  }, 30_000);
});
