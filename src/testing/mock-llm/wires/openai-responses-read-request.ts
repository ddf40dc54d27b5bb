/**
 * Reads an OpenAI Responses request body for the mock server, and rejects what the real API
 * rejects (a call without its output or an output without its call, item ids or reasoning without
 * encrypted content under `store: false`, bad tool names, non-strict schemas where strict applies —
 * `strict` defaults to true here), so host bugs show up in tests instead of in production.
 */
import type { ConversationView } from '../../script-types.js';
import { checkFunctionTool, estimateTokens, isRecord, looksLikeToolError } from './openai-wire-common.js';

export interface OpenAiResponsesView extends ConversationView {
  promptTokens: number;
  instructions: string | null;
}

type Item = Record<string, unknown>;

const assistantSideTypes = new Set(['function_call', 'reasoning']);
const imageUrlPattern = /^(data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+|https?:\/\/\S+)$/;

export function readOpenAiResponsesRequest(body: unknown): OpenAiResponsesView {
  if (!isRecord(body)) throw new Error('The request body must be a JSON object');
  if (typeof body.model !== 'string' || body.model === '') throw new Error("Missing required parameter: 'model'.");
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    throw new Error("Invalid type for 'stream': expected a boolean.");
  }
  const toolNames = readTools(body.tools);
  const stored = body.store !== false;
  const items = readInput(body.input, stored);
  checkCallPairing(items);

  const firstUser = items.find((item) => isMessage(item) && item.role === 'user');
  const lastAssistantSide = items.findLastIndex(isAssistantSide);
  return {
    model: body.model,
    stream: body.stream === true,
    toolNames,
    firstUserText: firstUser ? textOf(firstUser.content) : '',
    assistantTurns: countAssistantTurns(items),
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
    promptTokens: estimateTokens(body.input) + estimateTokens(body.tools) + estimateTokens(body.instructions),
    instructions: typeof body.instructions === 'string' ? body.instructions : null,
  };
}

function readTools(tools: unknown): string[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw new Error("Invalid type for 'tools': expected an array.");
  return tools.map((tool, index) => {
    if (!isRecord(tool) || tool.type !== 'function') {
      throw new Error(`Invalid value for 'tools[${index}].type': this mock knows only function tools.`);
    }
    if (tool.strict !== undefined && tool.strict !== null && typeof tool.strict !== 'boolean') {
      throw new Error(`Invalid type for 'tools[${index}].strict': expected a boolean.`);
    }
    // The Responses API treats a function tool without `strict` as strict.
    return checkFunctionTool(tool.name, tool.parameters, tool.strict !== false, `tools[${index}]`);
  });
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
    } else if (item.type === 'function_call_output') {
      if (typeof item.call_id !== 'string') throw new Error(`Missing required parameter: '${where}.call_id'.`);
      checkOutput(item.output, `${where}.output`);
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

/** Every call answered by an output after it, and every output answering an earlier call. */
function checkCallPairing(items: Item[]): void {
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const item of items) {
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
