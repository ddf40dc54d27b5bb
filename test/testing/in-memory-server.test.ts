import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInMemoryServerPair } from '../../src/testing/in-memory-server.js';

function echoServer(): McpServer {
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its input', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );
  return server;
}

describe('createInMemoryServerPair', () => {
  it('connects a client to an in-process MCP server and calls its tools', async () => {
    const pair = await createInMemoryServerPair(echoServer());
    try {
      const { tools } = await pair.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['echo']);
      const result = await pair.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
    } finally {
      await pair.close();
    }
  });

  it('stops answering once closed', async () => {
    const pair = await createInMemoryServerPair(echoServer(), { clientName: 'closer' });
    await pair.close();
    await expect(pair.client.callTool({ name: 'echo', arguments: { text: 'late' } })).rejects.toThrow();
  });
});
