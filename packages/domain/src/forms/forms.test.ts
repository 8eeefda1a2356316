import { describe, expect, it } from 'vitest';
import {
  FORM_TYPES,
  FORM_TYPE_LABELS,
  checkFormVersion,
  checkOptionFields,
  checkOptionsShape,
  checkSchemaShape,
  formMessages as f,
  formOptionMessages as o,
  hasOptions,
  isFormType,
  isMultiForm,
  isNumericProperty,
  isProposalForm,
  isResourceForm,
  isReviewForm,
  isScoreForm,
  optionsSchemaFor,
  validateFormName,
  validateFormOptions,
  type FormType,
} from '../index.js';

describe('form types (spec section 3)', () => {
  it.each([
    [0, 'Proposal Form', { proposal: true, review: false, multi: false, options: false }],
    [1, 'Proposal Multi Form', { proposal: true, review: false, multi: true, options: false }],
    [2, 'Review Form', { proposal: false, review: true, multi: false, options: false }],
    [3, 'Review Score Form', { proposal: false, review: true, multi: false, options: true }],
    [4, 'Proposal Resource Form', { proposal: true, review: false, multi: false, options: true }],
    [
      5,
      'Proposal Resource Multi Form',
      { proposal: true, review: false, multi: true, options: true },
    ],
  ] as const)('%i is the %s', (type, label, kinds) => {
    expect(FORM_TYPE_LABELS[type]).toBe(label);
    expect({
      proposal: isProposalForm(type),
      review: isReviewForm(type),
      multi: isMultiForm(type),
      options: hasOptions(type),
    }).toEqual(kinds);
    expect(isScoreForm(type)).toBe(type === 3);
    expect(isResourceForm(type)).toBe(type === 4 || type === 5);
  });

  it.each([[-1], [6], [1.5], ['1'], [null], [undefined]])('%s is not a form type', (value) => {
    expect(isFormType(value)).toBe(false);
  });
  it('numbers 0 to 5 are the only types', () => expect(FORM_TYPES).toEqual([0, 1, 2, 3, 4, 5]));
});

describe('form names', () => {
  const long = 'x'.repeat(201);
  it.each([
    ['a complete new form name', { name: 'team', display_name: 'Team', type: 1 }, {}],
    [
      'nothing filled in',
      {},
      {
        name: ['This field is required.'],
        type: ['This field is required.'],
        display_name: ['This field is required.'],
      },
    ],
    [
      'blank names',
      { name: '  ', display_name: '', type: 0 },
      { name: ['This field is required.'], display_name: ['This field is required.'] },
    ],
    [
      'names over 200 characters',
      { name: long, display_name: long, type: 0 },
      {
        name: ['Ensure this field has no more than 200 characters.'],
        display_name: ['Ensure this field has no more than 200 characters.'],
      },
    ],
    ['exactly 200 characters', { name: long.slice(1), display_name: 'x', type: 5 }, {}],
    ['type 6', { name: 'a', display_name: 'A', type: 6 }, { type: [f.type] }],
    ['type -1', { name: 'a', display_name: 'A', type: -1 }, { type: [f.type] }],
  ])('new: %s', (_name, input, expected) => {
    expect(validateFormName(input)).toEqual(expected);
  });

  const stored = { name: 'team', type: 1 };
  it.each([
    ['only the display name', { display_name: 'The team' }, {}],
    ['the same name and type back', { name: 'team', display_name: 'T', type: 1 }, {}],
    ['the same name with spaces around', { name: ' team ', display_name: 'T', type: 1 }, {}],
    ['another name', { name: 'people', display_name: 'T' }, { name: [f.nameFixed] }],
    ['another case of the name', { name: 'Team', display_name: 'T' }, { name: [f.nameFixed] }],
    ['another type', { display_name: 'T', type: 5 }, { type: [f.typeFixed] }],
    ['a blank display name', { display_name: ' ' }, { display_name: ['This field is required.'] }],
  ])('edit: %s', (_name, input, expected) => {
    expect(validateFormName(input, stored)).toEqual(expected);
  });

  it('names the types in the type message', () => {
    expect(f.type).toContain('3 Review Score Form');
  });
});

