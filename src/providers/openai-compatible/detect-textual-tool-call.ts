/**
 * Local models sometimes print a tool call as text (a JSON object with name/arguments, or Hermes-style
 * `<tool_call>` tags) instead of calling the tool. Nothing ran, and the user should not be led to
 * think it did: the adapter detects such text for a tool that exists and appends a note saying so.
 */
import type { ModelResponse } from '../types.js';

interface TextualToolCall {
  /** The known tool the text names. */
  name: string;
  /** The JSON text that looked like the call. */
  text: string;
}

/** Text longer than this is not scanned: a printed call is short, and scanning is quadratic at worst. */
const maxScannedCharacters = 20_000;
/** Candidate JSON objects tried per text. */
const maxCandidates = 50;

/** The first printed call of a tool in `toolNames` found in `text`, if any. */
export function detectTextualToolCall(text: string, toolNames: readonly string[]): TextualToolCall | undefined {
  if (toolNames.length === 0 || text.length > maxScannedCharacters || !text.includes('{')) return undefined;
  const known = new Set(toolNames);
  for (const candidate of candidateObjects(text)) {
    const name = calledName(candidate);
    if (name !== undefined && known.has(name)) return { name, text: candidate };
  }
  // A tag with malformed JSON inside still names its tool.
  for (const match of text.matchAll(/<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g)) {
    const name = /"name"\s*:\s*"([^"]+)"/.exec(match[1] ?? '')?.[1];
    if (name !== undefined && known.has(name)) return { name, text: match[0] };
  }
  return undefined;
}

/** The note appended to the answer, worded for both the user and the model reading it back. */
function textualToolCallNote(call: TextualToolCall): string {
  return (
    `[Note from the host: the model wrote a call to the tool "${call.name}" as text instead of calling it, ` +
    'so the tool was not run.]'
  );
}

/**
 * Appends the note to a response that has no real tool calls but prints one; returns the note
 * (also for streaming, where it is sent as a last text delta) or `undefined`.
 */
export function appendTextualToolCallNote(response: ModelResponse, toolNames: readonly string[]): string | undefined {
  const content = response.message.content;
  if (content.some((part) => part.type === 'tool-call')) return undefined;
  const text = content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const call = detectTextualToolCall(text, toolNames);
  if (call === undefined) return undefined;
  const note = `${text === '' ? '' : '\n\n'}${textualToolCallNote(call)}`;
  content.push({ type: 'text', text: note });
  return note;
}

/** Balanced `{…}` substrings (strings and escapes respected), in order of their opening brace. */
function* candidateObjects(text: string): Generator<string> {
  let tried = 0;
  let start = text.indexOf('{');
  while (start !== -1 && tried < maxCandidates) {
    const end = matchingBrace(text, start);
    tried++;
    if (end !== -1) yield text.slice(start, end + 1);
    // Look inside too: a call may be wrapped in another object, such as {"tool_call": {...}}.
    start = text.indexOf('{', start + 1);
  }
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index++;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{') depth++;
    else if (character === '}') {
      depth--;
      if (depth === 0) return index;
    }
  }
  return -1;
}

/** `{"name": …, "arguments"|"parameters": …}` or `{"function": {"name": …}}`. */
function calledName(candidate: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(candidate);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  if (typeof value.name === 'string' && ('arguments' in value || 'parameters' in value)) return value.name;
  if (isRecord(value.function) && typeof value.function.name === 'string') return value.function.name;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
