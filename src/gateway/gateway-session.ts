/**
 * One downstream client's MCP session with the gateway: a low-level SDK `Server` whose handlers answer from the
 * profile's host. Tools are the host's catalog (withheld tools are absent, names namespaced as the model sees them);
 * every call goes through `host.callTool` and so through the host's duties: rules, pinning, hidden-content checks,
 * argument checks, timeouts with cancellation forwarded, output budget and audit, with the client's identity.
 */

import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  Implementation,
  LoggingLevel,
  Prompt,
  Resource,
  ResourceTemplateType,
  ServerContext,
  ServerNotification,
  Tool,
} from '@modelcontextprotocol/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  inputRequired,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
} from '@modelcontextprotocol/server';
import type { CallingClient } from '../audit/audit-record.js';
import type { CatalogEntry, ToolCatalog } from '../catalog/tool-catalog.js';
import { toolUiOf } from '../catalog/tool-ui.js';
import { offersSubscriptions } from '../client-features/server-resources.js';
import type { GatewaySettings } from '../config/gateway-settings.js';
import type { ServerTrust } from '../config/types.js';
import { asCallOf } from '../connections/call-being-made.js';
import { DiscoveryCatalog, discoveryApplies, isMetaTool, metaToolDefinitions } from '../host/tool-discovery.js';
import { unescapePrototypeKeys } from '../json/escape-prototype-keys.js';
import type { ExecutedToolCall } from '../loop/tool-call-types.js';
import { unknownToolText } from '../loop/unknown-tool-text.js';
import { closeNames } from '../text/close-names.js';
import { callWarning } from './call-warnings.js';
import {
  ApprovalInputRequired,
  type DownstreamCall,
  type ElicitAnswer,
  withDownstreamCall,
} from './gateway-approver.js';
import type { ProfileHost } from './gateway-hosts.js';
import { GatewayServer } from './gateway-server.js';
import { modernClientKey } from './modern-client-key.js';
import { acceptsLevel, atLeast, type DownstreamSession, loggingLevelOf } from './profile-sessions.js';
import { gatewayPrompts, promptOf } from './prompt-names.js';
import { contentPassedOn, promptPassedOn } from './server-content-blocks.js';
import { structuredContentOf } from './structured-content.js';

const GATEWAY_SERVER_NAME = 'mcp-host-gateway';
/**
 * How long a 2026-07-28 client's level counts for the servers' after its last request asking for it. It names its
 * level on every request, so this need only span the gaps between them: the servers are not asked up and down around
 * each call of a client that calls now and then.
 */
const MODERN_LEVEL_KEPT_MS = 5 * 60_000;

interface GatewaySessionOptions {
  profile: ProfileHost;
  settings: GatewaySettings;
  version: string;
  /** The token's name, or the OAuth access token's subject, over HTTP. */
  principal?: string;
  /** The OAuth client the access token was issued to. */
  clientId?: string;
  /** `stdio`, or the HTTP session id once known. */
  session: () => string | undefined;
  /** Over stateful HTTP: whether the client has ever had its standing stream (see standing-streams.ts). */
  hadStandingStream?: () => boolean;
  /** False where a session lasts one request (stateless HTTP): nothing would be left to send updates to. */
  resourceSubscriptions?: boolean;
  /** Over stdio: the client is the machine's own user's, whose "always allow" may be kept (see gateway-approver.ts). */
  mayAlwaysAllow?: boolean;
  /** `modern`: serving one request of the 2026-07-28 revision, where an approval is asked by `input_required`. */
  era?: 'legacy' | 'modern';
  /** How long a 2026-07-28 client's level counts after its last request asking for it (default MODERN_LEVEL_KEPT_MS). */
  modernLevelKeptMs?: number;
  /**
   * Where a session lasts one request (stateless HTTP): the log level its client asked for before, and how a new one
   * is kept for its later requests. Its servers' log messages then reach it on its calls' own streams.
   */
  requestLogging?: {
    level: LoggingLevel | undefined;
    remember(level: LoggingLevel): Promise<void>;
    /** How long the session lasts unused: its level counts that long for the level the servers are asked for. */
    keptForMs: number;
  };
}

/** The key of the approval in an `input_required` result and in the retry's `inputResponses`. */
const APPROVAL_INPUT = 'approval';

function elicitAnswerOf(value: unknown): ElicitAnswer | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { action, content } = value as { action?: unknown; content?: unknown };
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return undefined;
  return typeof content === 'object' && content !== null && !Array.isArray(content)
    ? { action, content: content as Record<string, unknown> }
    : { action };
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

