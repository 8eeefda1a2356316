import { describe, expect, it } from 'vitest';
import { answerErrorMessage, fieldLabel, type AnswerError } from './answer-messages.js';

describe('fieldLabel', () => {
  it.each<[string, string[], string | undefined, string]>([
    ['its title, when it has one', ['title'], 'Project title', 'Project title'],
    ['else its key', ['budget'], undefined, 'budget'],
    ['an item of a list, by its position', ['hours', '1'], undefined, 'Item 2 of hours'],
    ['an item at the top', ['0'], undefined, 'Item 1'],
    ['the form itself', [], undefined, 'This form'],
  ])('%s', (_name, path, title, expected) => {
    expect(fieldLabel(path, title)).toBe(expected);
  });
});

describe('answerErrorMessage', () => {
  const label = 'Project title';
  it.each<[string, AnswerError, string]>([
    [
      'required',
      { keyword: 'required', params: { missingProperty: 'title' } },
      'Project title is required.',
    ],
    [
      'type',
      { keyword: 'type', params: { type: 'integer' } },
      'Project title must be a whole number.',
    ],
    [
      'a choice of types',
      { keyword: 'type', params: { type: 'string,null' } },
      'Project title must be text or empty.',
    ],
    ['enum', { keyword: 'enum', params: {} }, 'Project title must be one of the listed choices.'],
    [
      'const',
      { keyword: 'const', params: { allowedValue: 'yes' } },
      'Project title must be "yes".',
    ],
    [
      'minLength 1',
      { keyword: 'minLength', params: { limit: 1 } },
      'Project title must not be empty.',
    ],
    [
      'minLength',
      { keyword: 'minLength', params: { limit: 20 } },
      'Project title must be at least 20 characters long.',
    ],
    [
      'maxLength',
      { keyword: 'maxLength', params: { limit: 1 } },
      'Project title must be at most 1 character long.',
    ],
    [
      'minItems',
      { keyword: 'minItems', params: { limit: 2 } },
      'Project title must have at least 2 items.',
    ],
    [
      'maxItems',
      { keyword: 'maxItems', params: { limit: 1 } },
      'Project title must have at most 1 item.',
    ],
    ['minimum', { keyword: 'minimum', params: { limit: 0 } }, 'Project title must be at least 0.'],
    ['maximum', { keyword: 'maximum', params: { limit: 10 } }, 'Project title must be at most 10.'],
    [
      'exclusiveMinimum',
      { keyword: 'exclusiveMinimum', params: { limit: 0 } },
      'Project title must be more than 0.',
    ],
    [
      'exclusiveMaximum',
      { keyword: 'exclusiveMaximum', params: { limit: 5 } },
      'Project title must be less than 5.',
    ],
    [
      'multipleOf',
      { keyword: 'multipleOf', params: { multipleOf: 0.5 } },
      'Project title must be a multiple of 0.5.',
    ],
    ['pattern', { keyword: 'pattern', params: {} }, 'Project title is not in the expected format.'],
    [
      'format',
      { keyword: 'format', params: { format: 'email' } },
      'Project title must be an email address.',
    ],
    [
      'an unknown format',
      { keyword: 'format', params: { format: 'ipv4' } },
      'Project title must be in the ipv4 format.',
    ],
    [
      'uniqueItems',
      { keyword: 'uniqueItems', params: { i: 2, j: 0 } },
      'Project title must not repeat an item: items 1 and 3 are the same.',
    ],
    [
      'dependencies',
      { keyword: 'dependencies', params: { missingProperty: 'end', property: 'start' } },
      'end is required when start is given.',
    ],
    ['oneOf', { keyword: 'oneOf', params: {} }, 'Project title must match one of its options.'],
    [
      'additionalProperties',
      { keyword: 'additionalProperties', params: { additionalProperty: 'extra' } },
      'Project title has an answer the form does not ask for: extra.',
    ],
    [
      "a keyword without wording of its own, in the validator's words",
      { keyword: 'if', params: {}, message: 'must match "then" schema' },
      'Project title must match "then" schema.',
    ],
  ])('%s', (_name, error, expected) => {
    expect(answerErrorMessage(error, label)).toBe(expected);
  });
});
