/**
 * The JSON Schema validator the MCP client library checks a call's `structuredContent` against its tool's
 * `outputSchema` with, judging the data as the server sent it. The library hands it the answer as the transport
 * renamed it (a `__proto__` key is `~__proto__` there, see keep-prototype-keys.ts), so each value is named back
 * first, its `__proto__` keys own data keys, never a prototype. And the library's engines read a property through
 * the prototype chain, so `required: ["__proto__"]` would find Object's prototype on every object: these look at
 * own keys only, and run the patterns a server wrote in linear time (one that cannot is skipped). The rest is as the library's default: the
 * engine by the schema's dialect, the same options and formats, each engine made when a schema first needs it.
 */
import { createRequire } from 'node:module';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { addFormats } from '@modelcontextprotocol/client/validators/ajv';
import type { Ajv } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { unescapePrototypeKeys } from '../json/escape-prototype-keys.js';
import { linearRegExpSkippingUnrunnable } from '../text/linear-regexp.js';

/** Ajv is CommonJS: required on first use when not loaded ahead (below), so the validator stays synchronous. */
const load = createRequire(import.meta.url);

type Ajv2020Module = typeof import('ajv/dist/2020.js');
/** The 2020-12 engine's module (MCP's default dialect), once `loadOutputSchemaValidation` has imported it. */
let loadedAjv2020: Ajv2020Module | undefined;
let loadingAjv2020: Promise<void> | undefined;

/**
 * Imports the engine for MCP's default dialect ahead of the first check, which the library makes synchronously as a
 * call starts: a caller of a tool with an outputSchema waits for it (at once after the first time). Imported (not
 * required), the CLI's bundle carries it, rather than Ajv's many files being resolved from node_modules. A host whose
 * tools declare no outputSchema never loads it.
 */
export function loadOutputSchemaValidation(): Promise<void> {
  loadingAjv2020 ??= import('ajv/dist/2020.js').then(
    (module) => {
      loadedAjv2020 = ((module as { default?: Ajv2020Module }).default ?? module) as Ajv2020Module;
    },
    // Not fatal: the first check requires it instead, and says what failed if that fails too.
    () => undefined,
  );
  return loadingAjv2020;
}

type Dialect = '2020-12' | '2019-09' | 'draft-07';
type Engine = Ajv | Ajv2019 | Ajv2020;

/** The `$schema` URIs the library's default validator takes, without a trailing `#`; no `$schema` is 2020-12. */
const DIALECTS: ReadonlyMap<string, Dialect> = new Map([
  ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
  ['http://json-schema.org/draft/2020-12/schema', '2020-12'],
  ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
  ['http://json-schema.org/draft/2019-09/schema', '2019-09'],
  // draft-07's changes over draft-06 only add, so one engine reads both.
  ['https://json-schema.org/draft-07/schema', 'draft-07'],
  ['http://json-schema.org/draft-07/schema', 'draft-07'],
  ['https://json-schema.org/draft-06/schema', 'draft-07'],
  ['http://json-schema.org/draft-06/schema', 'draft-07'],
]);

/** `onDiagnostic` hears of each output pattern that cannot run in linear time, and so is not checked. */
export function createOutputSchemaValidator(onDiagnostic: (message: string) => void): jsonSchemaValidator {
  const onUnrunnablePattern = (source: string, reason: string) =>
    onDiagnostic(
      `has an outputSchema pattern that cannot run in linear time (${reason.slice(0, 200)}), so structured output is not checked against it: ${JSON.stringify(source.slice(0, 200))}`,
    );
  const engines = new Map<Dialect, Engine>();
  const engineFor = (dialect: Dialect): Engine => {
    let engine = engines.get(dialect);
    if (engine === undefined) {
      engine = createEngine(dialect, onUnrunnablePattern);
      engines.set(dialect, engine);
    }
    return engine;
  };
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      const engine = engineFor(dialectOf(schema));
      // Thrown, a schema that does not compile makes the library refuse its tool's calls, saying why.
      const validate = engine.compile(schema as object);
      return (input) =>
        validate(unescapePrototypeKeys(input))
          ? { valid: true, data: input as T, errorMessage: undefined }
          : { valid: false, data: undefined, errorMessage: engine.errorsText(validate.errors) };
    },
  };
}

function dialectOf(schema: JsonSchemaType): Dialect {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (typeof declared !== 'string') return '2020-12';
  const dialect = DIALECTS.get(declared.replace(/#$/, ''));
  if (dialect !== undefined) return dialect;
  throw new Error(
    `JSON Schema declares an unsupported dialect ("$schema": "${declared.slice(0, 200)}"); JSON Schema 2020-12, 2019-09, draft-07 and draft-06 are supported.`,
  );
}

function createEngine(dialect: Dialect, onUnrunnablePattern: (source: string, reason: string) => void): Engine {
  const options = {
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    ownProperties: true,
    // Not kept by `$id`: a tool listed again with a changed schema of the same `$id` is checked against the new one.
    addUsedSchema: false,
    // A server writes both the pattern and the value: in JavaScript's backtracking engine `^(a+)+$` held the event
    // loop for minutes on 50 characters. A pattern the linear-time engine cannot run is not checked, and said so.
    code: { regExp: linearRegExpSkippingUnrunnable(onUnrunnablePattern) },
  } as const;
  const engine =
    dialect === 'draft-07'
      ? new (load('ajv') as typeof import('ajv')).Ajv(options)
      : dialect === '2019-09'
        ? new (load('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js')).Ajv2019(options)
        : new (loadedAjv2020 ?? (load('ajv/dist/2020.js') as Ajv2020Module)).Ajv2020(options);
  addFormats(engine as unknown as Parameters<typeof addFormats>[0]);
  return engine;
}
