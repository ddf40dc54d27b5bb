/**
 * Whether a normalised tool schema says only "an object with no properties": a tool that takes no
 * parameters, which a provider whose declarations may leave the schema out (Gemini) is offered
 * without one.
 */
export function takesNoParameters(schema: Readonly<Record<string, unknown>>): boolean {
  const { type, properties, additionalProperties, ...rest } = schema;
  return (
    type === 'object' &&
    typeof properties === 'object' &&
    properties !== null &&
    Object.keys(properties).length === 0 &&
    (additionalProperties === undefined || additionalProperties === false) &&
    Object.keys(rest).length === 0
  );
}
