/**
 * One downstream client's MCP session with the gateway: a low-level SDK `Server` whose handlers answer from the
 * profile's host. Tools are the host's catalog (withheld tools are absent, names namespaced as the model sees them);
 * every call goes through `host.callTool` and so through the host's duties: rules, pinning, hidden-content checks,
 * argument checks, timeouts with cancellation forwarded, output budget and audit, with the client's identity.
 */

import type { CallToolResult, Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import { Server } from '@modelcontextprotocol/server';
import type { CallingClient } from '../audit/audit-record.js';
import type { ToolCatalog } from '../catalog/tool-catalog.js';
import type { GatewaySettings } from '../config/gateway-settings.js';
import type { ServerTrust } from '../config/types.js';
import { DiscoveryCatalog, discoveryApplies, isMetaTool, metaToolDefinitions } from '../host/tool-discovery.js';
import type { ExecutedToolCall } from '../loop/tool-call-types.js';
import { type DownstreamCall, type ElicitAnswer, withDownstreamCall } from './gateway-approver.js';
import type { ProfileHost } from './gateway-hosts.js';

export const GATEWAY_SERVER_NAME = 'mcp-host-gateway';
/** Prompts and resources keep their server's name in front, as tools do. */
export const NAME_SEPARATOR = '__';

export interface GatewaySessionOptions {
  profile: ProfileHost;
  settings: GatewaySettings;
  version: string;
  /** The token's name, or the OAuth access token's subject, over HTTP. */
  principal?: string;
  /** The OAuth client the access token was issued to. */
  clientId?: string;
  /** `stdio`, or the HTTP session id once known. */
  session: () => string | undefined;
}

function trustOf(profile: ProfileHost, server: string): ServerTrust {
  return profile.host.config.servers.find((entry) => entry.name === server)?.trust ?? 'untrusted';
}

/** The profile's tools of one catalog, and whether they are offered through discovery meta-tools. */
interface Offered {
  catalog: ToolCatalog;
  discovery: DiscoveryCatalog | undefined;
}

const offeredByCatalog = new WeakMap<ProfileHost, Offered>();

/** Built once per catalog: the search index and the token estimate are not redone on every list or call. */
function offeredOf(profile: ProfileHost, catalog: ToolCatalog): Offered {
  const known = offeredByCatalog.get(profile);
  if (known?.catalog === catalog) return known;
  const entries = catalog.entries.filter((entry) => profile.offersTool(entry.name, entry.server));
  const setting = profile.host.config.toolDiscovery ?? 'auto';
  const offered = {
    catalog,
    discovery: discoveryApplies(setting, entries) ? new DiscoveryCatalog(entries) : undefined,
  };
  offeredByCatalog.set(profile, offered);
  return offered;
}

/** The catalog as the client sees it. Annotations are passed on only for trusted servers: they are claims. */
async function listTools(profile: ProfileHost): Promise<Tool[]> {
  const catalog = await profile.host.refreshCatalog();
  const { discovery } = offeredOf(profile, catalog);
  if (discovery !== undefined) {
    return metaToolDefinitions(discovery.entries.length).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as Tool['inputSchema'],
    }));
  }
  return catalog.entries
    .filter((entry) => profile.offersTool(entry.name, entry.server))
    .map((entry) => ({
      name: entry.name,
      ...(entry.tool.title === undefined ? {} : { title: entry.tool.title }),
      description: entry.tool.description ?? '',
      inputSchema: entry.tool.inputSchema,
      ...(entry.tool.annotations !== undefined && trustOf(profile, entry.server) === 'trusted'
        ? { annotations: entry.tool.annotations }
        : {}),
    }));
}

function toCallToolResult(executed: ExecutedToolCall): CallToolResult {
  return {
    content: executed.result.content.map((part) =>
      part.type === 'text'
        ? { type: 'text' as const, text: part.text }
        : { type: 'image' as const, data: part.data, mimeType: part.mimeType },
    ),
    isError: executed.result.isError,
  };
}

function splitName(name: string): { server: string; name: string } | undefined {
  const at = name.indexOf(NAME_SEPARATOR);
  if (at <= 0) return undefined;
  return { server: name.slice(0, at), name: name.slice(at + NAME_SEPARATOR.length) };
}

