/**
 * Resources of connected servers: listing (resources and URI templates, every page) and reading, and a read
 * result as content a model can take — text with a header naming the URI, images as images, other binary data
 * described rather than turned into text (except binary data whose MIME type says it is text).
 */
import type {
  Client,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/client';
import { namedBack } from '../connections/keep-prototype-keys.js';
import type { ServerConnection } from '../connections/server-connection.js';
import { describeBlobResource, describeTextResource } from '../content/describe-content.js';
import { restoreOwnKeys } from '../json/own-property.js';
import type { ToolResultPart } from '../providers/types.js';
import { showOnOneLine } from '../text/invisible-characters.js';

export interface ServerResources {
  server: string;
  resources: Resource[];
  templates: ResourceTemplate[];
}

/** Whether a connected server offers resources. */
export function offersResources(connection: Pick<ServerConnection, 'sdkClient' | 'state'>): boolean {
  return connection.state === 'connected' && connection.sdkClient?.getServerCapabilities()?.resources !== undefined;
}

function clientOf(connection: ServerConnection): Client {
  const client = connection.sdkClient;
  if (!client || connection.state !== 'connected') {
    throw new Error(`server "${connection.name}" is not connected (${connection.state})`);
  }
  return client;
}

/** All resources and templates of one server; empty lists when it offers none. */
export async function listServerResources(connection: ServerConnection): Promise<ServerResources> {
  if (!offersResources(connection)) return { server: connection.name, resources: [], templates: [] };
  const client = clientOf(connection);
  const [resources, templates] = await Promise.all([
    client.listResources(undefined, { cacheMode: 'refresh' }),
    client.listResourceTemplates(undefined, { cacheMode: 'refresh' }).catch(() => ({ resourceTemplates: [] })),
  ]);
  return {
    server: connection.name,
    resources: restoreOwnKeys(resources.resources),
    templates: restoreOwnKeys(templates.resourceTemplates),
  };
}

export async function readServerResource(connection: ServerConnection, uri: string): Promise<ReadResourceResult> {
  if (!offersResources(connection)) throw new Error(`server "${connection.name}" does not offer resources`);
  // Its `__proto__` keys were renamed so that the library's check kept them (see keep-prototype-keys.ts).
  const read = await clientOf(connection).readResource({ uri }, { cacheMode: 'bypass' });
  return namedBack(read);
}

/** Whether a connected server lets clients subscribe to its resources' changes. */
export function offersSubscriptions(connection: Pick<ServerConnection, 'sdkClient' | 'state'>): boolean {
  return offersResources(connection) && connection.sdkClient?.getServerCapabilities()?.resources?.subscribe === true;
}

/** `resources/subscribe` (or `resources/unsubscribe`); updates arrive as `notifications/resources/updated`. */
export async function subscribeServerResource(
  connection: ServerConnection,
  uri: string,
  subscribe: boolean,
): Promise<void> {
  if (!offersSubscriptions(connection)) {
    throw new Error(`server "${connection.name}" does not offer resource subscriptions`);
  }
  await connection.subscribeResource(uri, subscribe);
}

const TEXT_MIME_TYPE = /^text\/|[/+](json|xml|yaml|javascript|csv|markdown)$|^application\/(x-)?(sh|sql|toml)$/i;

/** Binary data that is really text (by MIME type and valid UTF-8), decoded; undefined otherwise. */
export function blobAsText(blob: string, mimeType: string | undefined): string | undefined {
  if (mimeType === undefined || !TEXT_MIME_TYPE.test(mimeType)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(blob, 'base64'));
  } catch {
    return undefined;
  }
}

/** A `resources/read` result → parts for the model, one or two per content item. */
export function resourceContentsToParts(result: ReadResourceResult): ToolResultPart[] {
  const parts: ToolResultPart[] = [];
  for (const content of result.contents) {
    if ('text' in content && typeof content.text === 'string') {
      parts.push({ type: 'text', text: `${describeTextResource(content.uri, content.mimeType)}\n${content.text}` });
      continue;
    }
    const blob = 'blob' in content && typeof content.blob === 'string' ? content.blob : '';
    if (content.mimeType?.startsWith('image/')) {
      parts.push({ type: 'text', text: describeTextResource(content.uri, content.mimeType) });
      parts.push({ type: 'image', data: blob, mimeType: content.mimeType });
      continue;
    }
    const text = blobAsText(blob, content.mimeType);
    if (text !== undefined) {
      parts.push({ type: 'text', text: `${describeTextResource(content.uri, content.mimeType)}\n${text}` });
      continue;
    }
    parts.push({ type: 'text', text: describeBlobResource(content.uri, content.mimeType, blob) });
  }
  if (parts.length === 0) parts.push({ type: 'text', text: '[the resource has no contents]' });
  return parts;
}

/** One line per resource and template, for the model and for `resources list`. */
export function describeServerResources(listing: ServerResources): string[] {
  const lines: string[] = [];
  for (const resource of listing.resources) lines.push(describeResourceLine(resource.uri, resource));
  for (const template of listing.templates) lines.push(describeResourceLine(template.uriTemplate, template));
  return lines;
}

function describeResourceLine(
  uri: string,
  item: { name: string; title?: string; mimeType?: string; description?: string },
): string {
  const name = item.title ?? item.name;
  const mime = item.mimeType ? ` (${showOnOneLine(item.mimeType)})` : '';
  // Descriptions often start with a newline: the first line with text in it.
  const firstLine = item.description
    ?.split('\n')
    .find((line) => line.trim() !== '')
    ?.trim();
  const description = firstLine ? ` — ${firstLine}` : '';
  // The URI and the MIME type on one line: a line break in either would start a line passing for another resource's.
  return `${showOnOneLine(uri)}  ${JSON.stringify(name)}${mime}${description}`;
}
