/**
 * Reads an Anthropic Messages request body for the mock server, and rejects what the real API
 * rejects with a 400 (unpaired tool_use, tool_use ids that repeat or hold characters other than
 * letters, digits, `_` and `-`, tool_result after text, empty text blocks, invalid tool names,
 * non-object schemas, more than 4 cache breakpoints, every tool deferred, a tool reference to
 * no deferred tool), so host bugs show up in tests instead of in production. A call of a deferred tool
 * that no search result in the history loaded is refused too: that is a host dropping the search blocks.
 */
import type { ConversationView } from '../../script-types.js';
import { userQuestions } from '../../user-questions.js';

/** Limits the real API enforces on every request. */
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
/** The API's pattern for `tool_use.id` (its own 400); that `tool_result.tool_use_id` is held to it too is unverified. */
const toolUseIdPattern = /^[a-zA-Z0-9_-]+$/;
const maxCacheBreakpoints = 4;
const imageMediaTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const toolSearchToolTypes: ReadonlySet<string> = new Set([
  'tool_search_tool_bm25_20251119',
  'tool_search_tool_regex_20251119',
  'tool_search_tool_bm25',
  'tool_search_tool_regex',
]);

type Block = Record<string, unknown> & { type: string };

export function readAnthropicRequest(body: unknown): ConversationView {
  if (!isRecord(body)) throw new Error('The request body must be a JSON object');
  if (typeof body.model !== 'string' || body.model === '') throw new Error('model: Field required (a model name)');
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 0) {
    throw new Error('max_tokens: Field required (a non-negative integer)');
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new Error('messages: Field required (a non-empty array)');
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean') throw new Error('stream: must be a boolean');
  const tools = readTools(body.tools);
  checkSystem(body.system);
  const messages = body.messages.map((message, index, all) => readMessage(message, index, index === all.length - 1));
  checkToolPairing(messages);
  checkUniqueToolUseIds(messages);
  const loadedTools = checkToolSearchHistory(messages, tools);
  const breakpoints = countCacheBreakpoints([body.tools, body.system, body.messages]);
  if (breakpoints > maxCacheBreakpoints) {
    throw new Error(
      `A maximum of ${maxCacheBreakpoints} blocks with cache_control may be provided. Found ${breakpoints}.`,
    );
  }

  const firstUser = messages.find((message) => message.role === 'user');
  const last = messages[messages.length - 1];
  return {
    model: body.model,
    stream: body.stream === true,
    toolNames: tools.names,
    ...(tools.searchToolName === undefined ? {} : { toolSearch: true }),
    ...(tools.deferred.length === 0 ? {} : { deferredTools: tools.deferred, loadedTools }),
    canPauseTurn: true,
    firstUserText: firstUser ? textOfBlocks(firstUser.blocks.filter((block) => block.type !== 'tool_result')) : '',
    assistantTurns: messages.filter((message) => message.role === 'assistant').length,
    callIds: messages.flatMap((message) =>
      message.blocks.flatMap((block) => (block.type === 'tool_use' ? String(block.id) : [])),
    ),
    userQuestions: userQuestions(
      messages,
      (message) => message.role === 'assistant',
      (message) => textOfBlocks(message.blocks.filter((block) => block.type !== 'tool_result')),
    ),
    lastToolResults:
      last?.role === 'user'
        ? last.blocks
            .filter((block) => block.type === 'tool_result')
            .map((block) => ({ text: textOfToolResult(block.content), isError: block.is_error === true }))
        : [],
  };
}

interface ReadMessage {
  role: 'user' | 'assistant';
  blocks: Block[];
}

interface ReadTools {
  names: string[];
  /** Tools sent with `defer_loading: true`. */
  deferred: { name: string; description: string; definition: unknown }[];
  /** The name of the server-side tool search tool, when one is offered. */
  searchToolName?: string;
}

