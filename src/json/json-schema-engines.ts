/**
 * Ajv, the JSON Schema engine both checks use: a call's arguments against the tool's input schema (catalog) and its
 * structured output against the tool's output schema (connections). One engine class per dialect; each check makes
 * its own engines with its own options.
 */
import { createRequire } from 'node:module';
import type { Ajv, Options } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';

export type JsonSchemaDialect = 'draft-07' | '2019-09' | '2020-12';
export type JsonSchemaEngine = Ajv | Ajv2019 | Ajv2020;

/** Ajv is CommonJS: required on first use when not loaded ahead (below), so a check stays synchronous. */
const load = createRequire(import.meta.url);

type Ajv2020Module = typeof import('ajv/dist/2020.js');
/** The 2020-12 engine (MCP's default dialect), once `loadJsonSchemaEngines` has imported it. */
let loadedAjv2020: Ajv2020Module | undefined;
let loadingAjv2020: Promise<void> | undefined;

/**
 * Imports the engine for MCP's default dialect ahead of the first check, without blocking: a caller that knows a
 * check is coming starts it while it waits for a server or a model anyway. Imported (not required), the CLI's bundle
 * carries it in a chunk of its own, which loads in a fraction of the time Node takes to resolve Ajv's many files.
 */
export function loadJsonSchemaEngines(): Promise<void> {
  loadingAjv2020 ??= import('ajv/dist/2020.js').then(
    (module) => {
      loadedAjv2020 = ((module as { default?: Ajv2020Module }).default ?? module) as Ajv2020Module;
    },
    // Not fatal: the first check requires it instead, and says what failed if that fails too.
    () => undefined,
  );
  return loadingAjv2020;
}

/** Whether `loadJsonSchemaEngines` has finished (a check then never waits for a module). */
export function jsonSchemaEnginesLoaded(): boolean {
  return loadedAjv2020 !== undefined;
}

/** A new engine for `dialect` (draft-06 and draft-04 are read as draft-07 by whoever picks the dialect). */
export function createJsonSchemaEngine(dialect: JsonSchemaDialect, options: Options): JsonSchemaEngine {
  if (dialect === 'draft-07') return new (load('ajv') as typeof import('ajv')).Ajv(options);
  if (dialect === '2019-09')
    return new (load('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js')).Ajv2019(options);
  return new (loadedAjv2020 ?? (load('ajv/dist/2020.js') as Ajv2020Module)).Ajv2020(options);
}

const DIALECT_BY_SCHEMA_URI: ReadonlyArray<[RegExp, JsonSchemaDialect]> = [
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, '2020-12'],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, '2019-09'],
  // draft-06 and draft-04 are read as draft-07, their nearest relative Ajv knows; what differs fails to compile.
  [/^https?:\/\/json-schema\.org\/draft-0[467]\/schema#?$/, 'draft-07'],
];

/**
 * The dialect `schema` names in `$schema` (none named: MCP's 2020-12; a URI no engine reads: undefined), and the schema
 * without `$schema`, which an engine would otherwise look up rather than read in the dialect chosen here.
 */
export function dialectOf(schema: object): { dialect: JsonSchemaDialect | undefined; schema: object } {
  const named = (schema as { $schema?: unknown }).$schema;
  if (named === undefined) return { dialect: '2020-12', schema };
  const { $schema: _named, ...rest } = schema as Record<string, unknown>;
  const match = DIALECT_BY_SCHEMA_URI.find(([pattern]) => typeof named === 'string' && pattern.test(named));
  return { dialect: match?.[1], schema: rest };
}
