/**
 * MCP Apps views opened in the web UI. Opening one reads the tool's `ui://` resource through the host (never from
 * the page), checks it is a view (`text/html;profile=mcp-app`, bounded), fingerprints it and builds its
 * Content-Security-Policy; the sandbox server then serves it under an unguessable id until the page closes it. A
 * view's own tool calls are resolved here against its server alone (never a tool whose visibility leaves out the app) and made through `host.callTool` with the app as
 * origin, so they pass the same consent, pinning, bounds and audit as the model's.
 */

import { createHash, randomBytes } from 'node:crypto';
import { APP_HTML_MIME_TYPE, toolUiOf } from '../catalog/tool-ui.js';
import type { Host } from '../host/create-host.js';
import { stringifyJsonWithinDepth } from '../json/json-depth.js';
import type { ExecutedToolCall } from '../loop/tool-call-types.js';
import type { AppViewInfo, ViewCallView } from './api-types.js';
import { buildViewCsp } from './view-csp.js';

/** A view's HTML past this size is refused (the published examples are a few hundred kilobytes). */
const MAX_VIEW_HTML_BYTES = 5 * 1024 * 1024;
/** A result handed to a view past this size is replaced by a short error. */
const MAX_VIEW_RESULT_CHARS = 2_000_000;
/** Views a page may hold open at once; the oldest is forgotten past it. */
const MAX_OPEN_VIEWS = 64;
const PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

export class ViewError extends Error {}

interface OpenView {
  info: AppViewInfo;
  html: string;
  policy: string;
}

