/**
 * Provider-neutral request → OpenAI Responses request body. Stateless (`store: false`): the whole
 * conversation goes in `input` every turn, the model's own items replayed exactly when the turn
 * came from this adapter. Each call is answered by one `function_call_output` keyed on `call_id`;
 * the error flag is said in the text and images go in the output itself as `input_image`.
 *
 * Tool schemas go through the shared normaliser (`openai-responses`), strict only when asked for and
 * the schema can be made strict; the translation also returns how each tool's arguments differ from
 * what its server declared, so the answer's calls can be put back into the server's shape.
 */
import type {
  FunctionTool,
  ResponseCreateParamsNonStreaming,
  ResponseFunctionCallOutputItem,
  ResponseIncludable,
  ResponseInputContent,
  ResponseInputItem,
  Tool,
} from 'openai/resources/responses/responses';
import { OPENAI_RESPONSES_CALL_IDS } from '../call-id-rules.js';
import { fitRequestImages } from '../images/fit-request-images.js';
import { OPENAI_IMAGE_LIMITS } from '../images/image-limits.js';
import {
  argumentsForModel,
  type ToolArgumentShape,
  type ToolArgumentShapes,
  toolArgumentShape,
} from '../openai-chat/openai-tool-arguments.js';
import { imageDataUrl, imagesOf, toolResultText } from '../openai-chat/openai-tool-result-content.js';
import { toOpenAiFunctionSchema } from '../openai-chat/openai-tool-schema.js';
import { missingResultText } from '../openai-chat/to-openai-chat-request.js';
import type { AssistantMessage, ModelRequest, ToolDefinition, ToolResultsMessage, UserMessage } from '../types.js';
import { withWireCallIds } from '../wire-call-ids.js';
import { replayItems, responsesProviderId } from './openai-responses-replay.js';
import { responsesToolSearchTool } from './openai-responses-tool-search.js';

interface OpenAiResponsesRequestSettings {
  model: string;
  /** Ask for strict mode on each tool whose schema can be strict. Default false. */
  strictTools?: boolean;
}

/**
 * Reasoning models: with `store: false` their reasoning survives between turns only as encrypted
 * content, which must be asked for. Other models answer 400 to the same request, hence the name test;
 * `providerOptions['openai-responses'].include` overrides it.
 */
const reasoningModelPattern = /^(o\d|gpt-5|codex)/i;

interface OpenAiResponsesTranslation {
  body: ResponseCreateParamsNonStreaming;
  /** Per offered tool: how the model's arguments differ from the server's shape (see `argumentsForServer`). */
  toolShapes: ToolArgumentShapes;
}

export function toOpenAiResponsesRequest(
  request: ModelRequest,
  settings: OpenAiResponsesRequestSettings,
): ResponseCreateParamsNonStreaming {
  return translateOpenAiResponsesRequest(request, settings).body;
}

export function translateOpenAiResponsesRequest(
  request: ModelRequest,
  settings: OpenAiResponsesRequestSettings,
): OpenAiResponsesTranslation {
  const toolShapes = new Map<string, ToolArgumentShape>();
  const tools = request.tools.length > 0 ? toResponsesTools(request.tools, settings, toolShapes) : undefined;
  const vendorOptions = request.providerOptions?.[responsesProviderId];
  const body: ResponseCreateParamsNonStreaming = {
    // Vendor-only options (reasoning, prompt_cache_key …) first, so they never replace what the host decided.
    ...withoutOwnedKeys(vendorOptions),
    model: settings.model,
    input: toResponsesInput(fitRequestImages(request, OPENAI_IMAGE_LIMITS), toolShapes),
    store: false,
  };
  if (request.system !== undefined && request.system !== '') body.instructions = request.system;
  if (tools !== undefined) body.tools = tools;
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (body.include === undefined && reasoningModelPattern.test(settings.model)) {
    const include: ResponseIncludable[] = ['reasoning.encrypted_content'];
    body.include = include;
  }
  return { body, toolShapes };
}

/**
 * Sorted by name (a reordered tools array defeats prefix caching); `strict` always set, as the type
 * requires. `shapes`, when given, receives each tool's argument shape. Deferred tools are marked and the
 * hosted tool search follows them.
 */
export function toResponsesTools(
  tools: readonly ToolDefinition[],
  settings: Pick<OpenAiResponsesRequestSettings, 'strictTools'>,
  shapes?: Map<string, ToolArgumentShape>,
): Tool[] {
  const functions = toResponsesFunctions(tools, settings, shapes);
  return tools.some((tool) => tool.deferLoading === true) ? [...functions, { ...responsesToolSearchTool }] : functions;
}

