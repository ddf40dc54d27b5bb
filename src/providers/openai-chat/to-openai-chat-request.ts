/**
 * Provider-neutral request → OpenAI Chat Completions request body (also what local
 * OpenAI-compatible servers take).
 *
 * Chat Completions answers 400 when an assistant message's `tool_calls` are not each followed by a
 * `role: 'tool'` message with its id, and a tool message holds text only: so every call id is
 * answered (a made-up error result if the history lacks one), and images travel in a user message
 * right after the tool messages.
 *
 * Tool schemas go through the shared normaliser (`openai-chat`, or `openai-compatible` for local
 * servers); the translation also returns how each tool's arguments differ from what its server
 * declared, so the answer's calls can be put back into the server's shape.
 */

import type {
  ChatCompletionContentPart,
  ChatCompletionContentPartImage,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { OPENAI_CHAT_CALL_IDS } from '../call-id-rules.js';
import { fitRequestImages } from '../images/fit-request-images.js';
import { OPENAI_IMAGE_LIMITS } from '../images/image-limits.js';
import type {
  AssistantMessage,
  Message,
  ModelRequest,
  ToolDefinition,
  ToolResultsMessage,
  UserMessage,
} from '../types.js';
import { withWireCallIds } from '../wire-call-ids.js';
import {
  argumentsForModel,
  type ToolArgumentShape,
  type ToolArgumentShapes,
  toolArgumentShape,
} from './openai-tool-arguments.js';
import {
  imageDataUrl,
  imageInNextMessagePlaceholder,
  imagesOf,
  toolErrorPrefix,
  toolResultText,
} from './openai-tool-result-content.js';
import { toOpenAiFunctionSchema } from './openai-tool-schema.js';

interface OpenAiChatRequestSettings {
  model: string;
  /** A local server: no strict schemas (most ignore or reject it), `max_tokens` instead of `max_completion_tokens`. */
  local: boolean;
  /** Ask for strict mode on each tool whose schema can be strict (never for a local server). Default false. */
  strictTools?: boolean;
  /** The key of this adapter's options in `request.providerOptions` (its provider id). */
  providerOptionsKey?: string;
}

/** Answers a call that the history has no result for, so the request stays well-formed. */
export const missingResultText = `${toolErrorPrefix}no result was recorded for this call.`;

interface OpenAiChatTranslation {
  body: ChatCompletionCreateParamsNonStreaming;
  /** Per offered tool: how the model's arguments differ from the server's shape (see `argumentsForServer`). */
  toolShapes: ToolArgumentShapes;
}

export function toOpenAiChatRequest(
  request: ModelRequest,
  settings: OpenAiChatRequestSettings,
): ChatCompletionCreateParamsNonStreaming {
  return translateOpenAiChatRequest(request, settings).body;
}

export function translateOpenAiChatRequest(
  request: ModelRequest,
  settings: OpenAiChatRequestSettings,
): OpenAiChatTranslation {
  const toolShapes = new Map<string, ToolArgumentShape>();
  const vendorOptions = settings.providerOptionsKey
    ? request.providerOptions?.[settings.providerOptionsKey]
    : undefined;
  const body: ChatCompletionCreateParamsNonStreaming = {
    // Vendor-only options (temperature, prompt_cache_key …) first, so they never replace what the host decided.
    ...withoutOwnedKeys(vendorOptions),
    model: settings.model,
    messages: [],
  };
  if (request.tools.length > 0) body.tools = toChatTools(request.tools, settings, toolShapes);
  body.messages = toChatMessages(fitRequestImages(request, OPENAI_IMAGE_LIMITS), toolShapes);
  if (request.maxOutputTokens !== undefined) {
    if (settings.local) body.max_tokens = request.maxOutputTokens;
    else body.max_completion_tokens = request.maxOutputTokens;
  }
  return { body, toolShapes };
}

/**
 * Sorted by name: a reordered tools array defeats the provider's prefix cache. `shapes`, when given,
 * receives each tool's argument shape.
 */
export function toChatTools(
  tools: readonly ToolDefinition[],
  settings: Pick<OpenAiChatRequestSettings, 'local' | 'strictTools'>,
  shapes?: Map<string, ToolArgumentShape>,
): ChatCompletionFunctionTool[] {
  const { local } = settings;
  return [...tools]
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
    .map((tool) => {
      const schema = toOpenAiFunctionSchema(tool.inputSchema, {
        allowStrict: !local && settings.strictTools === true,
        target: local ? 'openai-compatible' : 'openai-chat',
        toolName: tool.name,
      });
      shapes?.set(tool.name, toolArgumentShape(schema));
      const { parameters, strict } = schema;
      const definition: ChatCompletionFunctionTool['function'] = { name: tool.name };
      if (tool.description !== '') definition.description = tool.description;
      definition.parameters = parameters;
      // `strict` is left out unless it is true: false is the API's default, and some local servers
      // reject fields they do not know.
      if (strict) definition.strict = true;
      return { type: 'function', function: definition };
    });
}

/** `toolShapes` re-wraps the arguments of calls to tools whose schema root was wrapped. */
function toChatMessages(
  request: ModelRequest,
  toolShapes: ToolArgumentShapes = new Map(),
): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system !== undefined && request.system !== '') messages.push({ role: 'system', content: request.system });
  // Ids another provider or a local server made up can be longer than OpenAI takes.
  const history = withWireCallIds(request.messages, OPENAI_CHAT_CALL_IDS);
  for (const [index, message] of history.entries()) {
    if (message.role === 'user') messages.push(toUserMessage(message));
    else if (message.role === 'assistant') {
      messages.push(toAssistantMessage(message, toolShapes));
      const next = history[index + 1];
      if (next?.role !== 'tool') messages.push(...missingResults(callIdsOf(message), new Set()));
    } else {
      messages.push(...toToolMessages(message, previousAssistant(history, index)));
    }
  }
  return messages;
}

