import type { ErrorTransformer, RJSFValidationError } from '@rjsf/utils';

/**
 * The validator's errors in words for the person filling in a form. The validator speaks
 * ajv's language (`must have required property 'Project title'`), as the server does and
 * as the builder's schema checks quote it; people answering a form get `Project title is
 * required.`
 * Every form rendered from a schema with `formValidator` (the builder's preview, and the
 * proposal and review editors to come) passes this as its `transformErrors`, so they all
 * say it the same way.
 */
export const readableErrors: ErrorTransformer = (errors) =>
  errors.map((error) => {
    const message = readableMessage(error);
    // `message` shows under the field, `stack` in the list above the form.
    return { ...error, message, stack: message };
  });

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a group of answers',
  null: 'empty',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'an email address',
  uri: 'a web address (URL)',
  url: 'a web address (URL)',
  date: 'a date',
  'date-time': 'a date and time',
  time: 'a time',
  'data-url': 'a file',
};

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * What the field is called: its title (the UI schema's or the schema's, which rjsf has
 * found already), else its key; an item of a list is named by its position.
 */
function labelOf(error: RJSFValidationError): string {
  if (error.title) return error.title;
  const segments = (error.property ?? '').split('.').filter(Boolean);
  const last = segments.at(-1);
  if (last === undefined) return 'This form';
  if (!/^\d+$/.test(last)) return last;
  const list = segments.at(-2);
  const item = `Item ${Number(last) + 1}`;
  return list === undefined ? item : `${item} of ${list}`;
}

/** One error (ajv's keyword and params, as rjsf passes them on) as a sentence. */
export function readableMessage(error: RJSFValidationError): string {
  const label = labelOf(error);
  const params = (error.params ?? {}) as Record<string, unknown>;
  const limit = Number(params.limit);
  switch (error.name) {
    case 'required':
      return `${label} is required.`;
    case 'type': {
      const types = String(params.type).split(',');
      return `${label} must be ${types.map((type) => TYPE_WORDS[type] ?? type).join(' or ')}.`;
    }
    case 'enum':
      return `${label} must be one of the listed choices.`;
    case 'const':
      return `${label} must be ${JSON.stringify(params.allowedValue)}.`;
    case 'minLength':
      return limit === 1
        ? `${label} must not be empty.`
        : `${label} must be at least ${plural(limit, 'character')} long.`;
    case 'maxLength':
      return `${label} must be at most ${plural(limit, 'character')} long.`;
    case 'minItems':
      return `${label} must have at least ${plural(limit, 'item')}.`;
    case 'maxItems':
      return `${label} must have at most ${plural(limit, 'item')}.`;
    case 'minimum':
      return `${label} must be at least ${limit}.`;
    case 'maximum':
      return `${label} must be at most ${limit}.`;
    case 'exclusiveMinimum':
      return `${label} must be more than ${limit}.`;
    case 'exclusiveMaximum':
      return `${label} must be less than ${limit}.`;
    case 'multipleOf':
      return `${label} must be a multiple of ${String(params.multipleOf)}.`;
    case 'pattern':
      return `${label} is not in the expected format.`;
    case 'format': {
      const format = String(params.format);
      return `${label} must be ${FORMAT_WORDS[format] ?? `in the ${format} format`}.`;
    }
    case 'uniqueItems':
      // ajv counts items from 0, the later one first.
      return `${label} must not repeat an item: items ${Number(params.j) + 1} and ${Number(params.i) + 1} are the same.`;
    case 'dependencies':
      return `${String(params.missingProperty)} is required when ${String(params.property)} is given.`;
    case 'anyOf':
    case 'oneOf':
      return `${label} must match one of its options.`;
    case 'contains':
      return `${label} must contain at least one valid item.`;
    case 'additionalProperties':
      return `${label} has an answer the form does not ask for: ${String(params.additionalProperty)}.`;
    default:
      // A rule with no wording of its own: the validator's words, after the field's name.
      return `${label} ${error.message ?? 'is not valid'}.`;
  }
}
