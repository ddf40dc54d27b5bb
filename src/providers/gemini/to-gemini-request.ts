/**
 * ModelRequest (provider-neutral) → the parameters of Gemini's generateContent. Pure: no client, no
 * I/O, so it is tested against fixtures.
 *
 * Gemini's rules applied here (PROVIDERS.md): tools go as `functionDeclarations`, a schema in
 * `parameters` when it lies in the small subset Gemini's own `Schema` type takes, else in
 * `parametersJsonSchema` (legacy `parameters` rejects most real schemas), none for a tool that
 * takes no parameters (a call then may come without `args`: read as `{}`); the model's own `Content`
 * is replayed exactly as it came back, thought signatures included; all results of one turn go in
 * ONE user `Content` holding one `functionResponse` per call, an error as `response.error`.
 */

import type { Content, FunctionDeclaration, GenerateContentConfig, Part, Schema, Tool } from '@google/genai';
import { parseJsonWithinDepth } from '../../json/json-depth.js';
import { fitRequestImages } from '../images/fit-request-images.js';
import { GEMINI_IMAGE_LIMITS } from '../images/image-limits.js';
import { checkToolName, geminiToolParameters, WRAPPED_ARGUMENT_NAME } from '../schema/index.js';
import {
  type AssistantMessage,
  type ImagePart,
  type Message,
  type ModelRequest,
  ProviderError,
  type TextPart,
  type ToolDefinition,
  type ToolResult,
} from '../types.js';
import { replayedGeminiContent } from './gemini-replay.js';

export interface GeminiRequest {
  contents: Content[];
  /** Everything the adapter sets in the SDK's `config`, before per-call plumbing (signal, fetch). */
  config: GenerateContentConfig;
}

export interface GeminiRequestTranslation {
  request: GeminiRequest;
  /** Tools whose schema root was wrapped as `{value: …}`: their call arguments are unwrapped. */
  wrappedTools: ReadonlySet<string>;
}

/**
 * Google documents this value for a function call whose real signature is unknown (history from
 * another provider, or written by hand); without a signature, Gemini 3 rejects replayed calls.
 * (Unverified: no Gemini model can be reached from here.)
 */
export const placeholderThoughtSignature = 'skip_thought_signature_validator';

/** Keys the adapter owns; `providerOptions.gemini` cannot override them. */
const ownedConfigKeys = new Set([
  'systemInstruction',
  'tools',
  'maxOutputTokens',
  'abortSignal',
  'httpOptions',
  'automaticFunctionCalling',
  'automaticContinuation',
]);

export function toGeminiRequest(request: ModelRequest): GeminiRequestTranslation {
  const wrappedTools = new Set<string>();
  const declarations = [...request.tools]
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
    .map((tool) => toFunctionDeclaration(tool, wrappedTools));
  const config: GenerateContentConfig = { ...vendorOptions(request.providerOptions) };
  if (request.system) config.systemInstruction = { parts: [{ text: request.system }] };
  if (declarations.length > 0) config.tools = [{ functionDeclarations: declarations } satisfies Tool];
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  const messages = fitRequestImages(request, GEMINI_IMAGE_LIMITS).messages;
  return { request: { contents: toGeminiContents(messages, wrappedTools), config }, wrappedTools };
}

function toFunctionDeclaration(tool: ToolDefinition, wrappedTools: Set<string>): FunctionDeclaration {
  const [problem] = checkToolName(tool.name, 'gemini');
  if (problem) {
    throw new ProviderError(`Cannot offer this tool to Gemini: ${problem}. Rename the tool or its server.`, {
      provider: 'gemini',
      retryable: false,
    });
  }
  // No schema for a tool that takes no parameters; `parameters` (shorter) when Gemini's Schema type holds it.
  const { fields, wrapped } = geminiToolParameters(tool.inputSchema, tool.name);
  if (wrapped) wrappedTools.add(tool.name);
  const { parameters, parametersJsonSchema } = fields;
  return {
    name: tool.name,
    ...(tool.description !== '' && { description: tool.description }),
    // Already in the Schema type's spelling (upper-case type names): the SDK passes it on unchanged.
    ...(parameters && { parameters: parameters as Schema }),
    ...(parametersJsonSchema && { parametersJsonSchema }),
  };
}

