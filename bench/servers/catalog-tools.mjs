/**
 * A stdio MCP server listing the first N tools (default 100) of real servers' published tool lists (the catalog the
 * tool-discovery tests use), named `SERVER_TOOL`; a call answers with the tool's name. For the tools-array
 * token benchmark: a large catalog as real servers describe their tools.
 *
 *   node bench/servers/catalog-tools.mjs [count]
 */
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const count = Number(process.argv[2] ?? 100);
const catalog = JSON.parse(
  readFileSync(new URL('../../test/fixtures/discovery/catalog.json', import.meta.url), 'utf8'),
);
const tools = catalog.servers
  .flatMap((entry) => entry.tools.map((tool) => ({ ...tool, name: `${entry.server}_${tool.name}` })))
  .slice(0, count);

const server = new Server({ name: 'catalog-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', () => ({ tools }));
server.setRequestHandler('tools/call', (request) => ({ content: [{ type: 'text', text: request.params.name }] }));
await server.connect(new StdioServerTransport());
