/**
 * Translation #3, first half: an MCP `tools/call` result → provider-neutral tool-result content.
 *
 * Models take text and images as tool output; everything else MCP can return (audio, resource links,
 * embedded resources) becomes one descriptive text line, and binary data is never turned into text.
 * When a tool declares an `outputSchema`, its `structuredContent` is the authoritative answer and is sent to a
 * model as JSON instead of the text blocks, which by convention only repeat it. A reader given the
 * `structuredContent` beside the content (an MCP client, through the gateway) has the JSON already, and gets the
 * server's text blocks as they are. Validating `structuredContent` against the schema is the MCP client's job (it
 * does so once `listTools` has been called), so it is not repeated here.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { stringifyJsonWithinDepth } from '../json/json-depth.js';
import type { ToolResultPart } from './content-parts.js';
import {
  describeAudio,
  describeBlobResource,
  describeResourceLink,
  describeTextResource,
  describeUnsupportedContent,
} from './describe-content.js';

export interface MappedToolResult {
  content: ToolResultPart[];
  /** The tool's own error flag (`isError`), carried unchanged so the provider can mark the result as failed. */
  isError: boolean;
  /** Things worth a trace or audit line that the model need not see, e.g. a missing `structuredContent`. */
  notes: string[];
  /**
   * For each part of `content`, the index in the result's `content` of the block it was mapped from; undefined for a
   * part the host wrote (the `structuredContent` JSON, the empty-result notice). Lets a caller that can take the
   * server's blocks as they are (the gateway) put them back where their parts are.
   */
  sources: (number | undefined)[];
}

/** What the mapping needs to know about the tool that produced the result. */
export interface MappedToolInfo {
  outputSchema?: unknown;
  /** The reader is given the `structuredContent` beside the content: its text blocks are not replaced by the JSON. */
  structuredContentBeside?: boolean;
}

/** Sent when a result has no content at all, so that every provider gets a non-empty tool result. */
export const EMPTY_RESULT_TEXT = '[the tool returned no content]';

type ContentBlock = CallToolResult['content'][number];

/** Maps one MCP content block to the part a model can take. */
export function mapContentBlock(block: ContentBlock): ToolResultPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', data: block.data, mimeType: block.mimeType };
    case 'audio':
      return { type: 'text', text: describeAudio(block.mimeType, block.data) };
    case 'resource_link':
      return { type: 'text', text: describeResourceLink(block) };
    case 'resource': {
      const resource = block.resource;
      if ('text' in resource && typeof resource.text === 'string') {
        return { type: 'text', text: `${describeTextResource(resource.uri, resource.mimeType)}\n${resource.text}` };
      }
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      return { type: 'text', text: describeBlobResource(resource.uri, resource.mimeType, blob) };
    }
    default:
      // A block type from a newer protocol revision than this host knows.
      return { type: 'text', text: describeUnsupportedContent((block as { type?: unknown }).type) };
  }
}

/**
 * Maps a `tools/call` result for the model.
 *
 * - text → text; image → image (base64 and MIME type, never text);
 * - audio, resource links and embedded resources → one text line each (an embedded text resource keeps its text);
 * - with an `outputSchema` and `structuredContent`, for a reader not given it beside the content: the JSON first,
 *   then the result's non-text blocks (its text blocks are left out as duplicates of the JSON);
 * - otherwise `structuredContent` is ignored in favour of `content`, unless `content` is empty;
 * - `isError` is carried unchanged; an error result always shows its `content`, which holds the message.
 */
export function mapToolResult(result: CallToolResult, tool: MappedToolInfo): MappedToolResult {
  const isError = result.isError === true;
  const notes: string[] = [];
  const blocks: ContentBlock[] = Array.isArray(result.content) ? result.content : [];
  const structured = result.structuredContent;
  const declaresOutputSchema = tool.outputSchema !== undefined && tool.outputSchema !== null;

  const content: ToolResultPart[] = [];
  const sources: (number | undefined)[] = [];
  const add = (part: ToolResultPart, source: number | undefined) => {
    content.push(part);
    sources.push(source);
  };
  if (declaresOutputSchema && structured !== undefined && !isError && tool.structuredContentBeside !== true) {
    add({ type: 'text', text: structuredText(structured) }, undefined);
    for (const [index, block] of blocks.entries()) if (block.type !== 'text') add(mapContentBlock(block), index);
  } else {
    for (const [index, block] of blocks.entries()) add(mapContentBlock(block), index);
    if (declaresOutputSchema && structured === undefined && !isError) {
      notes.push('The tool declares an outputSchema but returned no structuredContent; its content was used instead.');
    }
    if (structured !== undefined && content.length === 0) {
      add({ type: 'text', text: structuredText(structured) }, undefined);
      notes.push('The tool returned structuredContent but no content; the structuredContent was sent as JSON.');
    }
  }

  if (content.length === 0) {
    add({ type: 'text', text: EMPTY_RESULT_TEXT }, undefined);
    notes.push('The tool returned no content.');
  }
  return { content, isError, notes, sources };
}

/** `structuredContent` as JSON text; a value too deep to serialise says so instead of overflowing the stack. */
function structuredText(structured: unknown): string {
  return stringifyJsonWithinDepth(structured, 'the structuredContent') ?? '';
}