function toUserMessage(message: UserMessage): ChatCompletionMessageParam {
  if (message.content.every((part) => part.type === 'text')) {
    return { role: 'user', content: message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n') };
  }
  const content: ChatCompletionContentPart[] = message.content.map((part) =>
    part.type === 'text' ? { type: 'text', text: part.text } : imagePart(imageDataUrl(part)),
  );
  return { role: 'user', content };
}

function toAssistantMessage(message: AssistantMessage, toolShapes: ToolArgumentShapes): ChatCompletionMessageParam {
  const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = [];
  for (const part of message.content) {
    if (part.type !== 'tool-call') continue;
    // Replayed as produced; an empty string (some local models) is not JSON, and servers that parse it fail.
    const argumentsText =
      part.argumentsText.trim() === '' ? '{}' : argumentsForModel(part.argumentsText, toolShapes.get(part.name));
    toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: argumentsText } });
  }
  if (toolCalls.length === 0) return { role: 'assistant', content: text };
  return { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls };
}

/** One tool message per result, then one for each unanswered call, then the images in a user message. */
function toToolMessages(
  message: ToolResultsMessage,
  assistant: AssistantMessage | undefined,
): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  const answered = new Set<string>();
  const imageParts: ChatCompletionContentPart[] = [];
  for (const result of message.results) {
    answered.add(result.callId);
    messages.push({
      role: 'tool',
      tool_call_id: result.callId,
      content: toolResultText(result, imageInNextMessagePlaceholder),
    });
    const images = imagesOf(result);
    if (images.length === 0) continue;
    const count = images.length === 1 ? 'an image' : `${images.length} images`;
    imageParts.push({ type: 'text', text: `The tool call ${result.callId} (${result.toolName}) returned ${count}:` });
    for (const image of images) imageParts.push(imagePart(imageDataUrl(image)));
  }
  messages.push(...missingResults(assistant ? callIdsOf(assistant) : [], answered));
  if (imageParts.length > 0) messages.push({ role: 'user', content: imageParts });
  return messages;
}

function missingResults(callIds: readonly string[], answered: ReadonlySet<string>): ChatCompletionMessageParam[] {
  return callIds
    .filter((id) => !answered.has(id))
    .map((id) => ({ role: 'tool' as const, tool_call_id: id, content: missingResultText }));
}

function callIdsOf(message: AssistantMessage): string[] {
  return message.content.flatMap((part) => (part.type === 'tool-call' ? [part.id] : []));
}

function previousAssistant(history: readonly Message[], index: number): AssistantMessage | undefined {
  const previous = history[index - 1];
  return previous?.role === 'assistant' ? previous : undefined;
}

function imagePart(url: string): ChatCompletionContentPartImage {
  return { type: 'image_url', image_url: { url } };
}

/** Keys the adapter owns; `providerOptions[provider]` cannot set them. */
const ownedKeys = new Set(['model', 'messages', 'tools', 'stream', 'stream_options']);

function withoutOwnedKeys(options: unknown): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return {};
  return Object.fromEntries(Object.entries(options).filter(([key]) => !ownedKeys.has(key)));
}
