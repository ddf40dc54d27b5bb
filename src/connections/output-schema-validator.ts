/**
 * The JSON Schema validator the MCP client library checks a call's `structuredContent` against its tool's
 * `outputSchema` with, judging the data as the server sent it against the schema as the server sent it. The library
 * hands it the schema of its listing and the answer as the transport renamed them (a `__proto__` key is `~__proto__`
 * there, see keep-prototype-keys.ts), so each is named back first, its `__proto__` keys own data keys, never a
 * prototype, and the rules of a property named `__proto__` are put where the engine reads them (see
 * prototype-property-rules.ts); draft-04's boolean exclusive bounds are read as the 2020-12 numbers, as the input check
 * reads them. And the library's engines read a property through the prototype chain, so `required: ["__proto__"]` would find Object's prototype on every object: these look at
 * own keys only, and run the patterns a server wrote in linear time (one that cannot is skipped). The rest is as the
 * library's default: the engine by the schema's dialect, the same options and formats, each engine made when a
 * schema first needs it (`loadJsonSchemaEngines` imports the default dialect's ahead of a call that may need it).
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { addFormats } from '@modelcontextprotocol/client/validators/ajv';
import { withExclusiveBoundsAsNumbers } from '../json/draft04-exclusive-bounds.js';
import { unescapePrototypeKeys } from '../json/escape-prototype-keys.js';
import {
  createJsonSchemaEngine,
  type JsonSchemaDialect as Dialect,
  dialectOf,
  type JsonSchemaEngine as Engine,
} from '../json/json-schema-engines.js';
import { withPrototypePropertyRules } from '../json/prototype-property-rules.js';
import { showInvisibleCharacters } from '../text/invisible-characters.js';
import { linearRegExpSkippingUnrunnable } from '../text/linear-regexp.js';
import type { RenamedAnswers } from './renamed-answers.js';

/**
 * `onDiagnostic` hears of each output schema that cannot be compiled and each pattern that cannot run in linear time:
 * neither is checked. `renamed` says whether the transport's answers ever held a renamed key: until one does, the
 * data is checked as it is, without a walk to name keys back (without it, every answer is named back).
 */
export function createOutputSchemaValidator(
  onDiagnostic: (message: string) => void,
  renamed?: Pick<RenamedAnswers, 'any'>,
): jsonSchemaValidator {
  const onUnrunnablePattern = (source: string, reason: string) =>
    onDiagnostic(
      `has an outputSchema pattern that cannot run in linear time (${shown(reason)}), so structured output is not checked against it: "${shown(source)}"`,
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
      let engine: Engine;
      let validate: ReturnType<Engine['compile']>;
      try {
        // The library hands over the schema of its listing, as renamed on the way in (see keep-prototype-keys.ts).
        const { dialect, schema: usable } = dialectOf(unescapePrototypeKeys(schema) as object);
        if (dialect === undefined) throw new Error(unsupportedDialect((schema as { $schema?: unknown }).$schema));
        engine = engineFor(dialect);
        // Draft-04's `exclusiveMinimum: true` is read as the input check reads it: no engine here takes a boolean there.
        validate = engine.compile(withPrototypePropertyRules(withExclusiveBoundsAsNumbers(usable)));
      } catch (error) {
        // As for an input schema: a schema that cannot be compiled leaves its tool usable, unchecked, and is said once
        // (thrown, it made the library refuse every call of the tool before sending it).
        const reason = shown(error instanceof Error ? error.message : String(error));
        onDiagnostic(`lists an outputSchema that cannot be compiled (${reason}); structured output is not checked`);
        return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
      }
      return (input) =>
        validate(renamed?.any === false ? input : unescapePrototypeKeys(input))
          ? { valid: true, data: input as T, errorMessage: undefined }
          : // Bounded: with every error kept, a long array of wrong values would give a message of megabytes.
            { valid: false, data: undefined, errorMessage: shown(engine.errorsText(validate.errors?.slice(0, 10))) };
    },
  };
}

/** A server's words in a diagnostic: bounded, and its controls and invisible characters written as escapes. */
function shown(text: string): string {
  return showInvisibleCharacters(text.length > 300 ? `${text.slice(0, 300)}…` : text);
}

function unsupportedDialect(named: unknown): string {
  return `JSON Schema declares an unsupported dialect ("$schema": ${JSON.stringify(String(named).slice(0, 200))}); JSON Schema 2020-12, 2019-09, draft-07, draft-06 and draft-04 are supported.`;
}

function createEngine(dialect: Dialect, onUnrunnablePattern: (source: string, reason: string) => void): Engine {
  const options = {
    strict: false,
    // Ajv would print a server's unknown format name to the console as it is.
    logger: false,
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
  const engine = createJsonSchemaEngine(dialect, options);
  addFormats(engine as unknown as Parameters<typeof addFormats>[0]);
  return engine;
}
