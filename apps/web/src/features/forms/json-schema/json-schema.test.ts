import { describe, expect, it } from 'vitest';
import { formValidator } from './rjsf-validator';
import { schemaProblem } from './schema-problem';

/** The server's ajv says the same for each (apps/server/src/modules/forms/form-access.ts). */
describe('schemaProblem', () => {
  it.each([
    ['a valid schema', { type: 'object', properties: { a: { type: 'string' } } }, null],
    [
      'an unknown type',
      { type: 'object', properties: { age: { type: 'strin' } } },
      'schema is invalid: data/properties/age/type must be equal to one of the allowed values, data/properties/age/type must be array, data/properties/age/type must match a schema in anyOf',
    ],
    [
      'a negative length',
      { type: 'object', properties: { a: { type: 'string', maxLength: -1 } } },
      'schema is invalid: data/properties/a/maxLength must be >= 0',
    ],
    [
      'a broken pattern',
      { type: 'object', properties: { a: { type: 'string', pattern: '(' } } },
      'Invalid regular expression: /(/u: Unterminated group',
    ],
    [
      'a reference to nowhere',
      { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } },
      "can't resolve reference #/definitions/missing from id #",
    ],
  ])('%s', (_name, schema, expected) => {
    expect(schemaProblem(schema)).toBe(expected);
  });
});

describe('formValidator', () => {
  const schema = {
    type: 'object' as const,
    required: ['name'],
    definitions: { score: { type: 'integer' as const, minimum: 0, maximum: 10 } },
    properties: {
      name: { type: 'string' as const, title: 'Full name', maxLength: 5 },
      score: { $ref: '#/definitions/score' },
      email: { type: 'string' as const, format: 'email' },
    },
    additionalProperties: false,
  };

  it('reports what ajv reports, with rjsf titles', () => {
    const { errors } = formValidator.validateFormData(
      { score: 11, email: 'nope', extra: 1, cleared: undefined },
      schema,
    );
    // rjsf shows each error at its field; the order among them does not matter.
    expect(errors.map((error) => [error.property, error.message]).sort()).toEqual([
      ['', 'must NOT have additional properties'],
      ['.email', 'must match format "email"'],
      ['.score', 'must be <= 10'],
      ['name', "must have required property 'Full name'"],
    ]);
  });

  it('accepts valid data, ignoring undefined properties', () => {
    const { errors } = formValidator.validateFormData(
      { name: 'Ada', nothing: undefined },
      {
        ...schema,
        additionalProperties: true,
      },
    );
    expect(errors).toEqual([]);
  });

  it('answers isValid for a part of the root, through references', () => {
    const option = { properties: { score: { $ref: '#/definitions/score' } } };
    expect(formValidator.isValid(option, { score: 3 }, schema)).toBe(true);
    expect(formValidator.isValid(option, { score: 30 }, schema)).toBe(false);
  });
});
