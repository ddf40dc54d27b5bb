/**
 * The model's tool arguments, moved between the shape the model was offered and the shape the MCP
 * server declared. Two things differ: a wrapped root (the model sends `{value: x}`, the server
 * wants `x`), and strict mode (the model sends `null` for an optional property it did not want to
 * give, the server wants it left out). Both adapters of the OpenAI protocol undo them on every call
 * the model makes, and redo the wrapping when the call is sent back in the history.
 */

import { parseJsonWithinDepth } from '../../json/json-depth.js';
import { removeStrictNullPlaceholders, unwrapArguments, WRAPPED_ARGUMENT_NAME } from '../schema/index.js';
import type { AssistantPart } from '../types.js';
import type { OpenAiFunctionSchema } from './openai-tool-schema.js';

/** How one tool's arguments, as the model sends them, differ from what its server declared. */
export interface ToolArgumentShape {
  wrapped: boolean;
  /** Set when the tool was sent as strict: the normalised (non-strict) schema nulls are judged against. */
  strictFrom?: Record<string, unknown>;
}

/** Per tool name; a tool missing from the map is passed through untouched. */
export type ToolArgumentShapes = ReadonlyMap<string, ToolArgumentShape>;

export function toolArgumentShape(schema: OpenAiFunctionSchema): ToolArgumentShape {
  return schema.strict ? { wrapped: schema.wrapped, strictFrom: schema.normalised } : { wrapped: schema.wrapped };
}

/**
 * The arguments the server should get: strict placeholders removed, then unwrapped. Text that is not
 * a JSON object is left exactly as it came, so the loop can tell the model what was wrong with it.
 */
export function argumentsForServer(argumentsText: string, shape: ToolArgumentShape | undefined): string {
  if (shape === undefined || (!shape.wrapped && shape.strictFrom === undefined)) return argumentsText;
  const parsed = parseObject(argumentsText);
  if (parsed === undefined) return argumentsText;
  const cleaned = shape.strictFrom === undefined ? parsed : removeStrictNullPlaceholders(parsed, shape.strictFrom);
  return JSON.stringify(unwrapArguments(cleaned as Record<string, unknown>, shape.wrapped));
}

/** The arguments as the model sent them back into the history: re-wrapped when the root was wrapped. */
export function argumentsForModel(argumentsText: string, shape: ToolArgumentShape | undefined): string {
  if (shape?.wrapped !== true) return argumentsText;
  let value: unknown;
  try {
    value = parseJsonWithinDepth(argumentsText);
  } catch {
    return argumentsText;
  }
  return JSON.stringify({ [WRAPPED_ARGUMENT_NAME]: value });
}

/** Tool-call parts with their arguments in the server's shape (other parts unchanged). */
export function withServerArguments(parts: AssistantPart[], shapes: ToolArgumentShapes | undefined): AssistantPart[] {
  if (shapes === undefined || shapes.size === 0) return parts;
  return parts.map((part) =>
    part.type === 'tool-call'
      ? { ...part, argumentsText: argumentsForServer(part.argumentsText, shapes.get(part.name)) }
      : part,
  );
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = parseJsonWithinDepth(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
