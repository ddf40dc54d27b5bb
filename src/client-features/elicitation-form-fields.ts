/**
 * A form-mode elicitation's `requestedSchema` as a list of fields a person can fill in one by one, and the
 * checks that turn what they typed into the value the schema asks for. MCP limits forms to flat objects of
 * primitives (text, numbers, booleans, single and multiple choice), so every field kind is known here.
 *
 * A field whose name or title asks for a password or other secret is flagged: the specification forbids servers
 * from asking for sensitive information through forms, so such a request deserves the user's suspicion.
 */

interface FormChoice {
  value: string;
  label: string;
}

interface FieldBase {
  name: string;
  /** `title`, or the name when there is none. */
  label: string;
  description?: string;
  required: boolean;
  /** The field looks like it asks for a password or other secret. */
  secret: boolean;
}

export type FormField =
  | (FieldBase & {
      kind: 'text';
      format?: string;
      minLength?: number;
      maxLength?: number;
      default?: string;
    })
  | (FieldBase & { kind: 'number'; integer: boolean; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'choice'; choices: FormChoice[]; default?: string })
  | (FieldBase & {
      kind: 'multi-choice';
      choices: FormChoice[];
      minItems?: number;
      maxItems?: number;
      default?: string[];
    });

export type FieldValue = string | number | boolean | string[];

/** `value` undefined: the field is left out (optional, no default). */
type FieldAnswer = { ok: true; value: FieldValue | undefined } | { ok: false; error: string };

const SECRET_NAME_PATTERN =
  /pass(word|phrase|code)|passwd|\bpwd\b|secret|token|api[-_ ]?key|credential|private[-_ ]?key|\bpin\b/i;
const SECRET_DESCRIPTION_PATTERN = /\bpass(word|phrase|code)\b/i;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

function titledChoices(value: unknown): FormChoice[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const choices: FormChoice[] = [];
  for (const item of value) {
    if (!isObject(item) || typeof item.const !== 'string') return undefined;
    choices.push({ value: item.const, label: typeof item.title === 'string' ? item.title : item.const });
  }
  return choices;
}

function plainChoices(values: string[], names?: string[]): FormChoice[] {
  return values.map((value, index) => ({ value, label: names?.[index] ?? value }));
}

/** The fields of a `requestedSchema`, in the order the server listed them. Throws for a field MCP does not allow. */
export function formFields(requestedSchema: unknown): FormField[] {
  if (!isObject(requestedSchema) || !isObject(requestedSchema.properties)) return [];
  const required = new Set(stringList(requestedSchema.required) ?? []);
  return Object.entries(requestedSchema.properties).map(([name, property]) => {
    if (!isObject(property)) throw new Error(`form field "${name}" has no schema`);
    const label = typeof property.title === 'string' && property.title !== '' ? property.title : name;
    const description = typeof property.description === 'string' ? property.description : undefined;
    const secret =
      SECRET_NAME_PATTERN.test(name) ||
      SECRET_NAME_PATTERN.test(label) ||
      (description !== undefined && SECRET_DESCRIPTION_PATTERN.test(description));
    const base: FieldBase = { name, label, required: required.has(name), secret };
    if (description !== undefined) base.description = description;
    return fieldOf(name, property, base);
  });
}

function fieldOf(name: string, property: JsonObject, base: FieldBase): FormField {
  switch (property.type) {
    case 'boolean':
      return {
        ...base,
        kind: 'boolean',
        default: typeof property.default === 'boolean' ? property.default : undefined,
      };
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: 'number',
        integer: property.type === 'integer',
        minimum: optionalNumber(property.minimum),
        maximum: optionalNumber(property.maximum),
        default: optionalNumber(property.default),
      };
    case 'array': {
      const items = isObject(property.items) ? property.items : {};
      const choices = titledChoices(items.anyOf) ?? plainChoices(stringList(items.enum) ?? []);
      if (choices.length === 0) throw new Error(`form field "${name}" is a list without choices`);
      return {
        ...base,
        kind: 'multi-choice',
        choices,
        minItems: optionalNumber(property.minItems),
        maxItems: optionalNumber(property.maxItems),
        default: stringList(property.default),
      };
    }
    case 'string': {
      const defaultValue = typeof property.default === 'string' ? property.default : undefined;
      const choices =
        titledChoices(property.oneOf) ??
        (stringList(property.enum)
          ? plainChoices(stringList(property.enum)!, stringList(property.enumNames))
          : undefined);
      if (choices) return { ...base, kind: 'choice', choices, default: defaultValue };
      return {
        ...base,
        kind: 'text',
        format: typeof property.format === 'string' ? property.format : undefined,
        minLength: optionalNumber(property.minLength),
        maxLength: optionalNumber(property.maxLength),
        default: defaultValue,
      };
    }
    default:
      throw new Error(`form field "${name}" has type ${JSON.stringify(property.type)}, which MCP forms do not allow`);
  }
}

