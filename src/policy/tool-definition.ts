/**
 * The part of a tool that is pinned: what the model reads and what the policy trusts (name, title, description,
 * input and output schemas, annotations). Anything else a server sends (`_meta`, icons) can change without
 * changing what the tool does to the model, so it is left out of the fingerprint.
 */

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
