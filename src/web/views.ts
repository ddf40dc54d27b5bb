/**
 * The host's state turned into the API's shapes. Nothing here decides anything: it reads the host, the catalog,
 * the trust store and the audit log through the library's own functions, and bounds what goes to the browser.
 */

import { basename } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { AuditRecord } from '../audit/audit-record.js';
import { createArgumentValidator } from '../catalog/argument-validation.js';
import { stableStringify } from '../catalog/stable-json.js';
import { assignToolNames } from '../catalog/tool-naming.js';
import { toolUiOf } from '../catalog/tool-ui.js';
import type { ServerLogEntry } from '../client-features/server-log.js';
import type { Host } from '../host/create-host.js';
import { HOST_TOOLS_SERVER } from '../host/create-host.js';
import { stringifyJsonWithinDepth } from '../json/json-depth.js';
import type { ExecutedToolCall } from '../loop/tool-call-types.js';
import { diffToolDefinitions } from '../policy/definition-diff.js';
import type { PinnableTool } from '../policy/tool-definition.js';
import { snapshotToolDefinition } from '../policy/tool-definition.js';
import { buildTrustReport } from '../policy/trust-report.js';
import type { TrustStore } from '../policy/trust-store.js';
import { estimateToolTokens } from '../providers/token-estimate/index.js';
import type {
  AuditEntryView,
  CallResultView,
  ContentView,
  ServerLogView,
  ServerView,
  ToolsView,
  TrustServerView,
} from './api-types.js';

/** Longest text block sent to the browser; a longer one is cut with a note (the audit and CLI keep the whole). */
const MAX_TEXT_CHARS = 200_000;
/** Largest base64 image or audio sent to the browser. */
const MAX_MEDIA_BASE64_CHARS = 8_000_000;
/** Content blocks of one result sent to the browser (each is an element on the page); the rest are counted. */
const MAX_CONTENT_BLOCKS = 500;
const MEDIA_TYPE = /^(image\/(png|jpeg|gif|webp)|audio\/[a-z0-9.+-]+)$/;

