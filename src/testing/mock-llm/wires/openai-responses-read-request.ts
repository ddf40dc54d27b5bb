/**
 * Reads an OpenAI Responses request body for the mock server, and rejects what the real API
 * rejects (a call without its output or an output without its call, item ids or reasoning without
 * encrypted content under `store: false`, bad tool names, non-strict schemas where strict applies —
 * `strict` defaults to true here), so host bugs show up in tests instead of in production.
 */
import type { ConversationView } from '../../script-types.js';
import { userQuestions } from '../../user-questions.js';
import { checkFunctionTool, isRecord, looksLikeToolError, madeUpTokenCount } from './openai-wire-common.js';

export interface OpenAiResponsesView extends ConversationView {
  promptTokens: number;
  instructions: string | null;
}

type Item = Record<string, unknown>;

const assistantSideTypes = new Set(['function_call', 'reasoning', 'tool_search_call', 'tool_search_output']);
/** The longest call_id OpenAI takes, in characters. */
const maxCallIdLength = 64;
const imageUrlPattern = /^(data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+|https?:\/\/\S+)$/;

export function readOpenAiResponsesRequest(body: unknown): OpenAiResponsesView {
  if (!isRecord(body)) throw new Error('The request body must be a JSON object');
  if (typeof body.model !== 'string' || body.model === '') throw new Error("Missing required parameter: 'model'.");
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    throw new Error("Invalid type for 'stream': expected a boolean.");
  }
  const tools = readTools(body.tools);
  const stored = body.store !== false;
  const items = readInput(body.input, stored);
  checkCallPairing(items);
  const loadedTools = checkToolSearchHistory(items, tools);

  const firstUser = items.find((item) => isMessage(item) && item.role === 'user');
  const lastAssistantSide = items.findLastIndex(isAssistantSide);
  return {
    model: body.model,
    stream: body.stream === true,
    toolNames: tools.names,
    ...(tools.toolSearch ? { toolSearch: true } : {}),
    ...(tools.deferred.length === 0 ? {} : { deferredTools: tools.deferred, loadedTools }),
    firstUserText: firstUser ? textOf(firstUser.content) : '',
    assistantTurns: countAssistantTurns(items),
    callIds: items.flatMap((item) => (item.type === 'function_call' ? String(item.call_id) : [])),
    userQuestions: userQuestions(
      items,
      // As countAssistantTurns counts: a run of assistant-side items is one turn.
      (item, index) => isAssistantSide(item) && (index === 0 || !isAssistantSide(items[index - 1]!)),
      (item) => (isMessage(item) && item.role === 'user' ? textOf(item.content) : undefined),
    ),
    lastToolResults:
      lastAssistantSide === -1
        ? []
        : items
            .slice(lastAssistantSide + 1)
            .filter((item) => item.type === 'function_call_output')
            .map((item) => {
              const text = textOf(item.output);
              return { text, isError: looksLikeToolError(text) };
            }),
    promptTokens: madeUpTokenCount(body.input) + madeUpTokenCount(body.tools) + madeUpTokenCount(body.instructions),
    instructions: typeof body.instructions === 'string' ? body.instructions : null,
  };
}

interface ReadTools {
  names: string[];
  /** Function tools sent with `defer_loading: true`. */
  deferred: { name: string; description: string; definition: unknown }[];
  /** The hosted `tool_search` tool is offered. */
  toolSearch: boolean;
}

