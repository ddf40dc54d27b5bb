/**
 * What each provider accepts in a tool's input schema, as data.
 *
 * The normaliser and the checker both read this table, so a rule changes in one place. Sources: the
 * official SDKs pinned in package.json and the providers' docs (see PROVIDERS.md); nothing here could
 * be tried against a live provider, so each table stays on the conservative side. A keyword a target
 * does not accept is never dropped silently: the normaliser moves it into the description.
 */

export type SchemaTarget = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' | 'openai-compatible';

export const SCHEMA_TARGETS: readonly SchemaTarget[] = [
  'anthropic',
  'openai-chat',
  'openai-responses',
  'gemini',
  'openai-compatible',
];

export interface SchemaRules {
  readonly target: SchemaTarget;
  /** `keep`: local `$ref`s point into one root `$defs`. `inline`: every reference is expanded in place. */
  readonly references: 'keep' | 'inline';
  /** `merge`: `allOf` is folded into its parent (the target lacks it or handles it badly). */
  readonly allOf: 'keep' | 'merge';
  /** `any-of`: `oneOf` becomes `anyOf` (the target reads it that way anyway, or rejects it). */
  readonly oneOf: 'keep' | 'any-of';
  /** `enum`: `const: x` becomes `enum: [x]`. */
  readonly const: 'keep' | 'enum';
  /** Which values an `enum` may hold; other enums are described instead. */
  readonly enumValues: 'any' | 'strings-and-numbers';
  /** `describe`: `default` and `examples` are written into the description instead. */
  readonly defaults: 'keep' | 'describe';
  /**
   * `drop`: a `minimum`/`maximum` of ∓(2^53 − 1), which zod writes on every `.int()`, is left out: it tells the
   * model nothing, and the host checks arguments against the server's own schema before each call.
   */
  readonly safeIntegerBounds: 'keep' | 'drop';
  /** Keywords kept as they are (annotations `title`/`description` are always kept). */
  readonly keywords: ReadonlySet<string>;
  /** `format` values kept; other formats are described. */
  readonly formats: ReadonlySet<string>;
  /** How the adapter uses strict mode: opt-in per tool, always set explicitly, or not available. */
  readonly strict: 'opt-in' | 'explicit' | 'none';
  /** Tool names the target accepts. */
  readonly toolName: { readonly pattern: RegExp; readonly maxLength: number; readonly rule: string };
}

/** Keywords every target understands. */
const CORE_KEYWORDS = ['type', 'properties', 'required', 'items', 'additionalProperties', 'anyOf', 'enum'];

const NUMBER_BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const STRING_BOUNDS = ['minLength', 'maxLength', 'pattern'];
const ARRAY_BOUNDS = ['minItems', 'maxItems'];

/** Formats Anthropic documents for strict tools; other tools accept them too. */
const ANTHROPIC_FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid'];
/** Formats OpenAI documents for Structured Outputs (strict). */
const OPENAI_FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'];
/**
 * Formats Gemini documents for JSON Schema (`parametersJsonSchema`; unverified). Its legacy `parameters` takes fewer
 * (`gemini-parameters.ts`): a schema with another format keeps `parametersJsonSchema`.
 */
const GEMINI_FORMATS = ['date-time', 'date', 'time', 'int32', 'int64', 'float', 'double'];

const OPENAI_NAME = {
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  maxLength: 64,
  rule: 'letters, digits, "_" and "-", at most 64 characters',
};

const OPENAI_RULES: Omit<SchemaRules, 'target' | 'strict'> = {
  references: 'keep',
  allOf: 'merge',
  oneOf: 'any-of',
  const: 'keep',
  enumValues: 'any',
  // Strict mode rejects `default`; describing it keeps strict and non-strict schemas alike.
  defaults: 'describe',
  safeIntegerBounds: 'keep',
  keywords: new Set([
    ...CORE_KEYWORDS,
    '$ref',
    '$defs',
    'const',
    'format',
    ...NUMBER_BOUNDS,
    ...STRING_BOUNDS,
    ...ARRAY_BOUNDS,
    'uniqueItems',
    'prefixItems',
    'minProperties',
    'maxProperties',
  ]),
  formats: new Set(OPENAI_FORMATS),
  toolName: OPENAI_NAME,
};

