/**
 * The baseline of benchmark 6: a minimal raw v2 SDK client doing what `mcp-host tools list` does with one
 * server: start it over stdio, list its tools, print one line per tool, close.
 *   node bench/clients/raw-sdk-tools-list.mjs COMMAND [ARGS…]
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: 'raw-sdk-tools-list', version: '0.0.0' });
await client.connect(new StdioClientTransport({ command, args, stderr: 'pipe' }));
const { tools } = await client.listTools();
for (const tool of tools) process.stdout.write(`${tool.name}  ${tool.description ?? ''}\n`);
await client.close();
