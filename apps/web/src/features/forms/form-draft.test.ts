import { formMessages, messages } from '@merit/domain';
import { describe, expect, it } from 'vitest';
import { makeFormName } from '../../test/admin-fixtures';
import { checkDraft, newDraft, uiOrderProblem, type FormDraft } from './form-draft';

const scores = makeFormName({ id: 11, type: 3 });
const plain = makeFormName({ id: 12, name: 'project', type: 0 });
const schema = JSON.stringify({
  type: 'object',
  properties: { merit: { type: 'integer' }, comment: { type: 'string' } },
});

const draft = (overrides: Partial<FormDraft>): FormDraft => ({
  ...newDraft(),
  formNameId: '12',
  version: '1',
  jsonSchema: schema,
  ...overrides,
});

describe('checkDraft (spec section 5, Forms)', () => {
  it.each([
    [
      'a JSON syntax error',
      { jsonSchema: '{"type": "object",' },
      'jsonSchema',
      formMessages.notSaved,
    ],
    ['a schema that is not an object', { jsonSchema: '[]' }, 'jsonSchema', formMessages.notSaved],
    [
      'an invalid JSON Schema',
      { jsonSchema: '{"type": "object", "properties": {"a": {"minLength": "x"}}}' },
      'jsonSchema',
      formMessages.notSaved,
    ],
    ['a UI schema syntax error', { uiSchema: '{' }, 'uiSchema', formMessages.notSaved],
    [
      'a ui:order that leaves out a field',
      { uiSchema: '{"ui:order": ["merit"]}' },
      'uiSchema',
      formMessages.notSaved,
    ],
    ['initial data that is a list', { initialData: '[1]' }, 'initialData', formMessages.notSaved],
    ['no version', { version: ' ' }, 'version', messages.validationFailed],
    [
      'a version over 20 characters',
      { version: 'x'.repeat(21) },
      'version',
      messages.validationFailed,
    ],
    ['no form name', { formNameId: '' }, 'name', messages.validationFailed],
    [
      'a score form without score fields',
      { formNameId: '11', options: { method: 'average' as const, fields: [] } },
      'options.fields',
      formMessages.notSaved,
    ],
    [
      'a score field that is not numeric',
      { formNameId: '11', options: { method: 'average' as const, fields: ['comment'] } },
      'options.fields',
      formMessages.notSaved,
    ],
  ])('refuses %s with the server’s message', (_case, overrides, field, detail) => {
    const result = checkDraft(draft(overrides), [scores, plain]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.detail).toBe(detail);
    expect(Object.keys(result.fields)).toContain(field);
  });

  it('builds the request: an empty UI schema and initial data, no options for type 0', () => {
    const result = checkDraft(draft({ uiSchema: '', initialData: '  ', version: ' 2 ' }), [plain]);
    expect(result).toEqual({
      ok: true,
      body: {
        isNew: true,
        name: 12,
        version: '2',
        jsonSchema: JSON.parse(schema),
        uiSchema: {},
        initialData: null,
        options: null,
      },
    });
  });

  it('names the field a ui:order leaves out, at any depth, and accepts a "*"', () => {
    const nested = {
      type: 'object',
      properties: { address: { type: 'object', properties: { street: {}, city: {} } } },
    };
    expect(uiOrderProblem(nested, { address: { 'ui:order': ['city'] } })).toBe(
      `at "address": uiSchema order list does not contain property 'street'`,
    );
    expect(uiOrderProblem(nested, { address: { 'ui:order': ['city', '*'] } })).toBeNull();
  });

  it('replaces an existing form by its id, with its options', () => {
    const options = { method: 'total' as const, fields: ['merit'] };
    const result = checkDraft(draft({ formNameId: '11', options }), [scores], 31);
    expect(result.ok && result.body).toMatchObject({ isNew: false, formId: 31, options });
  });
});
