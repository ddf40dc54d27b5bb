/**
 * Reads an OpenAI Chat Completions request body for the mock server, and rejects with a 400 what
 * the real API rejects (a call id without its tool message, a tool message answering no call, an
 * image in a tool message, bad tool names, non-object or non-strict schemas sent as strict), so host
 * bugs show up in tests instead of in production.
 *
 * Local-server stream quirks are switched on per request by a path prefix, so a test sets them in
 * the base URL it gives the SDK: `<mock url>/quirks/no-ids,no-done/v1`.
 */
import type { ConversationView } from '../../script-types.js';
import { userQuestions } from '../../user-questions.js';
import { checkFunctionTool, isRecord, looksLikeToolError, madeUpTokenCount } from './openai-wire-common.js';

/**
 * What local OpenAI-compatible servers really do differently, one switch each:
 * - `no-ids`: tool calls come without `id`; `no-type`: without `type`; `no-index`: deltas without `index`
 * - `index-zero`: every call of a turn gets `index: 0` (told apart by its id)
 * - `whole-calls`: each call arrives whole in one chunk instead of an opening chunk plus fragments
 * - `arguments-object`: `arguments` is a JSON object, not JSON text
 * - `stop-finish`: `finish_reason: 'stop'` although the turn calls tools
 * - `no-done`: the stream ends without `data: [DONE]`
 * - `empty-slot`: a stream's calls follow a call slot with neither name nor arguments (`index` 0), numbered after it
 * - `late-first-call`: the first call's slot (`index` 0) opens empty, and the call streams into it after the others
 * - `name-after-arguments`: a streamed call opens with its first piece of arguments and no name; the name comes next
 */
export const openAiChatQuirks = [
  'no-ids',
  'no-type',
  'no-index',
  'index-zero',
  'whole-calls',
  'arguments-object',
  'stop-finish',
  'no-done',
  'empty-slot',
  'late-first-call',
  'name-after-arguments',
] as const;
export type OpenAiChatQuirk = (typeof openAiChatQuirks)[number];

/** The view plus what only this wire needs to answer (it gets the same object back in writeAnswer). */
export interface OpenAiChatView extends ConversationView {
  quirks: ReadonlySet<OpenAiChatQuirk>;
  includeUsage: boolean;
  promptTokens: number;
}

const pathPattern = /^(?:\/quirks\/([a-z,-]+))?(?:\/v1)?\/chat\/completions\/?$/;
/** The longest tool_calls[].id OpenAI takes, in characters. */
const maxCallIdLength = 40;
const imageUrlPattern = /^(data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+|https?:\/\/\S+)$/;

export function matchesOpenAiChatPath(path: string): boolean {
  return pathPattern.test(path);
}

function quirksOfPath(path: string): Set<OpenAiChatQuirk> {
  const pathname = path.split('?')[0] ?? '';
  const listed = pathPattern.exec(pathname)?.[1];
  const quirks = new Set<OpenAiChatQuirk>();
  for (const name of listed ? listed.split(',') : []) {
    if (name === '') continue;
    if (!(openAiChatQuirks as readonly string[]).includes(name)) {
      throw new Error(`Unknown mock quirk "${name}" in the path; known quirks: ${openAiChatQuirks.join(', ')}`);
    }
    quirks.add(name as OpenAiChatQuirk);
  }
  return quirks;
}

type ChatMessage = Record<string, unknown> & { role: string };

export function readOpenAiChatRequest(body: unknown, path: string): OpenAiChatView {
  if (!isRecord(body)) throw new Error('The request body must be a JSON object');
  if (typeof body.model !== 'string' || body.model === '') throw new Error("Missing required parameter: 'model'.");
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new Error("Invalid 'messages': empty array. Expected an array with minimum length 1.");
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    throw new Error("Invalid type for 'stream': expected a boolean.");
  }
  const stream = body.stream === true;
  if (body.stream_options !== undefined && body.stream_options !== null && !stream) {
    throw new Error("The 'stream_options' parameter is only allowed when 'stream' is enabled.");
  }
  const toolNames = readTools(body.tools);
  const messages = body.messages.map(readMessage);
  checkToolPairing(messages);

  const firstUser = messages.find((message) => message.role === 'user');
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  return {
    model: body.model,
    stream,
    toolNames,
    firstUserText: firstUser ? textOf(firstUser.content) : '',
    assistantTurns: messages.filter((message) => message.role === 'assistant').length,
    callIds: messages.flatMap((message) =>
      Array.isArray(message.tool_calls) ? message.tool_calls.map((call) => String(call.id)) : [],
    ),
    userQuestions: userQuestions(
      messages,
      (message) => message.role === 'assistant',
      (message) => (message.role === 'user' ? textOf(message.content) : undefined),
    ),
    lastToolResults:
      lastAssistant === -1
        ? []
        : messages
            .slice(lastAssistant + 1)
            .filter((message) => message.role === 'tool')
            .map((message) => {
              const text = textOf(message.content);
              return { text, isError: looksLikeToolError(text) };
            }),
    quirks: quirksOfPath(path),
    includeUsage: isRecord(body.stream_options) && body.stream_options.include_usage === true,
    promptTokens: madeUpTokenCount(body.messages) + madeUpTokenCount(body.tools),
  };
}