export function toGeminiContents(messages: readonly Message[], wrappedTools: ReadonlySet<string>): Content[] {
  const contents: Content[] = [];
  let lastModelContent: Content | undefined;
  for (const message of messages) {
    if (message.role === 'assistant') {
      const content = replayedGeminiContent(message) ?? modelContentFromParts(message, wrappedTools);
      if (content.parts && content.parts.length > 0) contents.push(content);
      lastModelContent = content;
    } else if (message.role === 'user') {
      appendUserParts(contents, message.content.flatMap(toUserPart));
    } else {
      appendUserParts(
        contents,
        message.results.map((result) => functionResponsePart(result, lastModelContent)),
      );
    }
  }
  return contents;
}

/** Adjacent user parts share one Content: results first, then any text the user added after them. */
function appendUserParts(contents: Content[], parts: Part[]): void {
  if (parts.length === 0) return;
  const previous = contents.at(-1);
  if (previous?.role === 'user') previous.parts = [...(previous.parts ?? []), ...parts];
  else contents.push({ role: 'user', parts });
}

function toUserPart(part: TextPart | ImagePart): Part[] {
  if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }];
  return [{ inlineData: { mimeType: part.mimeType, data: part.data } }];
}

/** A model turn Gemini did not write (or whose Content was not kept), rebuilt from its parts. */
function modelContentFromParts(message: AssistantMessage, wrappedTools: ReadonlySet<string>): Content {
  const parts: Part[] = [];
  for (const part of message.content) {
    if (part.type === 'text') {
      if (part.text !== '') parts.push({ text: part.text });
      continue;
    }
    const args = callArguments(part.argumentsText, wrappedTools.has(part.name));
    const isFirstCall = !parts.some((existing) => existing.functionCall !== undefined);
    parts.push({
      functionCall: { name: part.name, args },
      ...(isFirstCall && { thoughtSignature: placeholderThoughtSignature }),
    });
  }
  return { role: 'model', parts };
}

/** The arguments as Gemini sent them: an object, re-wrapped when the tool's schema was wrapped. */
function callArguments(argumentsText: string, wrapped: boolean): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseJsonWithinDepth(argumentsText);
  } catch {
    // The loop does not run a call whose arguments do not parse; `{}` only keeps the body valid.
    return {};
  }
  if (wrapped) return { [WRAPPED_ARGUMENT_NAME]: value };
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * One `functionResponse` per call. Its `id` is sent only when the model's call carried that id
 * (ids the host made up mean nothing to Gemini). Images travel as `functionResponse.parts`
 * (inlineData), never as base64 text; which models read them there is unverified.
 */
function functionResponsePart(result: ToolResult, modelContent: Content | undefined): Part {
  const callIds = new Set(
    (modelContent?.parts ?? []).map((part) => part.functionCall?.id).filter((id): id is string => Boolean(id)),
  );
  const text = result.content
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
  const images = result.content.filter((part): part is ImagePart => part.type === 'image');
  const output = text !== '' || images.length === 0 ? text : `[${images.length} image(s) attached]`;
  return {
    functionResponse: {
      ...(callIds.has(result.callId) && { id: result.callId }),
      name: result.toolName,
      response: result.isError ? { error: output } : { output },
      ...(images.length > 0 && {
        parts: images.map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data } })),
      }),
    },
  };
}

/** Vendor-only settings from `providerOptions.gemini` (temperature, thinkingConfig…), minus owned keys. */
function vendorOptions(providerOptions: Record<string, unknown> | undefined): GenerateContentConfig {
  const options = providerOptions?.gemini;
  if (options === null || typeof options !== 'object') return {};
  return Object.fromEntries(Object.entries(options).filter(([key]) => !ownedConfigKeys.has(key)));
}
