/**
 * The consent fixture servers served over Streamable HTTP from the test process: one listener per test file
 * (beforeAll), each server at a path of its own, so a host connects through the real protocol instead of starting
 * a server process (each costs most of a CPU-second of module loading). Stateless: each POST gets a fresh server
 * built from the same spec, so hosts of different tests never share a session. For tests about what the host decides
 * with a server's tools, not about stdio or the server's process (those keep the stdio fixtures).
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { RemoteServerConfig } from '../../src/config/types.js';
import { httpServer } from '../helpers/configs.js';
import { answerStatelessMcp } from '../helpers/stateless-mcp-http.js';
import type { ToolSpec } from './consent-helpers.js';

type McpServerLike = Pick<McpServer, 'connect'>;

/** A tool of the schema server: its name and the input schema it declares, unchecked. */
export interface SchemaTool {
  name: string;
  inputSchema: object;
}

export interface HttpFixtures {
  /**
   * Serves the tool set as `tool-set-server.mjs` would for SERVER_LABEL=name: each call answers its `reply` (with
   * `{{args}}` filled in) or `<name>/<tool> <arguments JSON>`, after `delayMs`. `crash` is a process matter: use
   * the stdio fixture. The same name and tools get the same URL.
   */
  toolSet(name: string, tools: ToolSpec[], extra?: Partial<RemoteServerConfig>): RemoteServerConfig;
  /**
   * Serves tools as `schema-server.mjs` does (a new server on each call): exactly the input schemas given, nothing checked, every call answered
   * `received <tool> <arguments JSON>`, plus `calls_received` counting the other calls that arrived.
   */
  schemaTools(name: string, tools: SchemaTool[], extra?: Partial<RemoteServerConfig>): RemoteServerConfig;
  close(): Promise<void>;
}

function toolSetServer(label: string, tools: ToolSpec[]): McpServer {
  const server = new McpServer({ name: `tool-set-${label}`, version: '1.0.0' });
  for (const spec of tools) {
    server.registerTool(
      spec.name,
      {
        ...(spec.description === undefined ? {} : { description: spec.description }),
        inputSchema: z.looseObject({}),
        ...(spec.annotations === undefined ? {} : { annotations: spec.annotations }),
      },
      async (args) => {
        const json = JSON.stringify(args);
        if (spec.delayMs) await new Promise((resolve) => setTimeout(resolve, spec.delayMs));
        const text =
          spec.reply === undefined ? `${label}/${spec.name} ${json}` : spec.reply.replaceAll('{{args}}', json);
        return { content: [{ type: 'text', text }] };
      },
    );
  }
  return server;
}

function schemaServer(tools: SchemaTool[], counter: { received: number }): Server {
  const server = new Server({ name: 'schema-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: [
      ...tools.map((tool) => ({
        name: tool.name,
        description: `Tool ${tool.name}.`,
        // Sent exactly as the test wrote it, even where it is not a valid schema.
        inputSchema: tool.inputSchema as { type: 'object' },
      })),
      { name: 'calls_received', description: 'How many calls arrived.', inputSchema: { type: 'object' as const } },
    ],
  }));
  server.setRequestHandler('tools/call', (request) => {
    const { name, arguments: args } = request.params;
    if (name === 'calls_received') return { content: [{ type: 'text', text: String(counter.received) }] };
    counter.received += 1;
    return { content: [{ type: 'text', text: `received ${name} ${JSON.stringify(args ?? {})}` }] };
  });
  return server;
}

/** Starts the listener; call in beforeAll and close in afterAll. */
export async function startHttpFixtures(): Promise<HttpFixtures> {
  const routes = new Map<string, () => McpServerLike>();
  const http: HttpServer = createServer((request, response) => {
    const route = routes.get(request.url ?? '');
    if (route === undefined) {
      response.writeHead(404).end();
      return;
    }
    answerStatelessMcp(request, response, route);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  // The same server asked for again gets the same URL, so a second host on the same state folder knows it.
  const paths = new Map<string, string>();
  const serve = (key: string, name: string, create: () => McpServerLike, extra: Partial<RemoteServerConfig>) => {
    let path = paths.get(key);
    if (path === undefined) {
      path = `/${routes.size + 1}/${encodeURIComponent(name)}/mcp`;
      paths.set(key, path);
      routes.set(path, create);
    }
    return httpServer(name, `${origin}${path}`, extra);
  };

  return {
    toolSet: (name, tools, extra = {}) => {
      const crashing = tools.find((tool) => tool.crash);
      if (crashing) throw new Error(`${crashing.name}: a server that crashes needs the stdio fixture`);
      return serve(JSON.stringify(['tool-set', name, tools]), name, () => toolSetServer(name, tools), extra);
    },
    schemaTools: (name, tools, extra = {}) => {
      // Each call serves a new server: `calls_received` counts the calls of one test only.
      const counter = { received: 0 };
      return serve(`schema ${paths.size}`, name, () => schemaServer(tools, counter), extra);
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