describe('form version', () => {
  it.each([
    ['1.0', []],
    ['', ['This field is required.']],
    ['x'.repeat(20), []],
    ['x'.repeat(21), ['Ensure this field has no more than 20 characters.']],
  ])('%j -> %j', (version, expected) => {
    expect(checkFormVersion(version)).toEqual(expected);
  });
});

describe('schema shape', () => {
  it.each([
    ['an object schema', { type: 'object', properties: { a: { type: 'string' } } }, []],
    ['an object schema without properties', { type: 'object' }, []],
    ['an array', [], [f.notObject]],
    ['a string', 'schema', [f.notObject]],
    ['null', null, [f.notObject]],
    ['a string schema', { type: 'string' }, [f.schemaRootNotObject]],
    ['properties as a list', { type: 'object', properties: [] }, [f.propertiesNotObject]],
  ])('%s -> %j', (_name, schema, expected) => {
    expect(checkSchemaShape(schema)).toEqual(expected);
  });
  it('keeps the spec wording for the builder', () => {
    expect(f.notSaved).toBe('Form not saved, please check the schema for errors.');
    expect(f.schemaError('x')).toBe('There is an error in the schema, x');
    expect(f.schemaErrorPrefix).toBe('There is an error in the schema, ');
  });
});

describe('numeric fields', () => {
  it.each([
    [{ type: 'number' }, true],
    [{ type: 'integer', minimum: 1 }, true],
    [{ type: ['integer', 'null'] }, true],
    [{ type: ['null'] }, false],
    [{ type: ['number', 'string'] }, false],
    [{ type: 'string' }, false],
    [{ enum: [1, 2] }, false],
    [{}, false],
    [null, false],
  ])('%j -> %s', (property, expected) => {
    expect(isNumericProperty(property)).toBe(expected);
  });
});

describe('options shape', () => {
  const score = { method: 'average', fields: ['a', 'b'] };
  const resource = { institution_field: 'facility', data_fields: ['hours'] };
  it.each<[string, FormType, unknown, Record<string, string[]>]>([
    ['type 0 without options', 0, null, {}],
    ['type 1 with options left out', 1, undefined, {}],
    ['type 2 with an empty object', 2, {}, {}],
    ['type 0 with options', 0, score, { options: [o.none(0)] }],
    ['type 3 average', 3, score, {}],
    ['type 3 total', 3, { method: 'total', fields: ['a'] }, {}],
    ['type 3 without options', 3, null, { options: [o.required(3)] }],
    ['type 3 with {}', 3, {}, { options: [o.required(3)] }],
    ['type 3 with a list', 3, [], { options: [o.notObject] }],
    ['type 3 with a string', 3, 'average', { options: [o.notObject] }],
    [
      'type 3 with a median',
      3,
      { method: 'median', fields: ['a'] },
      { 'options.method': [o.method] },
    ],
    [
      'type 3 without a method',
      3,
      { fields: ['a'] },
      { 'options.method': [o.missingOption('method')] },
    ],
    [
      'type 3 without fields',
      3,
      { method: 'total' },
      { 'options.fields': [o.missingOption('fields')] },
    ],
    [
      'type 3 with no fields',
      3,
      { method: 'total', fields: [] },
      { 'options.fields': [o.emptyList('fields')] },
    ],
    [
      'type 3 with a number for a field',
      3,
      { method: 'total', fields: ['a', 1] },
      { 'options.fields': [o.fieldList('fields')] },
    ],
    [
      'type 3 naming a field twice',
      3,
      { method: 'total', fields: ['a', 'a'] },
      { 'options.fields': [o.duplicate('fields', 'a')] },
    ],
    [
      'type 3 with a resource option',
      3,
      { ...score, data_fields: ['a'] },
      { options: [o.unknownOption('data_fields', ['method', 'fields'])] },
    ],
    ['type 4', 4, resource, {}],
    ['type 5 with one unnamed facility', 5, { institution_field: null, data_fields: ['h'] }, {}],
    [
      'type 5 without institution_field',
      5,
      { data_fields: ['h'] },
      { 'options.institution_field': [o.missingOption('institution_field')] },
    ],
    [
      'type 4 with a number for institution_field',
      4,
      { institution_field: 3, data_fields: ['h'] },
      { 'options.institution_field': [o.institutionField] },
    ],
    [
      'type 4 with data_fields as a string',
      4,
      { institution_field: null, data_fields: 'h' },
      { 'options.data_fields': [o.fieldList('data_fields')] },
    ],
    [
      'type 5 with a score option',
      5,
      { ...resource, method: 'total' },
      { options: [o.unknownOption('method', ['institution_field', 'data_fields'])] },
    ],
    ['type 5 without options', 5, null, { options: [o.required(5)] }],
  ])('%s', (_name, type, options, expected) => {
    expect(checkOptionsShape(type, options)).toEqual(expected);
  });

  it('offers the JSON schema of each type with options', () => {
    expect(optionsSchemaFor(0)).toBeNull();
    expect(optionsSchemaFor(3)?.required).toEqual(['method', 'fields']);
    expect(optionsSchemaFor(5)?.additionalProperties).toBe(false);
  });
});

