/** Turns the model's argument text into an object, or says exactly what was wrong with it. */
import { MAX_JSON_DEPTH, textExceedsJsonDepth } from '../json/json-depth.js';

type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export function parseToolArguments(argumentsText: string): ParsedArguments {
  const text = argumentsText.trim();
  // Models send nothing at all for tools without parameters.
  if (text === '') return { ok: true, value: {} };
  if (textExceedsJsonDepth(text)) {
    return {
      ok: false,
      error: `The arguments are nested deeper than ${MAX_JSON_DEPTH} levels. Send the arguments as one JSON object matching the tool's input schema, nested at most ${MAX_JSON_DEPTH} levels deep.`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: `The arguments are not valid JSON (${reason}). Send the arguments as one JSON object matching the tool's input schema.`,
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      error: `The arguments must be a JSON object, not ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'null' : `a ${typeof value}`}.`,
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
