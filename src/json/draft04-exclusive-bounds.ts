/**
 * Draft-04's exclusive bounds (`minimum: 0, exclusiveMinimum: true`) in 2020-12 terms (`exclusiveMinimum: 0`). Read
 * so by the host's checks of a call's arguments and structured output, whose engines refuse a boolean there (MCP's
 * 2020-12, and draft-04 read as draft-07), and by each provider's schema, which then reads them as it reads the
 * numeric form. In every later dialect those keywords are numbers, so a boolean can only mean what draft-04 says.
 */
import { mapSubschemas } from './map-subschemas.js';

/**
 * One schema's bounds, its subschemas left as they are. `false` says the bound beside it is inclusive, which it is
 * without it. A `true` with no bound beside it bounds nothing, and an engine or a target that takes the keyword
 * would refuse it as no number: it goes too.
 */
export function exclusiveBoundsAsNumbers(node: Record<string, unknown>): Record<string, unknown> {
  if (typeof node.exclusiveMinimum !== 'boolean' && typeof node.exclusiveMaximum !== 'boolean') return node;
  const result = { ...node };
  for (const [exclusive, inclusive] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof result[exclusive] !== 'boolean') continue;
    if (result[exclusive] === true && typeof result[inclusive] === 'number') {
      result[exclusive] = result[inclusive];
      delete result[inclusive];
    } else delete result[exclusive];
  }
  return result;
}

/** The bounds of `schema` and of every subschema in it; a schema with none is handed back as it is. */
export function withExclusiveBoundsAsNumbers<Schema>(schema: Schema): Schema {
  return mapSubschemas(schema, exclusiveBoundsAsNumbers);
}