/**
 * The profile's tools a client may call. An MCP App's own tools (`_meta.ui.visibility: ["app"]`) are left out: the
 * host refuses them to any caller but a view, and a client would hand them to its model.
 */
function callableEntries(profile: ProfileHost, catalog: ToolCatalog): CatalogEntry[] {
  return catalog.entries.filter(
    (entry) => profile.offersTool(entry.name, entry.server) && !toolUiOf(entry.tool).appOnly,
  );
}

/** Built once per catalog: the search index and the token estimate are not redone on every list or call. */
function offeredOf(profile: ProfileHost, catalog: ToolCatalog): Offered {
  const known = offeredByCatalog.get(profile);
  if (known?.catalog === catalog) return known;
  const entries = callableEntries(profile, catalog);
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
  return callableEntries(profile, catalog).map((entry) => ({
    name: entry.name,
    ...(entry.tool.title === undefined ? {} : { title: entry.tool.title }),
    description: entry.tool.description ?? '',
    inputSchema: entry.tool.inputSchema,
    ...(entry.tool.outputSchema === undefined ? {} : { outputSchema: entry.tool.outputSchema }),
    ...(entry.tool.annotations !== undefined && trustOf(profile, entry.server) === 'trusted'
      ? { annotations: entry.tool.annotations }
      : {}),
  }));
}

/**
 * The budgeted content (the server's text blocks, even beside a `structuredContent`: see map-tool-result.ts), with
 * the server's audio, resource links and embedded resources that fit the same budget (see server-content-blocks.ts),
 * and the server's `structuredContent` when it sent one that fits it.
 */
function toCallToolResult(executed: ExecutedToolCall, toolName: string): CallToolResult {
  const content = contentPassedOn(executed);
  const structured = structuredContentOf(executed, toolName);
  if (structured.kind === 'too-large') {
    return { content: [{ type: 'text', text: structured.text }, ...content], isError: true };
  }
  return {
    content,
    ...(structured.kind === 'kept' ? { structuredContent: structured.structuredContent } : {}),
    isError: executed.result.isError,
  };
}

