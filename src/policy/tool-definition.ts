/**
 * The part of a tool that is pinned: what the model reads and what the policy trusts (name, title, description,
 * input and output schemas, annotations). Anything else a server sends (`_meta`, icons) can change without
 * changing what the tool does to the model, so it is left out of the fingerprint.
 */

import { createHash } from 'node:crypto';
import { fingerprintTool } from '../catalog/fingerprint.js';
import type { ToolAnnotations } from './tool-annotations.js';

/** A tool as listed by its server; an MCP SDK `Tool` fits. `name` is the server's own (original) name. */
export interface PinnableTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: ToolAnnotations;
}

/** The pinned fields only, undefined ones left out: what the trust store keeps so a later change can be shown. */
export interface ToolDefinitionSnapshot {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: ToolAnnotations;
}

export function snapshotToolDefinition(tool: PinnableTool): ToolDefinitionSnapshot {
  const snapshot: ToolDefinitionSnapshot = { name: tool.name };
  if (tool.title !== undefined) snapshot.title = tool.title;
  if (tool.description !== undefined) snapshot.description = tool.description;
  if (tool.inputSchema !== undefined) snapshot.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) snapshot.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) snapshot.annotations = tool.annotations;
  // A JSON round trip drops what JSON cannot hold, so the stored copy equals what is fingerprinted.
  return JSON.parse(JSON.stringify(snapshot)) as ToolDefinitionSnapshot;
}

/** sha256 hex of the canonical JSON of the pinned fields. */
export function fingerprintDefinition(tool: PinnableTool): string {
  return fingerprintTool(snapshotToolDefinition(tool));
}

/**
 * Largest definition the trust store keeps whole, as UTF-8 JSON. A server can list a tool with a megabyte
 * description; kept whole in every approval it would make each save of the store that much slower.
 */
export const MAX_STORED_DEFINITION_BYTES = 16 * 1024;

const SHRINKABLE_FIELDS = ['description', 'inputSchema', 'outputSchema', 'title'] as const;

/**
 * The snapshot the trust store keeps: whole when it fits MAX_STORED_DEFINITION_BYTES, else with its largest fields
 * replaced (largest first, until it fits) by their size and sha256. The pin itself is the fingerprint of the whole
 * definition, so a bounded copy weakens only the diff shown when the tool changes, not the check.
 */
export function storedToolDefinition(tool: PinnableTool): ToolDefinitionSnapshot {
  const snapshot = snapshotToolDefinition(tool);
  let size = byteSize(snapshot);
  if (size <= MAX_STORED_DEFINITION_BYTES) return snapshot;
  const fields = SHRINKABLE_FIELDS.filter((field) => snapshot[field] !== undefined)
    .map((field) => ({ field, json: JSON.stringify(snapshot[field]) }))
    .sort((left, right) => right.json.length - left.json.length);
  for (const { field, json } of fields) {
    const bytes = Buffer.byteLength(json);
    const hash = createHash('sha256').update(json).digest('hex');
    snapshot[field] = `[not kept: ${bytes} bytes, sha256 ${hash}]`;
    size = byteSize(snapshot);
    if (size <= MAX_STORED_DEFINITION_BYTES) break;
  }
  return snapshot;
}

function byteSize(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}