function readTools(tools: unknown): ReadTools {
  const read: ReadTools = { names: [], deferred: [] };
  if (tools === undefined) return read;
  if (!Array.isArray(tools)) throw new Error('tools: must be an array');
  for (const [index, tool] of tools.entries()) {
    if (!isRecord(tool) || typeof tool.name !== 'string') throw new Error(`tools.${index}.name: Field required`);
    if (!toolNamePattern.test(tool.name)) {
      throw new Error(`tools.${index}.name: String should match pattern '${toolNamePattern.source}'`);
    }
    const isCustom = tool.type === undefined || tool.type === null || tool.type === 'custom';
    if (isCustom && (!isRecord(tool.input_schema) || tool.input_schema.type !== 'object')) {
      throw new Error(`tools.${index}.input_schema: JSON schema is invalid - the root must have "type": "object"`);
    }
    if (tool.defer_loading !== undefined && tool.defer_loading !== null && typeof tool.defer_loading !== 'boolean') {
      throw new Error(`tools.${index}.defer_loading: Input should be a valid boolean`);
    }
    if (toolSearchToolTypes.has(String(tool.type))) {
      if (tool.defer_loading === true) throw new Error(`tools.${index}: the tool search tool cannot be deferred`);
      read.searchToolName = tool.name;
    } else if (tool.defer_loading === true) {
      const description = typeof tool.description === 'string' ? tool.description : '';
      read.deferred.push({ name: tool.name, description, definition: tool });
    }
    read.names.push(tool.name);
  }
  if (read.deferred.length > 0 && read.deferred.length === read.names.length) {
    throw new Error('All tools have defer_loading set. At least one tool must be non-deferred.');
  }
  if (read.deferred.length > 0 && read.searchToolName === undefined) {
    throw new Error(
      'tools: tools with defer_loading need a tool search tool (tool_search_tool_bm25_20251119 or tool_search_tool_regex_20251119) among the tools; this mock knows only the server-side search.',
    );
  }
  return read;
}

/**
 * The server-side search's blocks as the API requires them back: a `tool_search_tool_result` answers a
 * `server_tool_use` before it in the same message, its references name deferred tools defined in `tools`, and a
 * `tool_use` of a deferred tool comes after a result that loaded it. Returns the tools loaded so far.
 */
function checkToolSearchHistory(messages: ReadMessage[], tools: ReadTools): string[] {
  const deferred = new Set(tools.deferred.map((tool) => tool.name));
  const loaded = new Set<string>();
  for (const [index, message] of messages.entries()) {
    const searches = new Set<string>();
    for (const [blockIndex, block] of message.blocks.entries()) {
      const where = `messages.${index}.content.${blockIndex}`;
      if (
        (block.type === 'server_tool_use' || block.type === 'tool_search_tool_result') &&
        message.role !== 'assistant'
      ) {
        throw new Error(`${where}: ${block.type} blocks belong in assistant messages`);
      }
      if (block.type === 'server_tool_use') searches.add(String(block.id));
      if (block.type === 'tool_search_tool_result') {
        if (!searches.has(String(block.tool_use_id))) {
          throw new Error(
            `${where}: tool_search_tool_result answers no server_tool_use before it (${String(block.tool_use_id)})`,
          );
        }
        const content = block.content;
        if (isRecord(content) && content.type === 'tool_search_tool_search_result') {
          for (const reference of Array.isArray(content.tool_references) ? content.tool_references : []) {
            const name = isRecord(reference) ? reference.tool_name : undefined;
            if (typeof name !== 'string' || !deferred.has(name)) {
              throw new Error(`Tool reference '${String(name)}' has no corresponding tool definition`);
            }
            loaded.add(name);
          }
        }
      }
      if (block.type === 'tool_use' && deferred.has(String(block.name)) && !loaded.has(String(block.name))) {
        throw new Error(
          `${where}: tool_use of the deferred tool '${String(block.name)}', which no tool_search_tool_result before it loaded`,
        );
      }
    }
  }
  return [...loaded];
}

function checkSystem(system: unknown): void {
  if (system === undefined || typeof system === 'string') return;
  if (!Array.isArray(system)) throw new Error('system: must be a string or an array of text blocks');
  for (const [index, block] of system.entries()) {
    if (!isRecord(block) || block.type !== 'text' || typeof block.text !== 'string' || block.text === '') {
      throw new Error(`system.${index}: must be a non-empty text block`);
    }
  }
}

function readMessage(message: unknown, index: number, isLast: boolean): ReadMessage {
  if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant')) {
    throw new Error(`messages.${index}.role: Input should be 'user' or 'assistant'`);
  }
  const { content } = message;
  if (typeof content === 'string') {
    if (content === '') throw new Error(`messages.${index}: text content blocks must be non-empty`);
    return { role: message.role, blocks: [{ type: 'text', text: content }] };
  }
  if (!Array.isArray(content)) throw new Error(`messages.${index}.content: must be a string or an array of blocks`);
  const blocks = content.map((block, blockIndex) => {
    const where = `messages.${index}.content.${blockIndex}`;
    if (!isRecord(block) || typeof block.type !== 'string') throw new Error(`${where}.type: Field required`);
    checkBlock(block as Block, where);
    return block as Block;
  });
  if (blocks.length === 0 && !(isLast && message.role === 'assistant')) {
    throw new Error(
      `messages.${index}: all messages must have non-empty content except for the optional final assistant message`,
    );
  }
  return { role: message.role, blocks };
}

