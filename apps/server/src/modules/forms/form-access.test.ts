import {
  RESOURCE_OPTIONS_SCHEMA,
  SCORE_OPTIONS_SCHEMA,
  checkOptionsShape,
  type FormType,
} from '@merit/domain';
import { describe, expect, it } from 'vitest';
import { createFormAjv, schemaCompileProblem } from './form-access.js';

/**
 * The domain checks options by hand (it has no JSON Schema validator) while the web's
 * options editors show the domain's JSON schemas. These cases hold the two to the same
 * verdict, so neither can drift.
 */
describe('options: the JSON schemas and the hand-written checks agree', () => {
  const score = createFormAjv().compile(SCORE_OPTIONS_SCHEMA);
  const resource = createFormAjv().compile(RESOURCE_OPTIONS_SCHEMA);
  it.each<[FormType, unknown]>([
    [3, { method: 'average', fields: ['a'] }],
    [3, { method: 'total', fields: ['a', 'b'] }],
    [3, { method: 'median', fields: ['a'] }],
    [3, { method: 'total' }],
    [3, { fields: ['a'] }],
    [3, { method: 'total', fields: [] }],
    [3, { method: 'total', fields: ['a', 'a'] }],
    [3, { method: 'total', fields: [1] }],
    [3, { method: 'total', fields: 'a' }],
    [3, { method: 'total', fields: ['a'], extra: true }],
    [3, { method: 'total', fields: ['a'], institution_field: null }],
    [3, []],
    [3, 'average'],
    [5, { institution_field: 'f', data_fields: ['a'] }],
    [5, { institution_field: null, data_fields: ['a'] }],
    [4, { data_fields: ['a'] }],
    [4, { institution_field: null }],
    [4, { institution_field: 1, data_fields: ['a'] }],
    [4, { institution_field: null, data_fields: [] }],
    [4, { institution_field: null, data_fields: ['a', 'a'] }],
    [4, { institution_field: null, data_fields: ['a'], method: 'total' }],
  ])('type %i, %j', (type, options) => {
    const validate = type === 3 ? score : resource;
    const handChecked = Object.keys(checkOptionsShape(type, options)).length === 0;
    expect(handChecked).toBe(validate(options));
  });
});

describe('schemaCompileProblem', () => {
  it('accepts a draft-07 schema and reports one that does not compile', () => {
    expect(
      schemaCompileProblem({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { a: { type: 'string' } },
      }),
    ).toBeNull();
    expect(schemaCompileProblem({ type: 'object', properties: { a: { type: 'text' } } })).toMatch(
      /schema is invalid/,
    );
  });

  it('compiles two schemas with the same $id, as two forms may have', () => {
    const schema = { $id: 'https://example.org/form', type: 'object' };
    expect(schemaCompileProblem(schema)).toBeNull();
    expect(schemaCompileProblem({ ...schema, properties: {} })).toBeNull();
  });
});