describe('fields the options name', () => {
  const schema = {
    type: 'object',
    properties: {
      facility: { type: 'string', enum: ['A', 'B'] },
      hours: { type: 'number' },
      nodes: { type: 'integer' },
      note: { type: 'string' },
    },
  };
  it.each<[string, FormType, Parameters<typeof checkOptionFields>[1], Record<string, string[]>]>([
    ['numeric score fields', 3, { method: 'average', fields: ['hours', 'nodes'] }, {}],
    [
      'a text score field',
      3,
      { method: 'average', fields: ['note'] },
      { 'options.fields': [o.fieldNotNumeric('note')] },
    ],
    [
      'a score field not in the schema',
      3,
      { method: 'total', fields: ['missing'] },
      { 'options.fields': [o.fieldMissing('missing')] },
    ],
    [
      'a facility and numeric data',
      5,
      { institution_field: 'facility', data_fields: ['hours'] },
      {},
    ],
    ['no facility field', 4, { institution_field: null, data_fields: ['nodes'] }, {}],
    [
      'a facility field not in the schema',
      4,
      { institution_field: 'site', data_fields: ['hours'] },
      { 'options.institution_field': [o.fieldMissing('site')] },
    ],
    [
      'text data and a missing data field',
      5,
      { institution_field: 'facility', data_fields: ['note', 'gpu'] },
      { 'options.data_fields': [o.fieldNotNumeric('note'), o.fieldMissing('gpu')] },
    ],
    [
      'a field only inherited from Object',
      3,
      { method: 'total', fields: ['toString'] },
      { 'options.fields': [o.fieldMissing('toString')] },
    ],
  ])('%s', (_name, type, options, expected) => {
    expect(checkOptionFields(type, options, schema)).toEqual(expected);
  });

  it('validates shape first, then fields, and stores null for types without options', () => {
    expect(validateFormOptions(0, {}, schema)).toEqual({ ok: true, options: null });
    expect(validateFormOptions(3, { method: 'x', fields: ['note'] }, schema)).toEqual({
      ok: false,
      errors: { 'options.method': [o.method] },
    });
    expect(validateFormOptions(3, { method: 'total', fields: ['note'] }, schema)).toEqual({
      ok: false,
      errors: { 'options.fields': [o.fieldNotNumeric('note')] },
    });
    expect(
      validateFormOptions(4, { institution_field: null, data_fields: ['hours'] }, schema),
    ).toEqual({ ok: true, options: { institution_field: null, data_fields: ['hours'] } });
  });
});