export function createGatewaySession(options: GatewaySessionOptions): Server {
  const { profile, settings } = options;
  const host = profile.host;
  const server = new Server(
    { name: GATEWAY_SERVER_NAME, version: options.version },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: {},
        prompts: {},
      },
      instructions: `Tools from ${host.config.servers.length} MCP server(s) through mcp-host: names are SERVER__TOOL.`,
    },
  );

  const client = (): CallingClient => {
    const info = server.getClientVersion();
    const session = options.session();
    return {
      name: info?.name ?? 'unknown',
      ...(info?.version === undefined ? {} : { version: info.version }),
      ...(options.principal === undefined ? {} : { principal: options.principal }),
      ...(options.clientId === undefined ? {} : { clientId: options.clientId }),
      ...(session === undefined ? {} : { session }),
    };
  };

  server.setRequestHandler('tools/list', async () => ({ tools: await listTools(profile) }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    let name = request.params.name;
    let args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const { discovery } = offeredOf(profile, host.catalog());
    if (discovery !== undefined && isMetaTool(name)) {
      const answer = discovery.answer(name, args);
      if (answer.kind === 'text') return { content: [{ type: 'text', text: answer.text }], isError: answer.isError };
      // call_tool: the named tool goes through the same checks and call path as a directly listed one.
      name = answer.name;
      args = answer.args;
    }
    const entry = host.catalog().resolve(name);
    if (entry === undefined || !profile.offersTool(name, entry.server)) {
      // Same wording as the host gives the model: the name may be withheld, unknown or outside this profile.
      return { content: [{ type: 'text', text: `Unknown tool "${name}". List the tools again.` }], isError: true };
    }
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const supportsElicitation = server.getClientCapabilities()?.elicitation !== undefined;
    const downstream: DownstreamCall = {
      consent: profile.consent,
      approvalTimeoutMs: settings.approvalTimeoutMs,
      secrets: host.config.secrets,
      ...(supportsElicitation
        ? {
            elicit: async (form, timeoutMs): Promise<ElicitAnswer> =>
              ctx.mcpReq.elicitInput(
                { mode: 'form', message: form.message, requestedSchema: form.requestedSchema },
                { timeout: timeoutMs, signal: ctx.mcpReq.signal },
              ) as Promise<ElicitAnswer>,
          }
        : {}),
    };
    const executed = await withDownstreamCall(downstream, () =>
      host.callTool(name, args, {
        signal: ctx.mcpReq.signal,
        client: client(),
        ...(progressToken === undefined
          ? {}
          : {
              onProgress: (update) => {
                void ctx.mcpReq
                  .notify({
                    method: 'notifications/progress',
                    params: {
                      progressToken,
                      progress: update.progress,
                      ...(update.total === undefined ? {} : { total: update.total }),
                      ...(update.message === undefined ? {} : { message: update.message }),
                    },
                  })
                  .catch(() => undefined);
              },
            }),
      }),
    );
    return toCallToolResult(executed);
  });

  server.setRequestHandler('resources/list', async () => {
    const resources: Resource[] = [];
    for (const listing of await host.resources.list()) {
      if (profile.offersServer(listing.server)) resources.push(...listing.resources);
    }
    return { resources };
  });

  server.setRequestHandler('resources/templates/list', async () => {
    const resourceTemplates: ResourceTemplateType[] = [];
    for (const listing of await host.resources.list()) {
      if (profile.offersServer(listing.server)) resourceTemplates.push(...listing.templates);
    }
    return { resourceTemplates };
  });

  server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params;
    // The first server that lists the URI (or a template's prefix of it) answers; URIs carry no server name.
    const listings = (await host.resources.list()).filter((listing) => profile.offersServer(listing.server));
    const owner =
      listings.find((listing) => listing.resources.some((resource) => resource.uri === uri)) ??
      listings.find((listing) =>
        listing.templates.some((template) => uri.startsWith(template.uriTemplate.split('{')[0] ?? '\u0000')),
      ) ??
      (listings.length === 1 ? listings[0] : undefined);
    if (owner === undefined) throw new Error(`no server of this gateway lists the resource ${uri}`);
    return host.resources.read(owner.server, uri);
  });

  server.setRequestHandler('prompts/list', async () => {
    const prompts: Prompt[] = [];
    for (const listing of await host.prompts.list()) {
      if (!profile.offersServer(listing.server)) continue;
      for (const prompt of listing.prompts) {
        prompts.push({ ...prompt, name: `${listing.server}${NAME_SEPARATOR}${prompt.name}` });
      }
    }
    return { prompts };
  });

  server.setRequestHandler('prompts/get', async (request) => {
    const reference = splitName(request.params.name);
    if (reference === undefined || !profile.offersServer(reference.server)) {
      throw new Error(`no prompt is named "${request.params.name}" (prompt names are SERVER__NAME)`);
    }
    const found = await host.prompts.get(reference, request.params.arguments ?? {});
    return found.result;
  });

  return server;
}
