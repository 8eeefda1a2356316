import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { readableErrors } from './error-messages';
import { formValidator } from './rjsf-validator';

/** What a person sees for `data`: the messages of the validator, as the forms pass them on. */
function messagesFor(schema: RJSFSchema, data: unknown, uiSchema: UiSchema = {}): string[] {
  const { errors } = formValidator.validateFormData(
    data,
    schema,
    undefined,
    readableErrors,
    uiSchema,
  );
  return errors.map((error) => error.stack);
}

const object = (properties: Record<string, RJSFSchema>, required: string[] = []): RJSFSchema => ({
  type: 'object',
  required,
  properties,
});

describe('readableErrors', () => {
  it.each<[string, RJSFSchema, unknown, string]>([
    [
      'a missing answer, by its title',
      object({ title: { type: 'string', title: 'Project title' } }, ['title']),
      {},
      'Project title is required.',
    ],
    [
      'a missing answer without a title, by its key',
      object({ budget: { type: 'number' } }, ['budget']),
      {},
      'budget is required.',
    ],
    [
      'a wrong type',
      object({ hours: { type: 'integer', title: 'Hours' } }),
      { hours: 1.5 },
      'Hours must be a whole number.',
    ],
    [
      'a number too large',
      object({ merit: { type: 'integer', title: 'Merit', maximum: 10 } }),
      { merit: 11 },
      'Merit must be at most 10.',
    ],
    [
      'text too short',
      object({ summary: { type: 'string', title: 'Summary', minLength: 20 } }),
      { summary: 'short' },
      'Summary must be at least 20 characters long.',
    ],
    [
      'a choice not offered',
      object({ facility: { type: 'string', title: 'Facility', enum: ['ANSTO'] } }),
      { facility: 'CERN' },
      'Facility must be one of the listed choices.',
    ],
    [
      'an email address that is not one',
      object({ contact: { type: 'string', title: 'Contact', format: 'email' } }),
      { contact: 'nobody' },
      'Contact must be an email address.',
    ],
    [
      'too few items in a list',
      object({ team: { type: 'array', title: 'Team', minItems: 2, items: { type: 'string' } } }),
      { team: ['Ada'] },
      'Team must have at least 2 items.',
    ],
    [
      'an item of a list, by its position',
      object({ hours: { type: 'array', items: { type: 'integer' } } }),
      { hours: [1, 'two'] },
      'Item 2 of hours must be a whole number.',
    ],
  ])('%s', (_name, schema, data, expected) => {
    expect(messagesFor(schema, data)).toEqual([expected]);
  });

  it("prefers the UI schema's title, as the form shows it", () => {
    const schema = object({ title: { type: 'string', title: 'Title' } }, ['title']);
    expect(messagesFor(schema, {}, { title: { 'ui:title': 'Project title' } })).toEqual([
      'Project title is required.',
    ]);
  });

  it('words the message under the field as in the list above the form', () => {
    const schema = object({ title: { type: 'string', title: 'Project title' } }, ['title']);
    const { errorSchema } = formValidator.validateFormData({}, schema, undefined, readableErrors);
    expect(errorSchema).toEqual({ title: { __errors: ['Project title is required.'] } });
  });
});
