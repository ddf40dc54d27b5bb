/**
 * The host's own check of a call's arguments against the tool's input schema judges the keys the arguments have,
 * never those of Object's prototype: tools may name parameters `constructor`, `toString` or `__proto__`.
 */
import { describe, expect, it } from 'vitest';
import { createArgumentValidator } from '../../src/catalog/argument-validation.js';

const validator = createArgumentValidator();
const check = (schema: object, argumentsText: string) =>
  validator.check('srv__tool', schema, JSON.parse(argumentsText) as Record<string, unknown>);

describe('the argument check', () => {
  it('refuses arguments that leave out a required parameter named like a key of Object.prototype', () => {
    const schema = { type: 'object', required: ['constructor', 'hasOwnProperty'] };
    const refused = check(schema, '{}');
    if (refused.valid) throw new Error('expected a refusal');
    expect(refused.problems).toHaveLength(2);
    expect(refused.message).toMatch(/constructor/);
    expect(refused.message).toMatch(/hasOwnProperty/);
    expect(check(schema, '{"constructor":"given","hasOwnProperty":1}')).toEqual({ valid: true });
  });

  it('does not check an optional parameter the model left out against what Object.prototype holds under its name', () => {
    const schema = { type: 'object', properties: { toString: { type: 'string' }, valueOf: { type: 'number' } } };
    expect(check(schema, '{}')).toEqual({ valid: true });
    expect(check(schema, '{"toString":1}')).toMatchObject({ valid: false });
  });

  it('judges a __proto__ parameter by the own key the arguments hold', () => {
    const schema = { type: 'object', properties: { ['__proto__']: { type: 'object' } }, required: ['__proto__'] };
    expect(check(schema, '{}')).toMatchObject({ valid: false });
    expect(check(schema, '{"__proto__":{"a":1}}')).toEqual({ valid: true });
    const closed = { type: 'object', properties: { a: { type: 'number' } }, additionalProperties: false };
    expect(check(closed, '{"a":1,"__proto__":{}}')).toMatchObject({ valid: false });
    expect(check(closed, '{"a":1}')).toEqual({ valid: true });
  });

  it("checks a __proto__ parameter's own rules at any depth, beside a pattern the server wrote for it", () => {
    // Parsed from text, as a server's listing is: in a literal `__proto__` would set the prototype.
    const text =
      '{"type":"object","properties":{"outer":{"type":"object","properties":{"__proto__":{"type":"string","maxLength":3}},"additionalProperties":false},"list":{"type":"array","items":{"$ref":"#/$defs/entry"}}},"$defs":{"entry":{"type":"object","properties":{"__proto__":{"type":"integer"}},"patternProperties":{"^__proto__$":{"minimum":2}}}}}';
    const schema = JSON.parse(text) as object;
    expect(check(schema, '{"outer":{"__proto__":"abc"},"list":[{"__proto__":3}]}')).toEqual({ valid: true });
    const refusedText = (argumentsText: string) => {
      const checked = check(schema, argumentsText);
      return checked.valid ? 'accepted' : checked.message;
    };
    expect(refusedText('{"outer":{"__proto__":"abcd"}}')).toContain(
      '- outer.__proto__: must NOT have more than 3 characters',
    );
    expect(refusedText('{"list":[{"__proto__":"x"}]}')).toContain(
      '- list[0].__proto__: must be integer (got a string)',
    );
    expect(refusedText('{"list":[{"__proto__":1}]}')).toContain('- list[0].__proto__: must be >= 2');
    // The tool's own schema is left as the server sent it.
    expect(JSON.stringify(schema)).toBe(text);
  });

  // Each schema is parsed from text, as a server's listing is: in a literal `__proto__` would set the prototype.
  const refusal = (schemaText: string, argumentsText: string) => {
    const checked = check(JSON.parse(schemaText) as object, argumentsText);
    return checked.valid ? 'accepted' : checked.message;
  };

  it('checks what a __proto__ parameter requires under dependencies, as a list of names and as a schema, in every dialect', () => {
    for (const dialect of [
      '',
      '"$schema":"http://json-schema.org/draft-07/schema#",',
      '"$schema":"https://json-schema.org/draft/2019-09/schema",',
    ]) {
      const names = `{${dialect}"type":"object","dependencies":{"__proto__":["name"]}}`;
      // Only what is missing: not also that an `if` part of the schema the server never wrote failed.
      expect(refusal(names, '{"__proto__":1}'), dialect).toMatch(/:\n- name: is required\nCorrect/);
      expect(refusal(names, '{"__proto__":1,"name":"x"}'), dialect).toBe('accepted');
      expect(refusal(names, '{"name":"x"}'), dialect).toBe('accepted');
      const schema = `{${dialect}"type":"object","dependencies":{"__proto__":{"properties":{"name":{"maxLength":3}}}},"allOf":[{"required":["name"]}]}`;
      expect(refusal(schema, '{"__proto__":1,"name":"abcd"}'), dialect).toContain(
        '- name: must NOT have more than 3 characters',
      );
      expect(refusal(schema, '{"__proto__":1,"name":"abc"}'), dialect).toBe('accepted');
      expect(refusal(schema, '{"name":"abcd"}'), dialect).toBe('accepted');
      expect(refusal(schema, '{"__proto__":1}'), dialect).toContain('- name: is required');
    }
  });

  it('counts the properties a __proto__ dependency evaluates, and no others', () => {
    const schema =
      '{"type":"object","properties":{"__proto__":{}},"dependencies":{"__proto__":{"properties":{"extra":{}}}},"unevaluatedProperties":false}';
    expect(refusal(schema, '{"__proto__":1,"extra":2}')).toBe('accepted');
    expect(refusal(schema, '{"extra":2}')).toContain('- extra: is not a parameter of this tool');
  });

  it('checks the rules of the pattern __proto__, and leaves the names it matches out of additionalProperties', () => {
    const schema = '{"type":"object","patternProperties":{"__proto__":{"type":"string"}},"additionalProperties":false}';
    expect(refusal(schema, '{"my__proto__key":"x","__proto__":"y"}')).toBe('accepted');
    expect(refusal(schema, '{"my__proto__key":1}')).toContain('- my__proto__key: must be string (got an integer)');
    expect(refusal(schema, '{"other":"x"}')).toContain('- other: is not a parameter of this tool');
  });

  it('reads dependentSchemas, dependentRequired, required and propertyNames naming __proto__ as they are', () => {
    const dependent =
      '{"type":"object","dependentSchemas":{"__proto__":{"required":["a"]}},"dependentRequired":{"__proto__":["b"],"c":["__proto__"]}}';
    const refused = refusal(dependent, '{"__proto__":1}');
    expect(refused).toContain('- a: is required');
    expect(refused).toContain('- (arguments): must have property b when property __proto__ is present');
    expect(refusal(dependent, '{"c":1}')).toContain('must have property __proto__ when property c is present');
    expect(refusal(dependent, '{"__proto__":1,"a":1,"b":1,"c":1}')).toBe('accepted');
    expect(refusal('{"type":"object","required":["__proto__"]}', '{}')).toContain('- __proto__: is required');
    const names = '{"type":"object","propertyNames":{"not":{"const":"__proto__"}}}';
    expect(refusal(names, '{"__proto__":1}')).not.toBe('accepted');
    expect(refusal(names, '{"other":1}')).toBe('accepted');
  });

  it("reads draft-04's boolean exclusive bounds in schemas only: a property or a value named like them is left alone", () => {
    // Without a bound beside it, `true` bounds nothing.
    expect(check({ type: 'object', properties: { n: { exclusiveMinimum: true } } }, '{"n":-5}')).toEqual({
      valid: true,
    });
    const namedLikeBounds = {
      type: 'object',
      properties: { exclusiveMinimum: true, minimum: { type: 'number' }, pick: { enum: [{ exclusiveMaximum: true }] } },
      required: ['exclusiveMinimum'],
    };
    expect(check(namedLikeBounds, '{"minimum":1,"pick":{"exclusiveMaximum":true}}')).toMatchObject({
      valid: false,
      problems: [{ field: 'exclusiveMinimum', problem: 'is required' }],
    });
    expect(check(namedLikeBounds, '{"exclusiveMinimum":0,"pick":{"exclusiveMaximum":true}}')).toEqual({
      valid: true,
    });
    expect(check(namedLikeBounds, '{"exclusiveMinimum":0,"pick":{"exclusiveMaximum":1}}')).toMatchObject({
      valid: false,
    });
  });
});