function readTools(tools: unknown): string[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw new Error("Invalid type for 'tools': expected an array.");
  return tools.map((tool, index) => {
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function)) {
      throw new Error(`Invalid value for 'tools[${index}]': expected {type: 'function', function: {...}}.`);
    }
    const { name, parameters, strict } = tool.function;
    return checkFunctionTool(name, parameters, strict === true, `tools[${index}].function`);
  });
}

function readMessage(message: unknown, index: number): ChatMessage {
  const where = `messages[${index}]`;
  if (!isRecord(message) || typeof message.role !== 'string')
    throw new Error(`Missing required parameter: '${where}.role'.`);
  const { role, content } = message;
  if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(role)) {
    throw new Error(
      `Invalid value: '${role}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'developer'.`,
    );
  }
  const hasCalls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
  if (content === null || content === undefined) {
    if (!(role === 'assistant' && hasCalls))
      throw new Error(`Invalid value for '${where}.content': expected a string, got null.`);
  } else if (typeof content !== 'string') {
    if (!Array.isArray(content)) throw new Error(`Invalid type for '${where}.content': expected a string or an array.`);
    for (const [partIndex, part] of content.entries()) checkPart(part, role, `${where}.content[${partIndex}]`);
  }
  if (role === 'assistant' && message.tool_calls !== undefined) {
    if (!Array.isArray(message.tool_calls))
      throw new Error(`Invalid type for '${where}.tool_calls': expected an array.`);
    for (const [callIndex, call] of message.tool_calls.entries()) {
      const valid =
        isRecord(call) &&
        typeof call.id === 'string' &&
        call.type === 'function' &&
        isRecord(call.function) &&
        typeof call.function.name === 'string' &&
        typeof call.function.arguments === 'string';
      if (!valid)
        throw new Error(
          `Invalid value for '${where}.tool_calls[${callIndex}]': expected {id, type, function: {name, arguments: string}}.`,
        );
      checkCallIdLength(call.id as string, `${where}.tool_calls[${callIndex}].id`);
    }
  }
  if (role === 'tool' && typeof message.tool_call_id !== 'string') {
    throw new Error(`Missing required parameter: '${where}.tool_call_id'.`);
  }
  return message as ChatMessage;
}

/**
 * OpenAI's words for a call id over its 40 characters (as users report them; unverified, and whether `tool_call_id`
 * is held to it too is not known, so only the call's own id is checked).
 */
function checkCallIdLength(id: string, where: string): void {
  const length = [...id].length;
  if (length > maxCallIdLength) {
    throw new Error(
      `Invalid '${where}': string too long. Expected a string with maximum length ${maxCallIdLength}, but got a string with length ${length} instead.`,
    );
  }
}

function checkPart(part: unknown, role: string, where: string): void {
  if (!isRecord(part) || typeof part.type !== 'string') throw new Error(`Missing required parameter: '${where}.type'.`);
  if (part.type === 'text') {
    if (typeof part.text !== 'string') throw new Error(`Missing required parameter: '${where}.text'.`);
    return;
  }
  if (part.type === 'image_url') {
    if (role !== 'user') {
      throw new Error(
        `Image URLs are only allowed for messages with role 'user', but this message with role '${role}' contains an image URL.`,
      );
    }
    const url = isRecord(part.image_url) ? part.image_url.url : undefined;
    if (typeof url !== 'string' || !imageUrlPattern.test(url)) {
      throw new Error(
        `Invalid '${where}.image_url.url': expected a URL or a base64 data URL of a png, jpeg, gif or webp image.`,
      );
    }
    return;
  }
  throw new Error(`Invalid value: '${part.type}'. Supported values are: 'text' and 'image_url'.`);
}

/** Every call id answered by a tool message right after its assistant message, and only those. */
function checkToolPairing(messages: ChatMessage[]): void {
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    const callIds = message.tool_calls.map((call) => String((call as { id: unknown }).id));
    const answered = new Set<string>();
    for (const next of messages.slice(index + 1)) {
      if (next.role !== 'tool') break;
      if (!callIds.includes(String(next.tool_call_id))) {
        throw new Error(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        );
      }
      answered.add(String(next.tool_call_id));
    }
    const missing = callIds.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      throw new Error(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
      );
    }
  }
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'tool') continue;
    const previous = messages.slice(0, index).findLast((candidate) => candidate.role !== 'tool');
    if (previous?.role !== 'assistant' || !Array.isArray(previous.tool_calls)) {
      throw new Error(
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      );
    }
  }
}

/** Text parts joined by newlines; an image stands as `[image: <mime type>]` so scripts can see it. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (!isRecord(part)) return '';
      if (part.type === 'text') return String(part.text);
      const url = isRecord(part.image_url) ? String(part.image_url.url) : '';
      return `[image: ${/^data:([^;]+);/.exec(url)?.[1] ?? 'url'}]`;
    })
    .filter((text) => text !== '')
    .join('\n');
}
