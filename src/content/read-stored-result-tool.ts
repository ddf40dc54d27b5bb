/**
 * `mcp-host__read_stored_result`: the host's own tool through which the model reads the parts of a tool result that
 * the output budget left out. The budget notice names this tool with an id, an offset and a length; the
 * answer says where the slice sits in the whole and where to continue.
 */
import { HOST_TOOL_NAMESPACE } from '../config/reserved-names.js';
import type { ToolDefinition, ToolResultPart } from './content-parts.js';
import { MAX_STORED_READ_LENGTH, type ResultStore, ResultStoreError } from './result-store.js';

/** In the host's own namespace, which no server's tools can take. */
export const READ_STORED_RESULT_TOOL_NAME = `${HOST_TOOL_NAMESPACE}__read_stored_result`;

/** The tool as offered to the model, next to the servers' tools. */
export const readStoredResultTool: ToolDefinition = {
  name: READ_STORED_RESULT_TOOL_NAME,
  description:
    'Read part of an earlier tool result that was too long to show in full. When a tool result says that ' +
    'characters were left out and gives an id, call this tool with that id, the offset of the first character ' +
    `to read (counted from 0) and how many characters to read (at most ${MAX_STORED_READ_LENGTH}). The answer ` +
    'starts with a line saying which characters it holds, of how many in total, and the offset to continue from.',
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The stored result id, exactly as the notice gives it (starts with "res_").' },
      offset: { type: 'integer', minimum: 0, description: 'The first character to read, counted from 0.' },
      length: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_STORED_READ_LENGTH,
        description: `How many characters to read, at most ${MAX_STORED_READ_LENGTH}.`,
      },
    },
    required: ['id', 'offset', 'length'],
    additionalProperties: false,
  },
};

export interface ReadStoredResultAnswer {
  content: ToolResultPart[];
  isError: boolean;
}

function errorAnswer(message: string): ReadStoredResultAnswer {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function wholeNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** Checks the model's arguments; returns what was wrong, or undefined when they are usable. */
function argumentProblem(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return 'Arguments must be an object: {"id": string, "offset": integer >= 0, "length": integer >= 1}.';
  }
  const { id, offset, length } = args as Record<string, unknown>;
  if (typeof id !== 'string' || id === '') return '"id" must be the stored result id from the notice, as a string.';
  if (!wholeNumber(offset) || offset < 0)
    return `"offset" must be an integer of at least 0, got ${JSON.stringify(offset)}.`;
  if (!wholeNumber(length) || length < 1)
    return `"length" must be an integer of at least 1, got ${JSON.stringify(length)}.`;
  return undefined;
}

/**
 * Runs `read_stored_result` with the model's arguments. Bad arguments, unknown ids and offsets past the end
 * come back as error results that say what to send instead; a length over the maximum is shortened.
 */
export async function handleReadStoredResult(store: ResultStore, args: unknown): Promise<ReadStoredResultAnswer> {
  const problem = argumentProblem(args);
  if (problem !== undefined) return errorAnswer(`${READ_STORED_RESULT_TOOL_NAME}: ${problem}`);
  const { id, offset, length } = args as { id: string; offset: number; length: number };
  try {
    const slice = await store.read(id, offset, length);
    const range =
      slice.text.length === 0
        ? 'it is empty'
        : `characters ${slice.offset} to ${slice.nextOffset - 1} of ${slice.totalLength}`;
    const next = slice.hasMore
      ? `${slice.totalLength - slice.nextOffset} more remain; continue with offset ${slice.nextOffset}`
      : 'this is the end of the result';
    return {
      content: [{ type: 'text', text: `[stored result ${slice.id}: ${range}; ${next}.]\n${slice.text}` }],
      isError: false,
    };
  } catch (error) {
    if (error instanceof ResultStoreError) return errorAnswer(`${READ_STORED_RESULT_TOOL_NAME}: ${error.message}`);
    // A tool failure is a result for the model, not an exception that ends the run.
    const reason = error instanceof Error ? error.message : String(error);
    return errorAnswer(`${READ_STORED_RESULT_TOOL_NAME}: could not read stored result ${id}: ${reason}`);
  }
}
