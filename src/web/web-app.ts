/**
 * The HTTP application: the guard and security headers on every request, the JSON API under /api, the live event
 * stream, and the built browser app for everything else. Each route wraps one library call on the host; none
 * re-implements a host duty (policy, pinning, bounds and audit all happen inside the host).
 */

import type { HttpBindings } from '@hono/node-server';
import { Hono, type MiddlewareHandler } from 'hono';
import { streamSSE } from 'hono/streaming';
import { toolUiOf } from '../catalog/tool-ui.js';
import { completePromptArgument } from '../client-features/complete-argument.js';
import { PromptChoiceError } from '../client-features/server-prompts.js';
import { offersSubscriptions } from '../client-features/server-resources.js';
import type { Host } from '../host/create-host.js';
import { ServerControlError } from '../host/server-controls.js';
import type {
  ApprovalAnswerBody,
  AuditEntryView,
  CallToolBody,
  ChatBody,
  CompleteBody,
  HostStateView,
  OpenViewBody,
  PromptView,
  ResourceTemplateView,
  ResourceView,
  RunningTurnView,
  ServerLogView,
  TrustChangeBody,
  ViewCallBody,
  WholeArgumentsView,
} from './api-types.js';
import { type AppViews, resultForView, ViewError } from './app-views.js';
import { ChatBusyError, type ChatRunner, ChatSessionError } from './chat-runner.js';
import type { LiveEvents } from './live-events.js';
import { PendingEvents } from './pending-events.js';
import { apiTokenGuard, requestGuard, securityHeaders } from './request-guard.js';
import { type ResourceSubscriptions, TooManySubscriptions } from './resource-subscriptions.js';
import { skillsView } from './skills-view.js';
import { staticFiles } from './static-files.js';
import { ViewNotApprovedError } from './view-pinning.js';
import { callResultView, serverViews, toolsView, trustViews } from './views.js';
import { refusalOf, type WebApprover } from './web-approver.js';
import { TrustChangeError, type WebTrust } from './web-trust.js';

interface WebAppContext {
  token: string;
  hosts: () => ReadonlySet<string>;
  assetFolder: string;
  state(): HostStateView;
  host(): Host | undefined;
  approver: WebApprover;
  events: LiveEvents;
  trust: WebTrust;
  chat: ChatRunner;
  subscriptions: ResourceSubscriptions;
  /** The latest server log messages, oldest first. */
  serverLogs(): readonly ServerLogView[];
  auditHistory(): Promise<AuditEntryView[]>;
  /** MCP Apps views the page opened, and the origin that serves them. */
  views: AppViews;
  sandboxOrigin(): string | undefined;
}

/** Request bodies are small JSON; anything larger is refused as it arrives, before it is all read. */
const MAX_BODY_BYTES = 1024 * 1024;
const LOG_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

class BadRequest extends Error {}

class NotReady extends Error {
  constructor() {
    super('The host is still starting (it may be waiting for an approval).');
  }
}

class BodyTooLarge extends Error {
  constructor() {
    super(`The request body is larger than the limit of ${MAX_BODY_BYTES} bytes (1 MiB).`);
  }
}

/** The body's text, read only up to the limit: a larger one (declared or sent) is refused without reading the rest. */
async function boundedText(request: Request): Promise<string> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) throw new BodyTooLarge();
  const reader = request.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Each API request's body, read within the limit before its route runs. */
const bodies = new WeakMap<Request, string>();

/**
 * Reads the body of every API request that may carry one, within the limit, whether or not its route reads it: a
 * route that takes none does not answer a body past the limit as if it were not there.
 */
function boundedBodies(): MiddlewareHandler {
  return async (context, next) => {
    const request = context.req.raw;
    if (request.method !== 'GET' && request.method !== 'HEAD') bodies.set(request, await boundedText(request));
    await next();
  };
}

