/**
 * `tools call NAME a=5 b=7`: turns key=value pairs into arguments, typed by the tool's input
 * schema (numbers, booleans, JSON for objects and arrays), with errors naming the bad pair.
 */

import { setOwnProperty } from '../json/own-property.js';
import { CliError, EXIT_USAGE } from './exit-codes.js';

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema> };

export function parseKeyValues(pairs: readonly string[], inputSchema: unknown): Record<string, unknown> {
  const schema = (inputSchema ?? {}) as JsonSchema;
  const properties = schema.properties ?? {};
  const result: Record<string, unknown> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new CliError(`argument "${pair}" is not key=value`, EXIT_USAGE);
    const key = pair.slice(0, equals);
    const raw = pair.slice(equals + 1);
    const declared = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (!declared && Object.keys(properties).length > 0) {
      throw new CliError(
        `the tool has no parameter "${key}" (parameters: ${Object.keys(properties).join(', ')})`,
        EXIT_USAGE,
      );
    }
    setOwnProperty(result, key, convert(key, raw, declared?.type));
  }
  return result;
}

function convert(key: string, raw: string, declared: string | string[] | undefined): unknown {
  const types = declared === undefined ? [] : Array.isArray(declared) ? declared : [declared];
  if (types.length === 0) return guess(raw);
  if (types.includes('null') && raw === 'null') return null;
  if (types.includes('number') || types.includes('integer')) {
    const value = Number(raw);
    if (raw.trim() !== '' && Number.isFinite(value)) {
      if (types.includes('integer') && !types.includes('number') && !Number.isInteger(value)) {
        throw new CliError(`${key}=${raw}: expected an integer`, EXIT_USAGE);
      }
      return value;
    }
    if (!types.includes('string')) throw new CliError(`${key}=${raw}: expected a number`, EXIT_USAGE);
  }
  if (types.includes('boolean')) {
    if (raw === 'true') return true;
    if (raw === 'false') return false;
    if (!types.includes('string')) throw new CliError(`${key}=${raw}: expected true or false`, EXIT_USAGE);
  }
  if (types.includes('object') || types.includes('array')) {
    try {
      return JSON.parse(raw);
    } catch (error) {
      if (!types.includes('string')) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new CliError(`${key}=${raw}: expected JSON for an ${types.join(' or ')} (${reason})`, EXIT_USAGE);
      }
    }
  }
  return raw;
}

/** No schema for this key: JSON when it parses as a number, boolean, null, object or array, else text. */
function guess(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
