/** A form's requested schema → fields, and what a person types → the values the schema asks for. */
import { describe, expect, it } from 'vitest';
import { type FormField, formFields, parseFieldAnswer } from '../../src/client-features/elicitation-form-fields.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name', description: 'Your legal name', minLength: 2 },
    agree: { type: 'boolean', title: 'Agree', default: false },
    email: { type: 'string', format: 'email' },
    count: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    ratio: { type: 'number' },
    color: { type: 'string', enum: ['red', 'green'], default: 'red' },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Batman' },
      ],
    },
    pet: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'] },
    instruments: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: { type: 'string', enum: ['Guitar', 'Piano', 'Drums'] },
      default: ['Guitar'],
    },
    fish: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'f1', title: 'Tuna' },
          { const: 'f2', title: 'Trout' },
        ],
      },
    },
    password: { type: 'string', title: 'Password' },
    apiToken: { type: 'string' },
    phone: { type: 'string', description: 'Never give us your phone number or other sensitive info' },
  },
  required: ['name', 'email'],
};

function field(name: string): FormField {
  const found = formFields(schema).find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
}

describe('formFields', () => {
  it('keeps the server order, labels, required flags, defaults and choice kinds', () => {
    const fields = formFields(schema);
    expect(fields.map((entry) => entry.name)).toEqual(Object.keys(schema.properties));
    expect(field('name')).toMatchObject({ kind: 'text', label: 'Full name', required: true, minLength: 2 });
    expect(field('agree')).toMatchObject({ kind: 'boolean', default: false, required: false });
    expect(field('count')).toMatchObject({ kind: 'number', integer: true, minimum: 1, maximum: 100, default: 42 });
    expect(field('color')).toMatchObject({ kind: 'choice', default: 'red' });
    expect(field('hero')).toMatchObject({
      kind: 'choice',
      choices: [
        { value: 'hero-1', label: 'Superman' },
        { value: 'hero-2', label: 'Batman' },
      ],
    });
    expect(field('pet')).toMatchObject({
      choices: [
        { value: 'p1', label: 'Cats' },
        { value: 'p2', label: 'Dogs' },
      ],
    });
    expect(field('instruments')).toMatchObject({ kind: 'multi-choice', minItems: 1, maxItems: 2, default: ['Guitar'] });
    expect(field('fish')).toMatchObject({
      kind: 'multi-choice',
      choices: [
        { value: 'f1', label: 'Tuna' },
        { value: 'f2', label: 'Trout' },
      ],
    });
  });

  it('flags fields that ask for a password or other secret, not ones that merely mention sensitive data', () => {
    expect(field('password').secret).toBe(true);
    expect(field('apiToken').secret).toBe(true);
    expect(field('phone').secret).toBe(false);
    expect(field('name').secret).toBe(false);
  });

  it('refuses a field type MCP forms do not allow', () => {
    expect(() => formFields({ type: 'object', properties: { nested: { type: 'object' } } })).toThrow(
      /nested.*"object"/,
    );
  });
});

describe('parseFieldAnswer', () => {
  it('takes the default on an empty answer, leaves out an optional field and refuses a required one', () => {
    expect(parseFieldAnswer(field('count'), '')).toEqual({ ok: true, value: 42 });
    expect(parseFieldAnswer(field('instruments'), '  ')).toEqual({ ok: true, value: ['Guitar'] });
    expect(parseFieldAnswer(field('ratio'), '')).toEqual({ ok: true, value: undefined });
    expect(parseFieldAnswer(field('name'), '')).toEqual({ ok: false, error: '"Full name" is required.' });
  });

  it('checks text lengths and formats', () => {
    expect(parseFieldAnswer(field('name'), 'A')).toMatchObject({ ok: false });
    expect(parseFieldAnswer(field('name'), '  Ada Lovelace ')).toEqual({ ok: true, value: 'Ada Lovelace' });
    expect(parseFieldAnswer(field('email'), 'not-an-email')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/email/),
    });
    expect(parseFieldAnswer(field('email'), 'ada@example.com')).toEqual({ ok: true, value: 'ada@example.com' });
  });

  it('checks numbers against type and range', () => {
    expect(parseFieldAnswer(field('count'), '3.5')).toEqual({ ok: false, error: 'A whole number, please.' });
    expect(parseFieldAnswer(field('count'), '0')).toEqual({ ok: false, error: 'At least 1.' });
    expect(parseFieldAnswer(field('count'), '101')).toEqual({ ok: false, error: 'At most 100.' });
    expect(parseFieldAnswer(field('count'), '7')).toEqual({ ok: true, value: 7 });
    expect(parseFieldAnswer(field('ratio'), 'abc')).toEqual({ ok: false, error: 'A number, please.' });
  });

  it('reads yes/no, and choices by number, value or label', () => {
    expect(parseFieldAnswer(field('agree'), 'yes')).toEqual({ ok: true, value: true });
    expect(parseFieldAnswer(field('agree'), 'N')).toEqual({ ok: true, value: false });
    expect(parseFieldAnswer(field('agree'), 'maybe')).toMatchObject({ ok: false });
    expect(parseFieldAnswer(field('hero'), '2')).toEqual({ ok: true, value: 'hero-2' });
    expect(parseFieldAnswer(field('hero'), 'superman')).toEqual({ ok: true, value: 'hero-1' });
    expect(parseFieldAnswer(field('pet'), 'Dogs')).toEqual({ ok: true, value: 'p2' });
    expect(parseFieldAnswer(field('hero'), 'Robin')).toMatchObject({
      ok: false,
      error: expect.stringContaining('1) Superman'),
    });
  });

  it('reads several choices separated by commas within the item bounds', () => {
    expect(parseFieldAnswer(field('instruments'), '1, Drums')).toEqual({ ok: true, value: ['Guitar', 'Drums'] });
    expect(parseFieldAnswer(field('instruments'), '1,2,3')).toEqual({ ok: false, error: 'Choose at most 2.' });
    expect(parseFieldAnswer(field('fish'), 'trout')).toEqual({ ok: true, value: ['f2'] });
    expect(parseFieldAnswer(field('fish'), 'salmon')).toMatchObject({ ok: false });
  });
});