function readTools(tools: unknown): ReadTools {
  const read: ReadTools = { names: [], deferred: [], toolSearch: false };
  if (tools === undefined || tools === null) return read;
  if (!Array.isArray(tools)) throw new Error("Invalid type for 'tools': expected an array.");
  for (const [index, tool] of tools.entries()) {
    if (isRecord(tool) && tool.type === 'tool_search') {
      if (tool.execution !== undefined && tool.execution !== 'server') {
        throw new Error(`Invalid value for 'tools[${index}].execution': this mock runs only the hosted search.`);
      }
      read.toolSearch = true;
      continue;
    }
    if (!isRecord(tool) || tool.type !== 'function') {
      throw new Error(`Invalid value for 'tools[${index}].type': this mock knows only function and tool_search tools.`);
    }
    if (tool.strict !== undefined && tool.strict !== null && typeof tool.strict !== 'boolean') {
      throw new Error(`Invalid type for 'tools[${index}].strict': expected a boolean.`);
    }
    if (tool.defer_loading !== undefined && typeof tool.defer_loading !== 'boolean') {
      throw new Error(`Invalid type for 'tools[${index}].defer_loading': expected a boolean.`);
    }
    // The Responses API treats a function tool without `strict` as strict.
    const name = checkFunctionTool(tool.name, tool.parameters, tool.strict !== false, `tools[${index}]`);
    if (tool.defer_loading === true) {
      const description = typeof tool.description === 'string' ? tool.description : '';
      read.deferred.push({ name, description, definition: tool });
    }
    read.names.push(name);
  }
  if (read.deferred.length > 0 && !read.toolSearch) {
    throw new Error(
      "Invalid 'tools': deferred functions (defer_loading: true) need a tool_search tool among the tools.",
    );
  }
  return read;
}

/**
 * The hosted search's items as they must come back: a `tool_search_output` after a `tool_search_call`, loading
 * deferred functions of `tools`, and a `function_call` of a deferred function only after an output that loaded it.
 * Returns the functions loaded so far.
 */
function checkToolSearchHistory(items: Item[], tools: ReadTools): string[] {
  const deferred = new Set(tools.deferred.map((tool) => tool.name));
  const loaded = new Set<string>();
  let searches = 0;
  for (const [index, item] of items.entries()) {
    if (item.type === 'tool_search_call') searches++;
    if (item.type === 'tool_search_output') {
      if (searches === 0)
        throw new Error(`Invalid 'input[${index}]': a tool_search_output without a tool_search_call before it.`);
      for (const tool of Array.isArray(item.tools) ? item.tools : []) {
        const name = isRecord(tool) ? tool.name : undefined;
        if (typeof name !== 'string' || !deferred.has(name)) {
          throw new Error(`Invalid 'input[${index}].tools': ${String(name)} is no deferred function of this request.`);
        }
        loaded.add(name);
      }
    }
    if (item.type === 'function_call' && deferred.has(String(item.name)) && !loaded.has(String(item.name))) {
      throw new Error(
        `Invalid 'input[${index}]': a call of the deferred function ${String(item.name)}, which no tool_search_output before it loaded.`,
      );
    }
  }
  return [...loaded];
}