/**
 * What the user typed for a field → its value. An empty answer takes the default; with no default it leaves an
 * optional field out and is refused for a required one.
 */
export function parseFieldAnswer(field: FormField, typed: string): FieldAnswer {
  const text = typed.trim();
  if (text === '') {
    if (field.default !== undefined) return { ok: true, value: field.default };
    if (field.required) return { ok: false, error: `"${field.label}" is required.` };
    return { ok: true, value: undefined };
  }
  switch (field.kind) {
    case 'text':
      return parseText(field, typed);
    case 'number':
      return parseNumber(field, text);
    case 'boolean':
      if (/^(y|yes|true|1)$/i.test(text)) return { ok: true, value: true };
      if (/^(n|no|false|0)$/i.test(text)) return { ok: true, value: false };
      return { ok: false, error: 'Answer yes or no.' };
    case 'choice': {
      const choice = findChoice(field.choices, text);
      return choice ? { ok: true, value: choice.value } : { ok: false, error: `Choose one of: ${listChoices(field)}.` };
    }
    case 'multi-choice':
      return parseMultiChoice(field, text);
  }
}

function parseText(field: Extract<FormField, { kind: 'text' }>, typed: string): FieldAnswer {
  // Text keeps its inner spacing; only a line's surrounding blanks are dropped.
  const value = typed.trim();
  if (field.minLength !== undefined && value.length < field.minLength) {
    return { ok: false, error: `At least ${field.minLength} characters, please.` };
  }
  if (field.maxLength !== undefined && value.length > field.maxLength) {
    return { ok: false, error: `At most ${field.maxLength} characters, please.` };
  }
  const problem = formatProblem(field.format, value);
  return problem ? { ok: false, error: problem } : { ok: true, value };
}

function formatProblem(format: string | undefined, value: string): string | undefined {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? undefined : 'An email address, please (name@example.com).';
    case 'uri':
      return URL.canParse(value) ? undefined : 'A full URI, please (e.g. https://example.com).';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))
        ? undefined
        : 'A date as YYYY-MM-DD, please.';
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value))
        ? undefined
        : 'A date and time as YYYY-MM-DDTHH:MM:SSZ, please.';
    default:
      return undefined;
  }
}

function parseNumber(field: Extract<FormField, { kind: 'number' }>, text: string): FieldAnswer {
  const value = Number(text);
  if (!Number.isFinite(value)) return { ok: false, error: 'A number, please.' };
  if (field.integer && !Number.isInteger(value)) return { ok: false, error: 'A whole number, please.' };
  if (field.minimum !== undefined && value < field.minimum) return { ok: false, error: `At least ${field.minimum}.` };
  if (field.maximum !== undefined && value > field.maximum) return { ok: false, error: `At most ${field.maximum}.` };
  return { ok: true, value };
}

function parseMultiChoice(field: Extract<FormField, { kind: 'multi-choice' }>, text: string): FieldAnswer {
  const values: string[] = [];
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const choice = findChoice(field.choices, part.trim());
    if (!choice) return { ok: false, error: `"${part.trim()}" is not a choice; choose from: ${listChoices(field)}.` };
    if (!values.includes(choice.value)) values.push(choice.value);
  }
  if (field.minItems !== undefined && values.length < field.minItems) {
    return { ok: false, error: `Choose at least ${field.minItems}.` };
  }
  if (field.maxItems !== undefined && values.length > field.maxItems) {
    return { ok: false, error: `Choose at most ${field.maxItems}.` };
  }
  return { ok: true, value: values };
}

/** A choice by its number in the list (from 1), its value or its label. */
function findChoice(choices: readonly FormChoice[], text: string): FormChoice | undefined {
  if (/^\d+$/.test(text)) {
    const byNumber = choices[Number(text) - 1];
    if (byNumber) return byNumber;
  }
  const lower = text.toLowerCase();
  return (
    choices.find((choice) => choice.value === text) ??
    choices.find((choice) => choice.value.toLowerCase() === lower || choice.label.toLowerCase() === lower)
  );
}

function listChoices(field: { choices: readonly FormChoice[] }): string {
  return field.choices.map((choice, index) => `${index + 1}) ${choice.label}`).join(', ');
}