function toResponsesFunctions(
  tools: readonly ToolDefinition[],
  settings: Pick<OpenAiResponsesRequestSettings, 'strictTools'>,
  shapes?: Map<string, ToolArgumentShape>,
): FunctionTool[] {
  return [...tools]
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
    .map((tool) => {
      const schema = toOpenAiFunctionSchema(tool.inputSchema, {
        allowStrict: settings.strictTools === true,
        target: 'openai-responses',
        toolName: tool.name,
      });
      shapes?.set(tool.name, toolArgumentShape(schema));
      const { parameters, strict } = schema;
      const definition: FunctionTool = { type: 'function', name: tool.name, parameters, strict };
      if (tool.description !== '') definition.description = tool.description;
      if (tool.deferLoading === true) definition.defer_loading = true;
      return definition;
    });
}

/** `toolShapes` re-wraps the arguments of calls to tools whose schema root was wrapped. */
function toResponsesInput(request: ModelRequest, toolShapes: ToolArgumentShapes = new Map()): ResponseInputItem[] {
  const input: ResponseInputItem[] = [];
  // One flat list, whose outputs find their calls by call_id: ids a local model repeats at every turn are renamed,
  // and ids longer than the API takes are cut.
  const history = withWireCallIds(request.messages, OPENAI_RESPONSES_CALL_IDS);
  for (const [index, message] of history.entries()) {
    if (message.role === 'user') input.push(toUserItem(message));
    else if (message.role === 'assistant') {
      input.push(...toAssistantItems(message, toolShapes));
      if (history[index + 1]?.role !== 'tool') input.push(...missingOutputs(message, new Set()));
    } else {
      const previous = history[index - 1];
      input.push(...toOutputItems(message, previous?.role === 'assistant' ? previous : undefined));
    }
  }
  return input;
}

function toUserItem(message: UserMessage): ResponseInputItem {
  const content: ResponseInputContent[] = message.content.map((part) =>
    part.type === 'text'
      ? { type: 'input_text', text: part.text }
      : { type: 'input_image', image_url: imageDataUrl(part), detail: 'auto' },
  );
  return { type: 'message', role: 'user', content };
}

function toAssistantItems(message: AssistantMessage, toolShapes: ToolArgumentShapes): ResponseInputItem[] {
  const replayed = replayItems(message);
  if (replayed !== undefined) return replayed;
  const items: ResponseInputItem[] = [];
  const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  if (text !== '') items.push({ type: 'message', role: 'assistant', content: text });
  for (const part of message.content) {
    if (part.type !== 'tool-call') continue;
    const argumentsText =
      part.argumentsText.trim() === '' ? '{}' : argumentsForModel(part.argumentsText, toolShapes.get(part.name));
    items.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: argumentsText });
  }
  return items;
}

/** One `function_call_output` per result, then one per call the history has no result for. */
function toOutputItems(message: ToolResultsMessage, assistant: AssistantMessage | undefined): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  const answered = new Set<string>();
  for (const result of message.results) {
    answered.add(result.callId);
    const text = toolResultText(result);
    const images = imagesOf(result);
    if (images.length === 0) {
      items.push({ type: 'function_call_output', call_id: result.callId, output: text });
      continue;
    }
    const output: ResponseFunctionCallOutputItem[] = [];
    if (text !== '') output.push({ type: 'input_text', text });
    for (const image of images) output.push({ type: 'input_image', image_url: imageDataUrl(image), detail: 'auto' });
    items.push({ type: 'function_call_output', call_id: result.callId, output });
  }
  if (assistant) items.push(...missingOutputs(assistant, answered));
  return items;
}

function missingOutputs(assistant: AssistantMessage, answered: ReadonlySet<string>): ResponseInputItem[] {
  return assistant.content.flatMap((part): ResponseInputItem[] =>
    part.type === 'tool-call' && !answered.has(part.id)
      ? [{ type: 'function_call_output', call_id: part.id, output: missingResultText }]
      : [],
  );
}

/** Keys the adapter owns; `providerOptions['openai-responses']` cannot set them. */
const ownedKeys = new Set(['model', 'input', 'store', 'tools', 'instructions', 'stream']);

function withoutOwnedKeys(options: unknown): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return {};
  return Object.fromEntries(Object.entries(options).filter(([key]) => !ownedKeys.has(key)));
}