export function createGatewaySession(options: GatewaySessionOptions): Server {
  const { profile, settings } = options;
  const host = profile.host;
  // Only when a server has subscriptions to offer, and over a connection that lasts (not stateless HTTP) or on the
  // 2026-07-28 revision's listen streams, which this capability announces there (it has no `resources/subscribe`).
  const subscribable =
    (options.resourceSubscriptions !== false || options.era === 'modern') && anyOffersSubscriptions(profile);
  const server = new GatewayServer(
    { name: GATEWAY_SERVER_NAME, version: options.version },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true, ...(subscribable ? { subscribe: true } : {}) },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
      instructions: `Tools from ${host.config.servers.length} MCP server(s) through mcp-host: names are SERVER__TOOL.`,
    },
  );

  /**
   * Who is calling and what it can answer. A 2026-07-28 request says so in its own `_meta`: over stdio one server
   * serves every request of the connection and is never told at an `initialize`.
   */
  const requestClient = (envelope: unknown): { info?: Implementation; capabilities?: ClientCapabilities } => {
    const claimed = options.era === 'modern' ? (envelope as Record<string, unknown> | undefined) : undefined;
    const info = (claimed?.[CLIENT_INFO_META_KEY] as Implementation | undefined) ?? server.getClientVersion();
    const capabilities =
      (claimed?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
    // Keys set one by one: asked on every call, and on Node 20 a key added after a leading spread costs microseconds.
    const known: { info?: Implementation; capabilities?: ClientCapabilities } = {};
    if (info !== undefined) known.info = info;
    if (capabilities !== undefined) known.capabilities = capabilities;
    return known;
  };

  const client = (envelope: unknown): CallingClient => {
    const info = requestClient(envelope).info;
    const session = options.session();
    return {
      name: info?.name ?? 'unknown',
      ...(info?.version === undefined ? {} : { version: info.version }),
      ...(options.principal === undefined ? {} : { principal: options.principal }),
      ...(options.clientId === undefined ? {} : { clientId: options.clientId }),
      ...(session === undefined ? {} : { session }),
    };
  };

  const session: DownstreamSession = { server };
  if (options.hadStandingStream !== undefined) session.hadStandingStream = options.hadStandingStream;
  if (options.requestLogging !== undefined) {
    session.callStreamsOnly = { client: options.session() ?? '' };
    if (options.requestLogging.level !== undefined) session.logLevel = options.requestLogging.level;
  }
  // Nothing outside a request says what level this client wants: it hears log messages on its requests only.
  if (options.era === 'modern') session.callStreamsOnly = { client: options.session() };
  /**
   * Counts a client's level towards the one the servers are asked for, for `keptForMs` from now, as a stateless
   * client's is kept between its requests (see profile-sessions.ts `storedLevel`): when they were asked for a more
   * severe one, they are asked for it, and its calls wait for the server each goes to. Answers whether they were.
   */
  const countLevel = (client: string, level: LoggingLevel, keptForMs: number): boolean => {
    const serversLevel = profile.sessions.storedLevel(client, level, keptForMs);
    if (serversLevel === undefined) return false;
    void profile.host.setServersLoggingLevel(serversLevel).catch(() => undefined);
    return true;
  };
  // A stateless client's level, set on an earlier request (here or at another replica), holds the servers to it.
  const storedLevel = options.requestLogging?.level;
  const levelRaised =
    storedLevel !== undefined &&
    options.requestLogging !== undefined &&
    countLevel(options.session() ?? '', storedLevel, options.requestLogging.keptForMs);
  // A 2026-07-28 client names its level on each request, so its level counts as a stateless client's does, by who
  // sends it (the connection over stdio).
  const modernClient = modernClientKey(options.session(), options.principal, options.clientId);

  /** The level a 2026-07-28 request asks for in its `_meta` (the SDK refuses one naming no level of the specification). */
  const requestLevel = (ctx: ServerContext): LoggingLevel | undefined =>
    loggingLevelOf((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[LOG_LEVEL_META_KEY]);

  /**
   * Whether the client of this request wants log messages of a level. A 2026-07-28 request says so in its own
   * `_meta`; one that names none wants none.
   */
  const acceptsOf = (ctx: ServerContext): ((level: LoggingLevel) => boolean) => {
    if (options.era !== 'modern') return (level) => acceptsLevel(session, level);
    const threshold = requestLevel(ctx);
    return (level) => threshold !== undefined && atLeast(level, threshold);
  };

  /**
   * What a call of this request to `server` waits for: that server asked for its client's level, where the servers
   * were not. Not the others: one slow to answer would hold back calls to the rest.
   */
  const serverReadyFor = (ctx: ServerContext, server: string): Promise<void> | undefined => {
    const level = options.era === 'modern' ? requestLevel(ctx) : undefined;
    const raised =
      options.era === 'modern'
        ? level !== undefined && countLevel(modernClient, level, options.modernLevelKeptMs ?? MODERN_LEVEL_KEPT_MS)
        : levelRaised;
    return raised ? profile.host.serverLoggingLevelAsked(server) : undefined;
  };
  // Only a server that serves a transport is closed by its transport, which takes the session out again.
  server.onconnect = () => profile.sessions.add(session);
  const previousOnClose = server.onclose;
  server.onclose = () => {
    profile.sessions.remove(session);
    void profile.subscriptions.sessionClosed(session);
    previousOnClose?.();
  };

  /**
   * Runs `work`, this client's request forwarded to `server` (a tool call, a prompt, a resource read, a completion),
   * as a call of this client's in progress: a server's sampling or elicitation request or log message that comes with
   * it is this client's and no other's, and goes on this request's own response stream, as do the messages `work`
   * gives `notify`, in order and before the answer (see profile-sessions.ts).
   */
  const asClientCall = async <T>(
    to: string,
    ctx: ServerContext,
    work: (notify: (notification: ServerNotification) => void, accepts: (level: LoggingLevel) => boolean) => Promise<T>,
  ): Promise<T> => {
    let notified = Promise.resolve();
    const notify = (notification: ServerNotification): void => {
      notified = notified.then(() => ctx.mcpReq.notify(notification)).catch(() => undefined);
    };
    const accepts = acceptsOf(ctx);
    // The server first asked for this client's level, should the servers have been asked for a more severe one.
    const ready = serverReadyFor(ctx, to);
    if (ready !== undefined) await ready;
    const inProgress = profile.sessions.callStarted(to, session, {
      sampling: (params, options) =>
        ctx.mcpReq.requestSampling(params, { ...options, relatedRequestId: ctx.mcpReq.id }),
      elicit: (params, options) => ctx.mcpReq.elicitInput(params, { ...options, relatedRequestId: ctx.mcpReq.id }),
      log: (params) => notify({ method: 'notifications/message', params }),
      accepts,
    });
    try {
      // Made in the call's name, so that what a server sends with it is known to be this client's.
      const answer = await asCallOf(inProgress.call, () => work(notify, accepts));
      // The answer closes the request's stream: messages still on their way would be dropped after it.
      await notified;
      return answer;
    } finally {
      inProgress.ended();
    }
  };

  server.setRequestHandler('tools/list', async () => ({ tools: await listTools(profile) }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    let name = request.params.name;
    // Renamed when the message was read, so that the library's check kept them (see
    // keep-prototype-keys-of-arguments.ts).
    let args = unescapePrototypeKeys((request.params.arguments ?? {}) as Record<string, unknown>);
    const { discovery } = offeredOf(profile, host.catalog());
    if (discovery !== undefined && isMetaTool(name)) {
      const answer = await discovery.answer(name, args);
      if (answer.kind === 'text') return { content: [{ type: 'text', text: answer.text }], isError: answer.isError };
      // call_tool: the named tool goes through the same checks and call path as a directly listed one.
      name = answer.name;
      args = answer.args;
    }
    const entry = host.catalog().resolve(name);
    if (entry === undefined || !profile.offersTool(name, entry.server) || toolUiOf(entry.tool).appOnly) {
      // As the host tells its own model, with close names only among the tools this client may call: the name may
      // be withheld, unknown or outside this profile.
      const close = closeNames(
        name,
        callableEntries(profile, host.catalog()).map((callable) => callable.name),
        3,
      );
      return {
        content: [{ type: 'text', text: `${unknownToolText(name, close)} List the tools again.` }],
        isError: true,
      };
    }
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const supportsElicitation = requestClient(ctx.mcpReq.envelope).capabilities?.elicitation !== undefined;
    const downstream: DownstreamCall = {
      consent: profile.consent,
      approvalTimeoutMs: settings.approvalTimeoutMs,
      secrets: host.config.secrets,
      mayAlwaysAllow: options.mayAlwaysAllow === true,
      ...(!supportsElicitation
        ? {}
        : options.era === 'modern'
          ? {
              // The answer comes with the client's retry of this call; without one, the call returns the question.
              elicit: async (form): Promise<ElicitAnswer> => {
                const answer = elicitAnswerOf(ctx.mcpReq.inputResponses?.[APPROVAL_INPUT]);
                if (answer === undefined) throw new ApprovalInputRequired(form);
                return answer;
              },
            }
          : {
              elicit: async (form, timeoutMs): Promise<ElicitAnswer> =>
                ctx.mcpReq.elicitInput(
                  { mode: 'form', message: form.message, requestedSchema: form.requestedSchema },
                  { timeout: timeoutMs, signal: ctx.mcpReq.signal, relatedRequestId: ctx.mcpReq.id },
                ) as Promise<ElicitAnswer>,
            }),
    };
    // The approval question above, and a server's sampling or elicitation request put to this call, are sent related
    // to this request, as its progress and log messages are: over Streamable HTTP they go on this request's own
    // response stream, which the client reads, not on the standing GET stream the SDK would use, which a client need
    // not open and which would not tell a gateway in front of this one whose call they are.
    let executed: ExecutedToolCall;
    try {
      executed = await asClientCall(entry.server, ctx, (notify, accepts) =>
        withDownstreamCall(downstream, () =>
          host.callTool(name, args, {
            signal: ctx.mcpReq.signal,
            client: client(ctx.mcpReq.envelope),
            // What `tools call` prints as it goes, this client hears on the call's stream, at the level it set.
            onWarning: (message) => {
              if (accepts('warning')) notify(callWarning(message));
            },
            ...(progressToken === undefined
              ? {}
              : {
                  onProgress: (update) =>
                    notify({
                      method: 'notifications/progress',
                      params: {
                        progressToken,
                        progress: update.progress,
                        ...(update.total === undefined ? {} : { total: update.total }),
                        ...(update.message === undefined ? {} : { message: update.message }),
                      },
                    }),
                }),
          }),
        ),
      );
    } catch (error) {
      if (!(error instanceof ApprovalInputRequired)) throw error;
      const { message, requestedSchema } = error.elicitation;
      return inputRequired({ inputRequests: { [APPROVAL_INPUT]: inputRequired.elicit({ message, requestedSchema }) } });
    }
    return toCallToolResult(executed, name);
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

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const { uri } = request.params;
    const owner = await resourceOwner(profile, uri);
    if (owner === undefined) throw new Error(`no server of this gateway lists the resource ${uri}`);
    return asClientCall(owner, ctx, () => host.resources.read(owner, uri));
  });

  if (subscribable && options.era !== 'modern') {
    server.setRequestHandler('resources/subscribe', async (request) => {
      const { uri } = request.params;
      await profile.subscriptions.subscribe(session, await subscribableOwner(profile, uri), uri);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', async (request) => {
      await profile.subscriptions.unsubscribe(session, request.params.uri);
      return {};
    });
  }

  server.setRequestHandler('prompts/list', async () => {
    const prompts: Prompt[] = (await gatewayPrompts(profile)).map(({ prompt, gatewayName }) => ({
      ...prompt,
      name: gatewayName,
    }));
    return { prompts };
  });

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const reference = await promptOf(profile, request.params.name);
    if (reference === undefined) {
      throw new Error(`no prompt is named "${request.params.name}" (prompt names are SERVER__NAME)`);
    }
    // Held to the output budget of one result, as a call's answer is and as `run --prompt` holds it.
    const found = await asClientCall(reference.server, ctx, () =>
      host.prompts.budgeted(reference, request.params.arguments ?? {}),
    );
    return promptPassedOn(found);
  });

  // The level this client wants is kept for it; the servers are asked for the most verbose any client wants.
  server.setRequestHandler('logging/setLevel', async (request) => {
    const level = profile.sessions.setLevel(session, request.params.level, options.requestLogging?.keptForMs);
    // Asked even when keeping the level for the client's later requests fails: it counts on this replica already.
    await Promise.all([
      level === undefined ? undefined : profile.host.setServersLoggingLevel(level),
      options.requestLogging?.remember(request.params.level),
    ]);
    return {};
  });

  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const { ref, argument, context } = request.params;
    // A prompt's name loses its server's prefix on the way; a template is the server's own.
    const prompt = ref.type === 'ref/prompt' ? await promptOf(profile, ref.name) : undefined;
    const server = ref.type === 'ref/prompt' ? prompt?.server : await templateOwner(profile, ref.uri);
    const client = server === undefined ? undefined : host.connection(server)?.sdkClient;
    if (server === undefined || client === undefined || client.getServerCapabilities()?.completions === undefined) {
      return NO_COMPLETIONS;
    }
    const result = await asClientCall(server, ctx, () =>
      client.complete(
        {
          ref: prompt === undefined ? ref : { type: 'ref/prompt', name: prompt.name },
          argument,
          ...(context === undefined ? {} : { context }),
        },
        { signal: ctx.mcpReq.signal },
      ),
    );
    const values = result.completion.values.filter((value) => typeof value === 'string');
    return {
      completion: {
        values: values.slice(0, MAX_COMPLETIONS),
        ...(result.completion.total === undefined ? {} : { total: result.completion.total }),
        hasMore: values.length > MAX_COMPLETIONS || result.completion.hasMore === true,
      },
    };
  });

  return server;
}