async function jsonBody<T>(request: Request): Promise<T> {
  if (!(request.headers.get('content-type') ?? '').startsWith('application/json')) {
    throw new BadRequest('The body must be JSON (Content-Type: application/json).');
  }
  const text = bodies.get(request) ?? (await boundedText(request));
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as T;
  } catch {
    throw new BadRequest('The body is not a JSON object.');
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createWebApp(context: WebAppContext): Hono {
  const app = new Hono();
  app.use('*', securityHeaders(context.sandboxOrigin));
  app.use('*', requestGuard({ hosts: context.hosts }));
  app.use('/api/*', apiTokenGuard({ token: context.token }));
  app.use('/api/*', boundedBodies());
  app.onError((error, c) => {
    if (error instanceof BadRequest) return c.json({ error: error.message }, 400);
    if (error instanceof BodyTooLarge) return c.json({ error: error.message }, 413);
    if (error instanceof NotReady) return c.json({ error: error.message }, 503);
    if (
      error instanceof TrustChangeError ||
      error instanceof PromptChoiceError ||
      error instanceof ServerControlError
    ) {
      return c.json({ error: error.message }, 400);
    }
    if (error instanceof ChatBusyError || error instanceof TooManySubscriptions) {
      return c.json({ error: error.message }, 409);
    }
    if (error instanceof ChatSessionError || error instanceof ViewError || error instanceof ViewNotApprovedError) {
      return c.json({ error: error.message }, 400);
    }
    return c.json({ error: message(error) }, 500);
  });

  const ready = (): Host => {
    const host = context.host();
    if (host === undefined) throw new NotReady();
    return host;
  };
  app.get('/api/state', (c) => c.json(context.state()));
  // The level each server was last asked for (`logging/setLevel`), shown on its card.
  const askedLevels = new Map<string, string>();
  app.get('/api/servers', (c) =>
    c.json(
      serverViews(ready()).map((view) =>
        askedLevels.has(view.name) ? { ...view, logLevel: askedLevels.get(view.name) } : view,
      ),
    ),
  );
  app.get('/api/server-logs', (c) => c.json(context.serverLogs()));
  app.post('/api/servers/:name/log-level', async (c) => {
    const { level } = await jsonBody<{ level?: string }>(c.req.raw);
    if (level === undefined || !LOG_LEVELS.has(level)) throw new BadRequest(`Unknown log level "${String(level)}".`);
    const host = ready();
    if (host.connection(c.req.param('name'))?.sdkClient === undefined) {
      return c.json({ error: `No connected server "${c.req.param('name')}".` }, 404);
    }
    // Kept by the host for the server, so switched off and on, or restarted, it logs from this level again.
    await host.setServerLoggingLevel(c.req.param('name'), level as 'info');
    askedLevels.set(c.req.param('name'), level);
    return c.json({ ok: true });
  });
  app.post('/api/servers/:name/ping', async (c) => {
    const client = ready().connection(c.req.param('name'))?.sdkClient;
    if (client === undefined) return c.json({ error: `No connected server "${c.req.param('name')}".` }, 404);
    const started = Date.now();
    await client.ping();
    return c.json({ ok: true, ms: Date.now() - started });
  });

  // Restart, disable and enable wrap the host's own server controls; the catalog changes, so pages reload it.
  for (const action of ['restart', 'disable', 'enable'] as const) {
    app.post(`/api/servers/:name/${action}`, async (c) => {
      const host = ready();
      const name = c.req.param('name');
      const status =
        action === 'restart'
          ? await host.restartServer(name)
          : action === 'disable'
            ? await host.disableServer(name)
            : await host.enableServer(name);
      context.events.publish({ type: 'catalog' });
      return c.json({
        state: status.state,
        ...(status.lastError === undefined ? {} : { lastError: status.lastError }),
      });
    });
  }

  app.get('/api/tools', (c) => c.json(toolsView(ready())));
  const running = new Map<string, AbortController>();
  app.post('/api/tools/call', async (c) => {
    const body = await jsonBody<CallToolBody>(c.req.raw);
    if (typeof body.name !== 'string') throw new BadRequest('"name" must be the tool\'s name.');
    const args = body.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new BadRequest('"arguments" must be a JSON object.');
    }
    const host = ready();
    const entry = host.catalog().entries.find((candidate) => candidate.name === body.name);
    const callId = typeof body.callId === 'string' ? body.callId.slice(0, 100) : crypto.randomUUID();
    const controller = new AbortController();
    running.set(callId, controller);
    const started = Date.now();
    const warnings = new Set<string>();
    try {
      const executed = await host.callTool(body.name, args, {
        signal: controller.signal,
        onWarning: (message) => warnings.add(message),
        onProgress: (update) =>
          context.events.publish({
            type: 'progress',
            progress: {
              callId,
              server: update.server,
              tool: update.tool,
              progress: update.progress,
              ...(update.total === undefined ? {} : { total: update.total }),
              ...(update.message === undefined ? {} : { message: update.message }),
            },
          }),
      });
      const view = callResultView(executed, Date.now() - started, entry?.tool.outputSchema);
      if (entry !== undefined && toolUiOf(entry.tool).resourceUri !== undefined) view.forView = resultForView(executed);
      if (warnings.size > 0) view.warnings = [...warnings];
      return c.json(view);
    } finally {
      running.delete(callId);
    }
  });
  app.post('/api/tools/cancel/:callId', (c) => {
    const controller = running.get(c.req.param('callId'));
    controller?.abort(new Error('cancelled from the web UI'));
    return c.json({ cancelled: controller !== undefined });
  });

  // MCP Apps views: opened for a call (the resource is read and checked here), their own tool calls, closed.
  app.post('/api/views/open', async (c) => {
    const body = await jsonBody<OpenViewBody>(c.req.raw);
    if (typeof body.tool !== 'string') throw new BadRequest('"tool" must name the tool whose view to open.');
    return c.json(await context.views.open(ready(), body.tool));
  });
  app.post('/api/views/:id/call', async (c) => {
    const body = await jsonBody<ViewCallBody>(c.req.raw);
    if (typeof body.name !== 'string') throw new BadRequest('"name" must name a tool of the view\'s server.');
    const args = body.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new BadRequest('"arguments" must be a JSON object.');
    }
    return c.json(await context.views.call(ready(), c.req.param('id'), body.name, args));
  });
  app.post('/api/views/:id/resources/read', async (c) => {
    const body = await jsonBody<{ uri?: unknown }>(c.req.raw);
    if (typeof body.uri !== 'string' || body.uri.length > 2_048) {
      throw new BadRequest('"uri" must be the URI of a resource of the view\'s server.');
    }
    return c.json(await context.views.readResource(ready(), c.req.param('id'), body.uri));
  });
  app.post('/api/views/:id/close', (c) => c.json({ closed: context.views.close(c.req.param('id')) }));

  app.get('/api/approvals', (c) => c.json(context.approver.pending()));
  app.get('/api/approvals/:id/arguments', (c) => {
    const text = context.approver.wholeArguments(c.req.param('id'));
    if (text === undefined) return c.json({ error: 'No question waits with arguments cut under that id.' }, 404);
    return c.json({ text } satisfies WholeArgumentsView);
  });
  app.post('/api/approvals/:id', async (c) => {
    const body = await jsonBody<ApprovalAnswerBody>(c.req.raw);
    const problem = context.approver.answer(c.req.param('id'), body);
    if (problem !== undefined) return c.json({ error: problem }, 409);
    return c.json({ ok: true });
  });

  app.get('/api/trust', async (c) => c.json(await trustViews(ready(), context.trust.store(ready()))));
  app.post('/api/trust/approve', async (c) => {
    const body = await jsonBody<TrustChangeBody>(c.req.raw);
    return c.json(await context.trust.approve(ready(), body));
  });
  app.post('/api/trust/revoke', async (c) => {
    const body = await jsonBody<TrustChangeBody>(c.req.raw);
    return c.json(await context.trust.revoke(ready(), body));
  });

  app.get('/api/audit', async (c) => c.json(await context.auditHistory()));

  const subscribable = (server: string) => {
    const connection = ready().connection(server);
    return connection !== undefined && offersSubscriptions(connection);
  };
  app.get('/api/resources', async (c) => {
    const lists = await ready().resources.list();
    const resources: ResourceView[] = lists.flatMap((list) =>
      list.resources.map((resource) => ({
        server: list.server,
        uri: resource.uri,
        ...(resource.name === undefined ? {} : { name: resource.name }),
        ...(resource.description === undefined ? {} : { description: resource.description }),
        ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
        subscribable: subscribable(list.server),
      })),
    );
    return c.json(resources);
  });
  app.get('/api/resource-templates', async (c) => {
    const lists = await ready().resources.list();
    const templates: ResourceTemplateView[] = lists.flatMap((list) =>
      list.templates.map((template) => ({
        server: list.server,
        uriTemplate: template.uriTemplate,
        ...(template.name === undefined ? {} : { name: template.name }),
        ...(template.description === undefined ? {} : { description: template.description }),
        ...(template.mimeType === undefined ? {} : { mimeType: template.mimeType }),
        subscribable: subscribable(list.server),
      })),
    );
    return c.json(templates);
  });
  app.post('/api/complete', async (c) => {
    const body = await jsonBody<Partial<CompleteBody>>(c.req.raw);
    if (typeof body.server !== 'string' || typeof body.argument !== 'string' || typeof body.value !== 'string') {
      throw new BadRequest('"server", "argument" and "value" are needed.');
    }
    const given = Object.fromEntries(
      Object.entries(body.context ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    const argument = { name: body.argument, value: body.value.slice(0, 1_000) };
    const host = ready();
    if (typeof body.uriTemplate === 'string') {
      return c.json({ values: await host.resources.complete(body.server, body.uriTemplate, argument, given) });
    }
    if (typeof body.prompt === 'string') {
      return c.json({
        values: await completePromptArgument(host.connection(body.server), body.prompt, argument, given),
      });
    }
    throw new BadRequest('"uriTemplate" or "prompt" names what to complete.');
  });
  app.get('/api/resources/subscriptions', (c) => c.json(context.subscriptions.list()));
  for (const action of ['subscribe', 'unsubscribe'] as const) {
    app.post(`/api/resources/${action}`, async (c) => {
      const body = await jsonBody<{ server?: string; uri?: string }>(c.req.raw);
      if (typeof body.server !== 'string' || typeof body.uri !== 'string' || body.uri.length > 4_000) {
        throw new BadRequest('"server" and "uri" are needed.');
      }
      if (action === 'subscribe') {
        const entry = context.subscriptions.add(body.server, body.uri);
        try {
          await ready().resources.subscribe(body.server, body.uri);
        } catch (error) {
          context.subscriptions.remove(body.server, body.uri);
          throw error;
        }
        return c.json(entry);
      }
      context.subscriptions.remove(body.server, body.uri);
      await ready().resources.unsubscribe(body.server, body.uri);
      return c.json({ ok: true });
    });
  }
  app.post('/api/resources/read', async (c) => {
    const body = await jsonBody<{ server?: string; uri?: string }>(c.req.raw);
    if (typeof body.server !== 'string' || typeof body.uri !== 'string') {
      throw new BadRequest('"server" and "uri" are needed.');
    }
    const result = await ready().resources.read(body.server, body.uri);
    return c.json(
      callResultView(
        {
          result: { callId: '', toolName: '', content: [], isError: false },
          outcome: 'ok',
          rawResult: { content: result.contents.map((resource) => ({ type: 'resource', resource })) },
        },
        0,
      ),
    );
  });
  app.get('/api/prompts', async (c) => {
    const lists = await ready().prompts.list();
    const prompts: PromptView[] = lists.flatMap((list) =>
      list.prompts.map((prompt) => ({
        server: list.server,
        name: prompt.name,
        ...(prompt.description === undefined ? {} : { description: prompt.description }),
        arguments: (prompt.arguments ?? []).map((argument) => ({
          name: argument.name,
          ...(argument.description === undefined ? {} : { description: argument.description }),
          required: argument.required === true,
        })),
      })),
    );
    return c.json(prompts);
  });
  app.post('/api/prompts/get', async (c) => {
    const body = await jsonBody<{ server?: string; name?: string; arguments?: Record<string, string> }>(c.req.raw);
    if (typeof body.server !== 'string' || typeof body.name !== 'string') {
      throw new BadRequest('"server" and "name" are needed.');
    }
    const got = await ready().prompts.get({ server: body.server, name: body.name }, body.arguments ?? {});
    return c.json({ messages: got.result.messages });
  });

  app.post('/api/chat', async (c) => {
    const body = await jsonBody<ChatBody>(c.req.raw);
    if (typeof body.text !== 'string' || body.text.trim() === '') throw new BadRequest('"text" must say something.');
    return c.json(
      await context.chat.send(ready(), body.text, typeof body.turnId === 'string' ? body.turnId : undefined),
    );
  });
  app.get('/api/chat', (c) => c.json(context.chat.state(ready())));
  // No host needed: before it is ready no turn can run.
  app.get('/api/chat/running', (c) => {
    const turnId = context.chat.runningTurn();
    const view: RunningTurnView = turnId === undefined ? { running: false } : { running: true, turnId };
    return c.json(view);
  });
  app.get('/api/sessions', async (c) => c.json(await context.chat.sessions(ready())));
  app.post('/api/sessions/new', async (c) => c.json(await context.chat.open(ready())));
  app.post('/api/sessions/resume', async (c) => {
    const body = await jsonBody<{ id?: string }>(c.req.raw);
    if (typeof body.id !== 'string') throw new BadRequest('"id" must name a saved session.');
    return c.json(await context.chat.open(ready(), body.id));
  });
  app.post('/api/chat/model', async (c) => {
    const body = await jsonBody<{ model?: string }>(c.req.raw);
    if (typeof body.model !== 'string' || body.model.trim() === '')
      throw new BadRequest('"model" must be provider:model.');
    return c.json(await context.chat.setModel(ready(), body.model.trim()));
  });
  app.get('/api/skills', (c) => c.json(skillsView(ready(), context.chat.history())));
  // Given the turn meant (the approval dialog names the turn it offers to stop), no turn started since is stopped.
  app.post('/api/chat/cancel', async (c) => {
    const isJson = (c.req.header('content-type') ?? '').startsWith('application/json');
    const body = isJson ? await jsonBody<{ turnId?: unknown }>(c.req.raw) : {};
    if (body.turnId !== undefined && typeof body.turnId !== 'string') {
      throw new BadRequest('"turnId", when given, must name a turn.');
    }
    return c.json({ cancelled: context.chat.cancel(body.turnId) });
  });
  // Stop from a question the turn asked (its dialog covers the page's Stop): the question is refused, so what it asked
  // about never runs, and the turn is cancelled at once, before it goes on to the model with the refusal.
  app.post('/api/chat/stop', async (c) => {
    const body = await jsonBody<{ approval?: unknown }>(c.req.raw);
    if (typeof body.approval !== 'string') throw new BadRequest('"approval" must name the question to stop from.');
    const approval = context.approver.pending().find((candidate) => candidate.id === body.approval);
    const turn = context.chat.runningTurn();
    if (approval?.chatTurn === undefined || approval.chatTurn !== turn) {
      return c.json({ error: "No question of the chat's running turn waits under that id." }, 409);
    }
    const problem = context.approver.answer(approval.id, { answer: refusalOf(approval.kind) });
    if (problem !== undefined) return c.json({ error: problem }, 409);
    return c.json({ cancelled: context.chat.cancel() });
  });

  app.get('/api/events', (c) => {
    // The socket itself: a page that stopped reading is cut off there, since ending the response politely would
    // wait behind everything it has not read.
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    return streamSSE(c, async (stream) => {
      const pending = new PendingEvents();
      let wake: (() => void) | undefined;
      const unsubscribe = context.events.subscribe((event) => {
        if (!pending.push({ event: event.type, data: JSON.stringify(event) })) {
          unsubscribe();
          stream.abort();
          outgoing?.destroy();
        }
        wake?.();
      });
      stream.onAbort(() => {
        unsubscribe();
        wake?.();
      });
      await stream.writeSSE({ event: 'host', data: JSON.stringify({ type: 'host', state: context.state() }) });
      await stream.writeSSE({
        event: 'approvals',
        data: JSON.stringify({ type: 'approvals', pending: context.approver.pending() }),
      });
      while (!stream.aborted) {
        const next = pending.shift();
        if (next === undefined) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
          continue;
        }
        await stream.writeSSE(next);
      }
      unsubscribe();
    });
  });

  // An API path that names nothing says so, rather than answering with the app's page.
  app.all('/api/*', (c) =>
    c.json({ error: `No API route ${c.req.method} ${new URL(c.req.url).pathname.slice(0, 200)}.` }, 404),
  );
  app.get('*', staticFiles(context.assetFolder));
  return app;
}
