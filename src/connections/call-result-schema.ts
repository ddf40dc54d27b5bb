/**
 * The schema a `tools/call` result is checked against, handed to the SDK's `request()` so that a call skips
 * `Client.callTool`'s per-call lookup of the same schema.
 *
 * Asked for no schema, the SDK first probes whether the method has one by validating `undefined` against it, which
 * builds, formats and throws away a validation error on every call: a tenth of the host's CPU per call, more than
 * its consent, budget and audit steps together. The check itself is the SDK's own: the negotiated era's codec
 * validates the result exactly as `callTool` would have.
 *
 * The common text-only result is recognised without the schema (see plain-call-result.ts), exactly as it accepts it.
 *
 * `callTool` does two more things, so the caller keeps it where they apply: validating `structuredContent` against a
 * listed tool's `outputSchema`, and mirroring arguments into `Mcp-Param-*` headers on the modern protocol era.
 */
import type { CallToolResult, Client, StandardSchemaV1 } from '@modelcontextprotocol/client';
import { isPlainTextCallResult } from './plain-call-result.js';

type Outcome = { ok: true; value: unknown } | { ok: false; reason: string; message?: string };

interface ResultCodec {
  validateResult(method: string, raw: unknown): Outcome;
}

const METHOD = 'tools/call';
const schemas = new WeakMap<ResultCodec, StandardSchemaV1<unknown, CallToolResult>>();

/**
 * The era codec's `tools/call` result check as a Standard Schema, or undefined when this client offers no codec
 * (another SDK version): the caller then goes through `Client.callTool`.
 */
export function callResultSchema(client: Client): StandardSchemaV1<unknown, CallToolResult> | undefined {
  const accessor = (client as unknown as { _wireCodec?: () => ResultCodec | undefined })._wireCodec;
  if (typeof accessor !== 'function') return undefined;
  const codec = accessor.call(client);
  if (typeof codec?.validateResult !== 'function') return undefined;
  let schema = schemas.get(codec);
  if (schema === undefined) {
    // The same answers, word for word, as the SDK's own validator for a method without an explicit schema.
    schema = {
      '~standard': {
        version: 1,
        vendor: 'mcp-host',
        validate(value: unknown) {
          // The common text-only answer is recognised by hand; whatever it does not recognise, the SDK judges.
          if (isPlainTextCallResult(value)) return { value };
          const outcome = codec.validateResult(METHOD, value);
          if (outcome.ok) return { value: outcome.value as CallToolResult };
          const message = outcome.reason === 'invalid' ? String(outcome.message) : `not-in-era: ${METHOD}`;
          return { issues: [{ message }] };
        },
      },
    };
    schemas.set(codec, schema);
  }
  return schema;
}