function readInput(input: unknown, stored: boolean): Item[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  if (!Array.isArray(input) || input.length === 0) {
    throw new Error("Invalid 'input': expected a string or a non-empty array of input items.");
  }
  return input.map((item, index) => {
    const where = `input[${index}]`;
    if (!isRecord(item)) throw new Error(`Invalid type for '${where}': expected an object.`);
    if (isMessage(item)) checkMessage(item, where);
    else if (item.type === 'function_call') {
      if (typeof item.call_id !== 'string' || typeof item.name !== 'string' || typeof item.arguments !== 'string') {
        throw new Error(`Invalid '${where}': a function_call needs call_id, name and arguments (a string).`);
      }
      checkCallIdLength(item.call_id, `${where}.call_id`);
    } else if (item.type === 'function_call_output') {
      if (typeof item.call_id !== 'string') throw new Error(`Missing required parameter: '${where}.call_id'.`);
      checkCallIdLength(item.call_id, `${where}.call_id`);
      checkOutput(item.output, `${where}.output`);
    } else if (item.type === 'tool_search_call') {
      if (item.execution !== undefined && item.execution !== 'server') {
        throw new Error(`Invalid '${where}.execution': this mock runs only the hosted search.`);
      }
    } else if (item.type === 'tool_search_output') {
      if (!Array.isArray(item.tools)) throw new Error(`Missing required parameter: '${where}.tools'.`);
    } else if (item.type === 'reasoning' || item.type === 'item_reference') {
      const hasContent = typeof item.encrypted_content === 'string' && item.encrypted_content !== '';
      if (!stored && !hasContent) {
        throw new Error(
          `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
        );
      }
    } else {
      throw new Error(`Invalid value for '${where}.type': ${JSON.stringify(item.type)} is not known to this mock.`);
    }
    return item;
  });
}

function isMessage(item: Item): boolean {
  return item.type === 'message' || (item.type === undefined && typeof item.role === 'string');
}

function isAssistantSide(item: Item): boolean {
  return assistantSideTypes.has(String(item.type)) || (isMessage(item) && item.role === 'assistant');
}

function checkMessage(item: Item, where: string): void {
  if (!['user', 'assistant', 'system', 'developer'].includes(String(item.role))) {
    throw new Error(`Invalid value for '${where}.role': ${JSON.stringify(item.role)}.`);
  }
  if (typeof item.content === 'string') return;
  if (!Array.isArray(item.content))
    throw new Error(`Invalid type for '${where}.content': expected a string or an array.`);
  const allowed = item.role === 'assistant' ? ['output_text', 'refusal'] : ['input_text', 'input_image', 'input_file'];
  for (const [index, part] of item.content.entries()) {
    if (!isRecord(part) || !allowed.includes(String(part.type))) {
      throw new Error(`Invalid value for '${where}.content[${index}].type': expected one of ${allowed.join(', ')}.`);
    }
    checkImage(part, `${where}.content[${index}]`);
  }
}

function checkOutput(output: unknown, where: string): void {
  if (typeof output === 'string') return;
  if (!Array.isArray(output)) throw new Error(`Invalid type for '${where}': expected a string or an array.`);
  for (const [index, part] of output.entries()) {
    if (!isRecord(part) || !['input_text', 'input_image', 'input_file'].includes(String(part.type))) {
      throw new Error(`Invalid value for '${where}[${index}].type': expected input_text, input_image or input_file.`);
    }
    checkImage(part, `${where}[${index}]`);
  }
}

function checkImage(part: Record<string, unknown>, where: string): void {
  if (part.type !== 'input_image') return;
  const url = part.image_url;
  if (typeof part.file_id === 'string') return;
  if (typeof url !== 'string' || !imageUrlPattern.test(url)) {
    throw new Error(
      `Invalid '${where}.image_url': expected a URL or a base64 data URL of a png, jpeg, gif or webp image.`,
    );
  }
}

/** OpenAI's words for a `call_id` over its 64 characters (as users report them; unverified against the live API). */
function checkCallIdLength(callId: string, where: string): void {
  const length = [...callId].length;
  if (length > maxCallIdLength) {
    throw new Error(
      `Invalid '${where}': string too long. Expected a string with maximum length ${maxCallIdLength}, but got a string with length ${length} instead.`,
    );
  }
}

/** Every call answered by an output after it, every output answering an earlier call, no call_id given twice. */
function checkCallPairing(items: Item[]): void {
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const item of items) {
    // An output could not tell which of two calls with one call_id it answers (refused as OpenAI-compatible
    // servers refuse it; OpenAI's own wording is unverified).
    if (item.type === 'function_call' && calls.has(String(item.call_id))) {
      throw new Error(`Duplicate 'call_id': ${String(item.call_id)}.`);
    }
    if (item.type === 'function_call') calls.add(String(item.call_id));
    if (item.type === 'function_call_output') {
      if (!calls.has(String(item.call_id))) {
        throw new Error(`No tool call found for function call output with call_id ${String(item.call_id)}.`);
      }
      answered.add(String(item.call_id));
    }
  }
  const missing = [...calls].find((id) => !answered.has(id));
  if (missing !== undefined) throw new Error(`No tool output found for function call ${missing}.`);
}

function countAssistantTurns(items: Item[]): number {
  let turns = 0;
  let inTurn = false;
  for (const item of items) {
    const assistantSide = isAssistantSide(item);
    if (assistantSide && !inTurn) turns++;
    inTurn = assistantSide;
  }
  return turns;
}

/** Text parts joined by newlines; an image stands as `[image: <mime type>]` so scripts can see it. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (!isRecord(part)) return '';
      if (typeof part.text === 'string') return part.text;
      if (part.type === 'input_image') return `[image: ${/^data:([^;]+);/.exec(String(part.image_url))?.[1] ?? 'url'}]`;
      return '';
    })
    .filter((text) => text !== '')
    .join('\n');
}