/** The specification's cap on values in one completion answer. */
const MAX_COMPLETIONS = 100;
const NO_COMPLETIONS: CompleteResult = { completion: { values: [], hasMore: false } };

/** The first server that lists the URI (or a template's prefix of it) owns it; URIs carry no server name. */
async function resourceOwner(profile: ProfileHost, uri: string): Promise<string | undefined> {
  const listings = (await profile.host.resources.list()).filter((listing) => profile.offersServer(listing.server));
  const owner =
    listings.find((listing) => listing.resources.some((resource) => resource.uri === uri)) ??
    listings.find((listing) =>
      listing.templates.some((template) => uri.startsWith(template.uriTemplate.split('{')[0] ?? '\u0000')),
    ) ??
    (listings.length === 1 ? listings[0] : undefined);
  return owner?.server;
}

/** The server that owns `uri` and lets clients subscribe to it; otherwise an error naming what is missing. */
export async function subscribableOwner(profile: ProfileHost, uri: string): Promise<string> {
  const owner = await resourceOwner(profile, uri);
  if (owner === undefined) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no server of this gateway lists the resource ${uri}`);
  }
  const connection = profile.host.connection(owner);
  if (connection === undefined || !offersSubscriptions(connection)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `server "${owner}", which lists the resource ${uri}, does not offer resource subscriptions${connection?.state === 'connected' ? '' : ` (it is ${connection?.state ?? 'not running'})`}`,
    );
  }
  return owner;
}

/** Whether any of the profile's servers lets clients subscribe to its resources. */
function anyOffersSubscriptions(profile: ProfileHost): boolean {
  return profile.host.config.servers.some((entry) => {
    const connection = profile.host.connection(entry.name);
    return connection !== undefined && offersSubscriptions(connection);
  });
}

/** Templates are passed through unchanged, so the server that lists the same template owns it. */
async function templateOwner(profile: ProfileHost, uriTemplate: string): Promise<string | undefined> {
  for (const listing of await profile.host.resources.list()) {
    if (!profile.offersServer(listing.server)) continue;
    if (listing.templates.some((template) => template.uriTemplate === uriTemplate)) return listing.server;
  }
  return undefined;
}
