/**
 * How a tool result reads in OpenAI's protocols, which have no error flag and (in Chat Completions)
 * no images in tool messages: the error is said in the text, and an image is sent as a data URL in
 * an image part, never as base64 text (that would cost the model hundreds of thousands of tokens).
 */
import type { ImagePart, ToolResult } from '../types.js';

/** What starts the text of a failed tool's result: the protocol has no flag, the model reads this. */
export const toolErrorPrefix = 'Error: ';

/** Stands in a Chat tool message for an image that follows in a user message. */
export const imageInNextMessagePlaceholder = '[image returned; see the next message]';

/** Said instead of an empty string, which some servers reject and which reads as nothing happened. */
const emptyToolResultText = '(the tool returned no content)';

export function imageDataUrl(image: ImagePart): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

/**
 * The result's text parts joined by newlines, each image replaced by `imagePlaceholder` (or left
 * out when there is none), prefixed with `Error: ` when the call failed.
 */
export function toolResultText(result: ToolResult, imagePlaceholder?: string): string {
  const pieces: string[] = [];
  for (const part of result.content) {
    if (part.type === 'text') pieces.push(part.text);
    else if (imagePlaceholder !== undefined) pieces.push(imagePlaceholder);
  }
  const text = pieces.join('\n');
  const hasImages = result.content.some((part) => part.type === 'image');
  const body = text === '' && !hasImages ? emptyToolResultText : text;
  return result.isError ? `${toolErrorPrefix}${body}` : body;
}

export function imagesOf(result: ToolResult): ImagePart[] {
  return result.content.filter((part): part is ImagePart => part.type === 'image');
}
