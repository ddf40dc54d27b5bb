/**
 * ModelRequest (provider-neutral) → Anthropic Messages request body. Pure: no client, no I/O, so it
 * is tested against fixtures and its output is what `--trace` shows.
 *
 * Anthropic's rules applied here: all results of one tool turn go back in ONE user message whose
 * content starts with one tool_result block per call (text after them); roles alternate (adjacent
 * messages of one role are merged); empty text blocks are dropped (the API rejects them); images
 * of a type the API does not take become a short text note instead of a rejected request. Tool
 * schemas go through the shared normaliser; the calls of a tool whose root was wrapped are sent
 * back wrapped, as the model wrote them.
 */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParams,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages';
import { parseJsonWithinDepth } from '../../json/json-depth.js';
import { ANTHROPIC_CALL_IDS } from '../call-id-rules.js';
import { fitRequestImages } from '../images/fit-request-images.js';
import { ANTHROPIC_IMAGE_LIMITS } from '../images/image-limits.js';
import { WRAPPED_ARGUMENT_NAME } from '../schema/index.js';
import type { ImagePart, Message, ModelRequest, TextPart, ToolDefinition } from '../types.js';
import { withWireCallIds } from '../wire-call-ids.js';
import { anthropicReplayBlocks } from './anthropic-replay.js';
import { anthropicToolSearchTool } from './anthropic-tool-search.js';
import { applyAnthropicCacheControl } from './apply-anthropic-cache-control.js';
import { toAnthropicToolSchema } from './to-anthropic-input-schema.js';

interface AnthropicRequestSettings {
  model: string;
  /** `max_tokens` when the request sets no `maxOutputTokens`. */
  maxOutputTokens: number;
  stream: boolean;
}

/** Keys the adapter owns; `providerOptions.anthropic` cannot override them. */
const ownedKeys = new Set(['model', 'max_tokens', 'system', 'tools', 'messages', 'stream']);
const imageMediaTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

interface AnthropicTranslation {
  body: MessageCreateParams;
  /** Tools whose schema root was wrapped as `{value: …}`: their call arguments are unwrapped. */
  wrappedTools: ReadonlySet<string>;
}

export function toAnthropicRequest(request: ModelRequest, settings: AnthropicRequestSettings): MessageCreateParams {
  return translateAnthropicRequest(request, settings).body;
}

export function translateAnthropicRequest(
  request: ModelRequest,
  settings: AnthropicRequestSettings,
): AnthropicTranslation {
  const wrappedTools = new Set<string>();
  const tools: ToolUnion[] = request.tools.map((tool) => toAnthropicTool(tool, wrappedTools));
  // Deferred tools are found by the provider's own search, offered after them and never deferred itself.
  if (request.tools.some((tool) => tool.deferLoading === true)) tools.push({ ...anthropicToolSearchTool });
  const system: TextBlockParam[] = request.system ? [{ type: 'text', text: request.system }] : [];
  // The API refuses ids that repeat in one request, as a local model's `call_0` of every turn does, and ids with
  // characters other providers put in them (`functions.get_weather:0`).
  const messages = toAnthropicMessages(
    withWireCallIds(fitRequestImages(request, ANTHROPIC_IMAGE_LIMITS).messages, ANTHROPIC_CALL_IDS),
    wrappedTools,
  );
  applyAnthropicCacheControl({ tools, system, messages });
  const body = {
    ...vendorOptions(request.providerOptions),
    model: settings.model,
    max_tokens: request.maxOutputTokens ?? settings.maxOutputTokens,
    ...(system.length > 0 && { system }),
    ...(tools.length > 0 && { tools }),
    messages,
    ...(settings.stream && { stream: true }),
  } as MessageCreateParams;
  return { body, wrappedTools };
}

function toAnthropicTool(tool: ToolDefinition, wrappedTools: Set<string>): Tool {
  const { inputSchema, wrapped } = toAnthropicToolSchema(tool.inputSchema, tool.name);
  if (wrapped) wrappedTools.add(tool.name);
  return {
    name: tool.name,
    ...(tool.description !== '' && { description: tool.description }),
    input_schema: inputSchema,
    ...(tool.deferLoading === true && { defer_loading: true }),
  };
}

/** `wrappedTools` names the tools whose calls go back wrapped as `{value: …}`. */
function toAnthropicMessages(
  messages: readonly Message[],
  wrappedTools: ReadonlySet<string> = new Set(),
): MessageParam[] {
  const result: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  for (const message of messages) {
    const converted = convertMessage(message, wrappedTools);
    if (converted.content.length === 0) continue;
    const previous = result.at(-1);
    // Tool results and the user's next words are one user turn. Assistant messages in a row stay apart: each is one
    // answer (a paused turn, then its continuation), and the API joins them itself.
    if (previous?.role === 'user' && converted.role === 'user') {
      previous.content = toolResultsFirst([...previous.content, ...converted.content]);
    } else {
      result.push(converted);
    }
  }
  return result;
}

function convertMessage(
  message: Message,
  wrappedTools: ReadonlySet<string>,
): { role: 'user' | 'assistant'; content: ContentBlockParam[] } {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content.flatMap(toContentBlock) };
    case 'assistant':
      return {
        role: 'assistant',
        // An answer that used the provider's tool search goes back as it came, its search blocks in place.
        content:
          anthropicReplayBlocks(message) ??
          message.content.flatMap((part): ContentBlockParam[] =>
            part.type === 'text'
              ? toContentBlock(part)
              : [
                  {
                    type: 'tool_use',
                    id: part.id,
                    name: part.name,
                    input: parseArguments(part.argumentsText, wrappedTools.has(part.name)),
                  },
                ],
          ),
      };
    case 'tool':
      return {
        role: 'user',
        content: message.results.map((result): ToolResultBlockParam => {
          const content = result.content.flatMap(toContentBlock);
          return {
            type: 'tool_result',
            tool_use_id: result.callId,
            ...(content.length > 0 && { content }),
            is_error: result.isError,
          };
        }),
      };
  }
}

function toContentBlock(part: TextPart | ImagePart): (TextBlockParam | ImageBlockParam)[] {
  if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
  if (!imageMediaTypes.has(part.mimeType)) {
    return [
      { type: 'text', text: `[image of type ${part.mimeType} omitted: Anthropic accepts jpeg, png, gif and webp]` },
    ];
  }
  const mediaType = part.mimeType as 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
  return [{ type: 'image', source: { type: 'base64', media_type: mediaType, data: part.data } }];
}

/**
 * The input as the model sent it: re-wrapped when the tool's root was wrapped. The loop never
 * replays a call whose arguments were invalid, so `{}` here only keeps the body valid.
 */
function parseArguments(argumentsText: string, wrapped: boolean): Record<string, unknown> {
  try {
    const value: unknown = parseJsonWithinDepth(argumentsText);
    if (wrapped) return { [WRAPPED_ARGUMENT_NAME]: value };
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Anthropic requires tool_result blocks before any other content of a user message. */
function toolResultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  return [
    ...blocks.filter((block) => block.type === 'tool_result'),
    ...blocks.filter((block) => block.type !== 'tool_result'),
  ];
}

/** Vendor-only options from `providerOptions.anthropic` (e.g. temperature, metadata), minus owned keys. */
function vendorOptions(providerOptions: Record<string, unknown> | undefined): Record<string, unknown> {
  const options = providerOptions?.anthropic;
  if (options === null || typeof options !== 'object') return {};
  return Object.fromEntries(Object.entries(options).filter(([key]) => !ownedKeys.has(key)));
}