function checkBlock(block: Block, where: string): void {
  if (block.type === 'text' && (typeof block.text !== 'string' || block.text === '')) {
    throw new Error(`${where}: text content blocks must be non-empty`);
  }
  if (block.type === 'image') {
    const source = block.source;
    const valid =
      isRecord(source) &&
      source.type === 'base64' &&
      typeof source.media_type === 'string' &&
      imageMediaTypes.has(source.media_type) &&
      typeof source.data === 'string' &&
      source.data !== '';
    if (!valid) throw new Error(`${where}.source: expected base64 image data of type jpeg, png, gif or webp`);
  }
  if (block.type === 'tool_use' && (typeof block.id !== 'string' || !isRecord(block.input))) {
    throw new Error(`${where}: a tool_use block needs an id and an object input`);
  }
  if (block.type === 'tool_use' && !toolUseIdPattern.test(String(block.id))) {
    throw new Error(`${where}.tool_use.id: String should match pattern '${toolUseIdPattern.source}'`);
  }
  if (block.type === 'server_tool_use' && (typeof block.id !== 'string' || typeof block.name !== 'string')) {
    throw new Error(`${where}: a server_tool_use block needs an id and a name`);
  }
  if (block.type === 'tool_search_tool_result') {
    const content = block.content;
    const valid =
      typeof block.tool_use_id === 'string' &&
      isRecord(content) &&
      ((content.type === 'tool_search_tool_search_result' && Array.isArray(content.tool_references)) ||
        (content.type === 'tool_search_tool_result_error' && typeof content.error_code === 'string'));
    if (!valid) throw new Error(`${where}: a tool_search_tool_result needs a tool_use_id and a search result or error`);
  }
  if (block.type === 'tool_result') {
    if (typeof block.tool_use_id !== 'string') throw new Error(`${where}.tool_use_id: Field required`);
    if (!toolUseIdPattern.test(block.tool_use_id)) {
      throw new Error(`${where}.tool_result.tool_use_id: String should match pattern '${toolUseIdPattern.source}'`);
    }
    if (Array.isArray(block.content)) {
      for (const [index, inner] of block.content.entries()) {
        if (!isRecord(inner) || typeof inner.type !== 'string') throw new Error(`${where}.content.${index}: invalid`);
        checkBlock(inner as Block, `${where}.content.${index}`);
      }
    }
  }
}

/** No two tool_use blocks of a request share an id, as the API refuses (its own words). */
function checkUniqueToolUseIds(messages: ReadMessage[]): void {
  const seen = new Set<unknown>();
  for (const [index, message] of messages.entries()) {
    for (const [blockIndex, block] of message.blocks.entries()) {
      if (block.type !== 'tool_use') continue;
      if (seen.has(block.id))
        throw new Error(`messages.${index}.content.${blockIndex}: \`tool_use\` ids must be unique`);
      seen.add(block.id);
    }
  }
}

/** Every tool_use must be answered by a tool_result in the very next message, results first. */
function checkToolPairing(messages: ReadMessage[]): void {
  for (const [index, message] of messages.entries()) {
    const next = messages[index + 1];
    if (message.role === 'assistant') {
      const callIds = message.blocks.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
      if (callIds.length === 0 || next === undefined) continue;
      const answered = new Set(
        next.role === 'user'
          ? next.blocks.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id)
          : [],
      );
      const unanswered = callIds.filter((id) => !answered.has(id));
      if (unanswered.length > 0) {
        throw new Error(
          `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
    if (message.role === 'user') {
      const previous = messages[index - 1];
      const calls = new Set(
        previous?.role === 'assistant'
          ? previous.blocks.filter((block) => block.type === 'tool_use').map((block) => block.id)
          : [],
      );
      let seenOther = false;
      for (const block of message.blocks) {
        if (block.type !== 'tool_result') {
          seenOther = true;
          continue;
        }
        if (seenOther) {
          throw new Error(`messages.${index}: tool_result blocks must come first in the content, before any text`);
        }
        if (!calls.has(block.tool_use_id)) {
          throw new Error(
            `messages.${index}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
        }
      }
    }
  }
}

function countCacheBreakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((total, item) => total + countCacheBreakpoints(item), 0);
  if (!isRecord(value)) return 0;
  let total = value.cache_control !== undefined && value.cache_control !== null ? 1 : 0;
  for (const [key, item] of Object.entries(value)) {
    // Schemas are user data: a property named "cache_control" there is not a breakpoint.
    if (key !== 'cache_control' && key !== 'input_schema') total += countCacheBreakpoints(item);
  }
  return total;
}

function textOfToolResult(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return textOfBlocks(content.filter(isRecord) as Block[]);
}

/** Text blocks joined by newlines; an image stands as `[image: <media type>]` so scripts can see it. */
function textOfBlocks(blocks: readonly Block[]): string {
  return blocks
    .map((block) => {
      if (block.type === 'text') return String(block.text);
      if (block.type === 'image' && isRecord(block.source)) return `[image: ${String(block.source.media_type)}]`;
      return '';
    })
    .filter((text) => text !== '')
    .join('\n');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
