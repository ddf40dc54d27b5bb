/**
 * Per-provider JSON-Schema normalisation, used by every provider adapter: what each provider accepts
 * (as data), the normaliser, OpenAI's strict form, and the checker the tests hold them to.
 */

export { checkProviderSchema, checkToolName } from './check-provider-schema.js';
export { MAX_DESCRIBED_VALUE_LENGTH } from './describe-constraints.js';
export {
  MAX_REFERENCE_CHAIN,
  MAX_SCHEMA_COMPARISONS,
  MAX_SCHEMA_EXPANSION_STEPS,
  SchemaExpansionError,
} from './expansion-budget.js';
export { type GeminiParameterFields, type GeminiToolParameters, geminiToolParameters } from './gemini-parameters.js';
export {
  type NormalisedSchema,
  type NormaliseTarget,
  normaliseToolSchema,
  unwrapArguments,
  WRAPPED_ARGUMENT_NAME,
} from './normalise-tool-schema.js';
export { schemaExpansionProblem } from './schema-expansion-problem.js';
export {
  MAX_SCHEMA_DEPTH,
  RECURSION_EXPANSION_LIMIT,
  SCHEMA_RULES,
  SCHEMA_TARGETS,
  type SchemaRules,
  type SchemaTarget,
} from './schema-rules.js';
export { takesNoParameters } from './takes-no-parameters.js';
export { removeStrictNullPlaceholders, STRICT_LIMITS, toStrictSchema } from './to-strict-schema.js';
