/**
 * How the model reaches resources: two host tools per server that offers them, `mcp-host__<server>__list_resources`
 * and `mcp-host__<server>__read_resource`, in the host's own namespace so no tool a server lists can take their
 * names. The read tool also follows a `resource_link` that one of the server's tools returned (the link's URI is
 * read from the same server). What is read goes through the output budget like a tool result.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import { assignToolNames, TOOL_NAME_SEPARATOR } from '../catalog/tool-naming.js';
import { HOST_TOOL_NAMESPACE } from '../config/reserved-names.js';
import type { ServerConnection } from '../connections/server-connection.js';
import { DEFAULT_RESULT_TOKEN_BUDGET } from '../content/default-result-budget.js';
import { applyOutputBudget } from '../content/output-budget.js';
import type { HostToolHandler, ShapedResult } from '../loop/execute-tool-call.js';
import type { ToolResultPart } from '../providers/types.js';
import {
  describeServerResources,
  listServerResources,
  offersResources,
  readServerResource,
  resourceContentsToParts,
} from './server-resources.js';

const LIST_RESOURCES_TOOL = 'list_resources';
const READ_RESOURCE_TOOL = 'read_resource';

/**
 * Fits parts into the output budget, replacing each part where it is; the host passes one that keeps the full text
 * for `read_stored_result`. `subject` is what the parts are, as the notices name it (`this tool result` unless told).
 */
export type ResultBudget = (parts: ToolResultPart[], subject?: string) => Promise<ToolResultPart[]> | ToolResultPart[];

const defaultResultBudget: ResultBudget = (parts) =>
  applyOutputBudget(parts, { maxTokens: DEFAULT_RESULT_TOKEN_BUDGET }).content;

interface ResourceHostToolsOptions {
  connections: () => Iterable<ServerConnection>;
  budget?: ResultBudget;
}

export interface ResourceHostTools {
  /** Catalog entries for every connected server that offers resources now; updates `handlers` to match. */
  entries(): CatalogEntry[];
  /** The handlers by namespaced name, for the tool-call executor. */
  readonly handlers: ReadonlyMap<string, HostToolHandler>;
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

// Each tool's own name is its catalog name: it has no server-side name that a rule or a record could mistake for
// one of the server's tools.
function listTool(server: string, name: string, readName: string): Tool {
  return {
    name,
    title: `Resources of ${server}`,
    description:
      `List the resources (documents, files, data) that the MCP server "${server}" offers: their URIs, names, ` +
      `types and descriptions, and URI templates whose {variables} you fill in. Read one with ${readName}.`,
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: READ_ONLY,
  };
}

function readTool(server: string, name: string, listName: string): Tool {
  return {
    name,
    title: `Read a resource of ${server}`,
    description:
      `Read one resource of the MCP server "${server}" by its URI: a URI from ${listName}, a URI template with ` +
      `its variables filled in, or the URI of a resource link that one of ${server}'s tools returned.`,
    inputSchema: {
      type: 'object',
      properties: { uri: { type: 'string', description: 'The resource URI, exactly as listed or linked.' } },
      required: ['uri'],
      additionalProperties: false,
    },
    annotations: READ_ONLY,
  };
}

function errorResult(text: string): ShapedResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export function createResourceHostTools(options: ResourceHostToolsOptions): ResourceHostTools {
  const handlers = new Map<string, HostToolHandler>();
  const budget = options.budget ?? defaultResultBudget;
  const byServer = (server: string): ServerConnection | undefined =>
    [...options.connections()].find((connection) => connection.name === server);

  const list =
    (server: string, readName: string): HostToolHandler =>
    async () => {
      const connection = byServer(server);
      if (!connection) return errorResult(`The server "${server}" is not connected.`);
      try {
        const listing = await listServerResources(connection);
        const lines = describeServerResources(listing);
        const heading =
          lines.length === 0
            ? `The server "${server}" lists no resources.`
            : `Resources of the server "${server}" (${listing.resources.length} resources, ${listing.templates.length} URI templates); read one with ${readName}:`;
        return { content: await budget([{ type: 'text', text: [heading, ...lines].join('\n') }]), isError: false };
      } catch (error) {
        return errorResult(`Could not list the resources of "${server}": ${messageOf(error)}`);
      }
    };

  const read =
    (server: string, listName: string): HostToolHandler =>
    async (args) => {
      const uri = args.uri;
      if (typeof uri !== 'string' || uri === '') {
        return errorResult(`"uri" must be a resource URI as a string; list them with ${listName}.`);
      }
      const connection = byServer(server);
      if (!connection) return errorResult(`The server "${server}" is not connected.`);
      try {
        const result = await readServerResource(connection, uri);
        return { content: await budget(resourceContentsToParts(result)), isError: false };
      } catch (error) {
        return errorResult(
          `Could not read ${uri} from "${server}": ${messageOf(error)}. List the resources with ${listName}.`,
        );
      }
    };

  return {
    handlers,
    entries() {
      handlers.clear();
      const servers = [...options.connections()].filter(offersResources).map((connection) => connection.name);
      const names = hostToolNames(servers);
      const entries: CatalogEntry[] = [];
      for (const server of servers) {
        const listName = names.get(`${server}${TOOL_NAME_SEPARATOR}${LIST_RESOURCES_TOOL}`)!;
        const readName = names.get(`${server}${TOOL_NAME_SEPARATOR}${READ_RESOURCE_TOOL}`)!;
        handlers.set(listName, list(server, readName));
        handlers.set(readName, read(server, listName));
        entries.push({ name: listName, server, tool: listTool(server, listName, readName) });
        entries.push({ name: readName, server, tool: readTool(server, readName, listName) });
      }
      return entries;
    },
  };
}

/**
 * The catalog names of every server's resource tools, by `<server>__<tool>`: named as tools of a server called
 * `mcp-host`, all together, so odd server names are made safe and unique the same way servers' own tools are.
 */
function hostToolNames(servers: readonly string[]): Map<string, string> {
  const pairs = servers.flatMap((server) =>
    [LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL].map((tool) => ({
      server: HOST_TOOL_NAMESPACE,
      tool: `${server}${TOOL_NAME_SEPARATOR}${tool}`,
    })),
  );
  return new Map(assignToolNames(pairs).map((entry) => [entry.tool, entry.name]));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
