/**
 * The MCP server every benchmark talks to, whichever client is measured: a trivial `echo`, a `sleep`
 * that waits without using the CPU, and `big`, which answers a text of a given size. Built on the
 * official server package so the server side is the same for mcp-host, the raw SDK and the peers.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** One 64-byte line; `big` repeats it so building 50 MB costs the server milliseconds, not seconds. */
const LINE = `${'x'.repeat(63)}\n`;

export function bigText(megabytes) {
  const total = Math.round(megabytes * 1024 * 1024);
  const lines = Math.floor(total / LINE.length);
  return LINE.repeat(lines) + '.'.repeat(total - lines * LINE.length);
}

export function createBenchServer(name = 'bench') {
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Answers its text unchanged.',
      inputSchema: z.object({ text: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'sleep',
    {
      description: 'Waits the given number of milliseconds, then answers.',
      inputSchema: z.object({ ms: z.number().int().min(0) }),
      annotations: { readOnlyHint: true },
    },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { content: [{ type: 'text', text: `slept ${ms} ms` }] };
    },
  );
  server.registerTool(
    'big',
    {
      description: 'Answers one text block of the given size in megabytes (1 MB = 1,048,576 characters).',
      inputSchema: z.object({ megabytes: z.number().positive() }),
      annotations: { readOnlyHint: true },
    },
    async ({ megabytes }) => ({ content: [{ type: 'text', text: bigText(megabytes) }] }),
  );
  return server;
}