export interface AppViews {
  open(host: Host, toolName: string): Promise<AppViewInfo>;
  get(viewId: string): OpenView | undefined;
  /**
   * The view's document, handed out once: a frame that navigates (or is made to navigate) to the view's URL again
   * gets nothing, so a second document in its frame never runs code with the channel the first one had.
   */
  takeDocument(viewId: string): OpenView | 'taken' | undefined;
  close(viewId: string): boolean;
  /** A tool call the view makes, by the name its server gives the tool: its result, and what it warned of. */
  call(host: Host, viewId: string, name: string, args: Record<string, unknown>): Promise<ViewCallView>;
  /** A resource the view reads, from its own server only (bounded as a result is). */
  readResource(host: Host, viewId: string, uri: string): Promise<Record<string, unknown>>;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** What a view gets back from a call: the server's result as sent (bounded), or the host's refusal as an error. */
export function resultForView(executed: ExecutedToolCall): Record<string, unknown> {
  const raw = record(executed.rawResult);
  if (executed.outcome === 'ok' && raw !== undefined) {
    const text = stringifyJsonWithinDepth(raw, 'the result');
    if (text !== undefined && text.length <= MAX_VIEW_RESULT_CHARS) return JSON.parse(text) as Record<string, unknown>;
    return {
      isError: true,
      content: [{ type: 'text', text: `The result is larger than ${MAX_VIEW_RESULT_CHARS} characters.` }],
    };
  }
  const text = executed.result.content
    .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
    .join('\n')
    .slice(0, 10_000);
  return { isError: true, content: [{ type: 'text', text: text || executed.outcome }] };
}

interface AppViewsOptions {
  sandboxOrigin: () => string;
  /** Pins the view's HTML (first sight) or asks about a changed one; rejects when it may not be shown. */
  pin(host: Host, server: string, uri: string, sha256: string): Promise<unknown>;
}

export function createAppViews(options: AppViewsOptions): AppViews {
  // Each view's calls end with it: closing it withdraws their questions and cancels what runs.
  const views = new Map<string, OpenView & { server: string; taken?: boolean; calls: AbortController }>();
  const forget = (viewId: string): boolean => {
    views.get(viewId)?.calls.abort(new ViewError('The view was closed.'));
    return views.delete(viewId);
  };
  return {
    async open(host, toolName) {
      const entry = host.catalog().entries.find((candidate) => candidate.name === toolName);
      if (entry === undefined) throw new ViewError(`No tool "${toolName}" in the catalog.`);
      const resourceUri = toolUiOf(entry.tool).resourceUri;
      if (resourceUri === undefined) throw new ViewError(`The tool "${toolName}" has no view.`);
      const read = await host.resources.read(entry.server, resourceUri);
      const content = read.contents.find((candidate) => candidate.uri === resourceUri) ?? read.contents[0];
      if (content === undefined) throw new ViewError(`The server sent nothing for ${resourceUri}.`);
      const mimeType = String(content.mimeType ?? '');
      if (mimeType.replace(/\s/g, '').toLowerCase() !== APP_HTML_MIME_TYPE) {
        throw new ViewError(`${resourceUri} is "${mimeType.slice(0, 100)}", not a view (${APP_HTML_MIME_TYPE}).`);
      }
      const html =
        'text' in content && typeof content.text === 'string'
          ? content.text
          : 'blob' in content && typeof content.blob === 'string'
            ? Buffer.from(content.blob, 'base64').toString('utf8')
            : '';
      if (Buffer.byteLength(html) > MAX_VIEW_HTML_BYTES) {
        throw new ViewError(`The view ${resourceUri} is larger than ${MAX_VIEW_HTML_BYTES} bytes.`);
      }
      const sha256 = createHash('sha256').update(html).digest('hex');
      await options.pin(host, entry.server, resourceUri, sha256);
      const ui = record(record(content._meta)?.ui);
      const csp = buildViewCsp(record(ui?.csp));
      const declared = record(ui?.permissions) ?? {};
      const viewId = randomBytes(18).toString('base64url');
      const info: AppViewInfo = {
        viewId,
        proxyUrl: `${options.sandboxOrigin()}/proxy/${viewId}`,
        sandboxOrigin: options.sandboxOrigin(),
        server: entry.server,
        tool: entry.name,
        resourceUri,
        sha256,
        csp: { ...csp.allowed, refused: csp.refused },
        permissionsDeclared: PERMISSIONS.filter((name) => name in declared),
        prefersBorder: ui?.prefersBorder !== false,
        toolDefinition: JSON.parse(stringifyJsonWithinDepth(entry.tool, 'the tool') ?? '{}') as Record<string, unknown>,
      };
      views.set(viewId, { info, html, policy: csp.policy, server: entry.server, calls: new AbortController() });
      while (views.size > MAX_OPEN_VIEWS) forget(views.keys().next().value!);
      return info;
    },
    get: (viewId) => views.get(viewId),
    takeDocument(viewId) {
      const view = views.get(viewId);
      if (view === undefined) return undefined;
      if (view.taken === true) return 'taken';
      view.taken = true;
      return view;
    },
    close: forget,
    async call(host, viewId, name, args) {
      const view = views.get(viewId);
      if (view === undefined) throw new ViewError('This view is closed.');
      const entry = host
        .catalog()
        .entries.find((candidate) => candidate.server === view.server && candidate.tool.name === name);
      if (entry === undefined) throw new ViewError(`The server "${view.server}" offers no tool "${name}".`);
      // The extension's visibility: a tool for the model alone is not the view's to call.
      if (!toolUiOf(entry.tool).appCallable) {
        throw new ViewError(`The tool "${name}" is for the model only (its visibility leaves out the app).`);
      }
      // What the call warns of (sent once more after its server went away) is the person's to read, beside the view:
      // the extension has no message for it, and it may quote the server's stderr, which the view has no claim to.
      const warnings = new Set<string>();
      const executed = await host.callTool(entry.name, args, {
        origin: 'app',
        signal: view.calls.signal,
        onWarning: (message) => warnings.add(message),
      });
      return { result: resultForView(executed), ...(warnings.size > 0 ? { warnings: [...warnings] } : {}) };
    },
    async readResource(host, viewId, uri) {
      const view = views.get(viewId);
      if (view === undefined) throw new ViewError('This view is closed.');
      const read = await host.resources.read(view.server, uri);
      const text = stringifyJsonWithinDepth(read, 'the resource');
      if (text === undefined || text.length > MAX_VIEW_RESULT_CHARS) {
        throw new ViewError(`The resource ${uri.slice(0, 200)} is larger than ${MAX_VIEW_RESULT_CHARS} characters.`);
      }
      return JSON.parse(text) as Record<string, unknown>;
    },
  };
}