export const SCHEMA_RULES: Readonly<Record<SchemaTarget, SchemaRules>> = {
  anthropic: {
    target: 'anthropic',
    references: 'keep',
    // Anthropic takes JSON Schema as it is, except composition at the root (merged there regardless).
    allOf: 'keep',
    oneOf: 'keep',
    const: 'keep',
    enumValues: 'any',
    defaults: 'keep',
    safeIntegerBounds: 'keep',
    keywords: new Set([
      ...CORE_KEYWORDS,
      '$ref',
      '$defs',
      'allOf',
      'oneOf',
      'const',
      'format',
      ...NUMBER_BOUNDS,
      ...STRING_BOUNDS,
      ...ARRAY_BOUNDS,
      'uniqueItems',
      'prefixItems',
      'minProperties',
      'maxProperties',
      'default',
      'examples',
    ]),
    formats: new Set(ANTHROPIC_FORMATS),
    strict: 'opt-in',
    toolName: OPENAI_NAME,
  },
  'openai-chat': { target: 'openai-chat', strict: 'opt-in', ...OPENAI_RULES },
  'openai-responses': { target: 'openai-responses', strict: 'explicit', ...OPENAI_RULES },
  gemini: {
    target: 'gemini',
    // Kept: a schema holding `$ref` goes as `parametersJsonSchema`; legacy `parameters` would need inlining.
    references: 'keep',
    allOf: 'merge',
    // Gemini documents `oneOf` as read like `anyOf`.
    oneOf: 'any-of',
    const: 'enum',
    enumValues: 'strings-and-numbers',
    defaults: 'describe',
    safeIntegerBounds: 'drop',
    // Gemini's documented JSON Schema subset (string length and pattern are not in it).
    keywords: new Set([
      ...CORE_KEYWORDS,
      '$ref',
      '$defs',
      'format',
      'minimum',
      'maximum',
      ...ARRAY_BOUNDS,
      'prefixItems',
    ]),
    formats: new Set(GEMINI_FORMATS),
    strict: 'none',
    toolName: {
      pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
      maxLength: 64,
      rule: 'starts with a letter or "_"; letters, digits, "_", ".", ":" and "-"; at most 64 characters',
    },
  },
  'openai-compatible': {
    target: 'openai-compatible',
    // Local servers (Ollama, llama.cpp, vLLM…) differ widely: plain, inlined schemas are the safest.
    references: 'inline',
    allOf: 'merge',
    oneOf: 'any-of',
    const: 'enum',
    enumValues: 'any',
    defaults: 'describe',
    safeIntegerBounds: 'keep',
    keywords: new Set([...CORE_KEYWORDS, 'minimum', 'maximum', ...STRING_BOUNDS, ...ARRAY_BOUNDS]),
    formats: new Set(),
    strict: 'none',
    toolName: OPENAI_NAME,
  },
};

/**
 * Gemini's legacy `parameters` field (its own `Schema` type) takes string lengths too, which its JSON Schema field is
 * not documented to take. A schema normalised with these rules keeps them as keywords; it goes as `parameters` only
 * when all of it fits that type (`gemini-parameters.ts`), else the `gemini` rules describe them.
 */
export const GEMINI_PARAMETERS_RULES: SchemaRules = {
  ...SCHEMA_RULES.gemini,
  keywords: new Set([...SCHEMA_RULES.gemini.keywords, 'minLength', 'maxLength']),
};

/**
 * How many times one recursive definition is expanded along a path when references must be inlined.
 * Deeper levels are offered as "any value of this type", with a note in the description.
 */
export const RECURSION_EXPANSION_LIMIT = 3;

/**
 * Nesting deeper than this is cut off (with a note): real tool schemas stay far below it, and
 * providers reject or choke on very deep schemas.
 */
export const MAX_SCHEMA_DEPTH = 32;