function bounded(text: string, max = MAX_TEXT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters not shown)`;
}

function jsonText(value: unknown): string {
  return bounded(stringifyJsonWithinDepth(value, 'the value') ?? 'undefined');
}

/**
 * A JSON value for the page: the value itself when its text is within the bound, else that text cut, as a string
 * (cut JSON no longer parses, and the whole answer would fail with it).
 */
function boundedJson(value: unknown): unknown {
  const text = stringifyJsonWithinDepth(value, 'the value') ?? 'null';
  return text.length <= MAX_TEXT_CHARS ? JSON.parse(text) : bounded(text);
}

function boundedObject(value: unknown): Record<string, unknown> {
  const shown = boundedJson(value);
  return typeof shown === 'object' && shown !== null && !Array.isArray(shown)
    ? (shown as Record<string, unknown>)
    : { '(not shown whole)': shown };
}

export function serverViews(host: Host): ServerView[] {
  return host.servers().map((status) => {
    const config = host.config.servers.find((server) => server.name === status.name);
    const client = host.connection(status.name)?.sdkClient;
    const capabilities = status.state === 'connected' ? client?.getServerCapabilities() : undefined;
    const instructions = status.state === 'connected' ? client?.getInstructions() : undefined;
    return {
      ...status,
      trust: config?.trust ?? 'untrusted',
      disabled: status.disabled === true,
      ...(capabilities === undefined ? {} : { capabilities: boundedObject(capabilities) }),
      ...(instructions === undefined ? {} : { instructions: bounded(instructions) }),
    };
  });
}

function viewFacts(tool: Parameters<typeof toolUiOf>[0]): { viewUri?: string; appOnly?: boolean } {
  const ui = toolUiOf(tool);
  return {
    ...(ui.resourceUri === undefined ? {} : { viewUri: ui.resourceUri }),
    ...(ui.appOnly ? { appOnly: true } : {}),
  };
}

export function toolsView(host: Host): ToolsView {
  const trustOf = new Map(host.config.servers.map((server) => [server.name, server.trust]));
  const tools = host.catalog().entries.map((entry) => {
    const definition = {
      name: entry.name,
      description: entry.tool.description ?? entry.tool.title ?? '',
      inputSchema: entry.tool.inputSchema as Record<string, unknown>,
    };
    return {
      name: entry.name,
      server: entry.server,
      originalName: entry.tool.name,
      ...(entry.tool.title === undefined ? {} : { title: entry.tool.title }),
      description: definition.description,
      ...(entry.tool.annotations === undefined ? {} : { annotations: { ...entry.tool.annotations } }),
      trust: entry.server === HOST_TOOLS_SERVER ? 'host' : (trustOf.get(entry.server) ?? 'untrusted'),
      inputSchema: definition.inputSchema,
      ...(entry.tool.outputSchema === undefined
        ? {}
        : { outputSchema: entry.tool.outputSchema as Record<string, unknown> }),
      tokens: estimateToolTokens(definition),
      ...viewFacts(entry.tool),
    };
  });
  const servers = new Map<string, { name: string; tools: number; tokens: number }>();
  for (const tool of tools) {
    const entry = servers.get(tool.server) ?? { name: tool.server, tools: 0, tokens: 0 };
    entry.tools += 1;
    entry.tokens += tool.tokens;
    servers.set(tool.server, entry);
  }
  return { tools, servers: [...servers.values()], totalTokens: tools.reduce((sum, tool) => sum + tool.tokens, 0) };
}

function contentView(block: Record<string, unknown>): ContentView {
  const text = (key: string) => (typeof block[key] === 'string' ? (block[key] as string) : undefined);
  switch (block.type) {
    case 'text':
      return { type: 'text', text: bounded(text('text') ?? '') };
    case 'image':
    case 'audio': {
      const mimeType = text('mimeType') ?? '';
      const data = text('data') ?? '';
      // Only media types a browser shows safely, as data URLs; anything else is described, not rendered.
      if (!MEDIA_TYPE.test(mimeType) || data.length > MAX_MEDIA_BASE64_CHARS || !/^[A-Za-z0-9+/=\s]*$/.test(data)) {
        return {
          type: 'other',
          json: `${block.type} ${bounded(mimeType, 100)} (${data.length} base64 characters, not shown)`,
        };
      }
      return { type: block.type, mimeType, data };
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: bounded(text('uri') ?? '', 4_000),
        ...(text('name') === undefined ? {} : { name: bounded(text('name')!, 1_000) }),
        ...(text('description') === undefined ? {} : { description: bounded(text('description')!) }),
        ...(text('mimeType') === undefined ? {} : { mimeType: bounded(text('mimeType')!, 200) }),
      };
    case 'resource': {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      return {
        type: 'resource',
        uri: bounded(String(resource.uri ?? ''), 4_000),
        ...(typeof resource.mimeType === 'string' ? { mimeType: bounded(resource.mimeType, 200) } : {}),
        ...(typeof resource.text === 'string' ? { text: bounded(resource.text) } : {}),
        ...(typeof resource.blob === 'string' ? { blobBytes: Math.floor((resource.blob.length * 3) / 4) } : {}),
      };
    }
    default:
      return { type: 'other', json: jsonText(block) };
  }
}

const outputValidator = createArgumentValidator();

export function callResultView(executed: ExecutedToolCall, durationMs: number, outputSchema?: unknown): CallResultView {
  const raw = executed.rawResult as CallToolResult | undefined;
  const blocks = (raw?.content ?? executed.result.content) as unknown as Array<Record<string, unknown>>;
  const view: CallResultView = {
    outcome: executed.outcome,
    isError: executed.result.isError,
    durationMs,
    content: blocks.slice(0, MAX_CONTENT_BLOCKS).map(contentView),
  };
  if (blocks.length > MAX_CONTENT_BLOCKS) {
    view.content.push({ type: 'other', json: `… ${blocks.length - MAX_CONTENT_BLOCKS} more content blocks not shown` });
  }
  if (raw?.structuredContent !== undefined) {
    view.structuredContent = boundedJson(raw.structuredContent);
    if (outputSchema !== undefined) {
      const check = outputValidator.check('outputSchema', outputSchema as never, raw.structuredContent as never);
      view.outputSchemaErrors = check.valid ? [] : [check.message];
    }
  }
  return view;
}

export function auditEntryView(record: AuditRecord, sequence: number): AuditEntryView {
  const fields = record as unknown as Record<string, unknown>;
  const text = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : undefined);
  const pick = (key: string) => (text(key) === undefined ? {} : { [key]: bounded(text(key)!, 4_000) });
  return {
    sequence,
    type: record.type,
    time: record.time,
    runId: record.runId,
    ...pick('server'),
    ...pick('tool'),
    ...pick('decision'),
    ...pick('outcome'),
    ...pick('decidedBy'),
    ...pick('reason'),
    ...pick('change'),
    ...pick('detail'),
    ...(typeof fields.durationMs === 'number' ? { durationMs: fields.durationMs } : {}),
    json: jsonText(record),
  };
}

export function serverLogView(entry: ServerLogEntry, sequence: number): ServerLogView {
  return {
    sequence,
    server: entry.server,
    time: entry.time.toISOString(),
    level: entry.level,
    ...(entry.logger === undefined ? {} : { logger: bounded(entry.logger, 200) }),
    text: typeof entry.data === 'string' ? bounded(entry.data, 20_000) : jsonText(entry.data).slice(0, 20_000),
  };
}

/** Every server's listing (withheld tools too), named as the catalog names them. */
export async function listedTools(host: Host): Promise<Map<string, Array<{ name: string; tool: PinnableTool }>>> {
  const listings = new Map<string, Array<{ name: string; tool: PinnableTool }>>();
  for (const status of host.servers()) {
    const connection = host.connection(status.name);
    if (connection === undefined || status.state !== 'connected') continue;
    const tools = await connection.listTools().catch(() => undefined);
    if (tools === undefined) continue;
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const named = assignToolNames(tools.map((tool) => ({ server: status.name, tool: tool.name })));
    listings.set(
      status.name,
      named.map((entry) => ({ name: entry.name, tool: byName.get(entry.tool)! })),
    );
  }
  return listings;
}

/** The trust command's report, plus each changed tool's approved and current definition for a side-by-side view. */
export async function trustViews(host: Host, store: TrustStore): Promise<TrustServerView[]> {
  const listings = await listedTools(host);
  const report = buildTrustReport(
    store,
    host.config.servers.map((config) => ({
      config,
      ...(listings.has(config.name) ? { tools: listings.get(config.name)! } : {}),
      ...(host.servers().find((status) => status.name === config.name)?.lastError === undefined
        ? {}
        : { error: host.servers().find((status) => status.name === config.name)!.lastError! }),
    })),
    { approvals: host.approvals },
  );
  return report.map((server) => ({
    name: server.name,
    ...(server.trust === undefined ? {} : { trust: server.trust }),
    status: server.status,
    ...(server.approvedBy === undefined ? {} : { approvedBy: server.approvedBy }),
    ...(server.error === undefined ? {} : { error: server.error }),
    tools: server.tools.map((tool) => {
      const listed = listings.get(server.name)?.find((entry) => entry.tool.name === tool.name)?.tool;
      const previous = store.approvedDefinition(server.name, tool.name);
      const changed = tool.status === 'changed' && listed !== undefined;
      return {
        ...tool,
        ...(changed && previous !== undefined ? { before: stableStringify(previous, 2) } : {}),
        ...(changed ? { after: stableStringify(snapshotToolDefinition(listed), 2) } : {}),
        ...(changed ? { diff: diffToolDefinitions(previous, snapshotToolDefinition(listed)) } : {}),
      };
    }),
  }));
}

/** A model as the page shows it: a scripted model by its file name, not the path it was resolved to. */
export function displayModel(spec: string): string {
  return spec.startsWith('scripted:') ? `scripted:${basename(spec.slice('scripted:'.length))}` : spec;
}
