/**
 * Tool input schema → what Anthropic's `input_schema` accepts: an object root with `properties`,
 * without `$schema`/`$id` (rejected or ignored by the API). Kept to this one function so the shared
 * per-provider schema normaliser can replace it in one place.
 *
 * The output is a pure function of the input (`type` first, other keys in their given order,
 * `properties` last when added), so the same tool always serialises to the same bytes: a changed
 * tools prefix invalidates the prompt cache.
 */
export function toAnthropicInputSchema(schema: Record<string, unknown>): { type: 'object'; [key: string]: unknown } {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  const result: { type: 'object'; [key: string]: unknown } = { type: 'object', ...rest };
  // A root without a type is taken as an object; any other root type is left for the API to report.
  if (rest.type === undefined) result.type = 'object';
  if (result.properties === undefined) result.properties = {};
  return result;
}
