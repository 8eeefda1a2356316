/**
 * A JSON Schema validator's complaint about one answer, in words for the person filling
 * in the form. Validators speak ajv's language (`must have required property 'title'`);
 * people get `Project title is required.` The browser (rjsf, apps/web
 * json-schema/error-messages.ts) and the server (saving and submitting a proposal) both
 * word them here, so a form says the same thing whichever side refused it.
 */
export interface AnswerError {
  /** The schema keyword that failed: `required`, `type`, `maxLength`... */
  keyword: string;
  /** ajv's params for that keyword (`limit`, `missingProperty`, `format`...). */
  params: Record<string, unknown>;
  /** The validator's own message, used for keywords without wording of their own. */
  message?: string;
}

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
 * What a field is called when its schema gives it no title: its key; an item of a list
 * is named by its position (`Item 2 of hours`). `path` is the field's place in the
 * answers, `['team', '0', 'name']`.
 */
export function fieldLabel(path: readonly string[], title?: string | null): string {
  if (title) return title;
  const last = path.at(-1);
  if (last === undefined) return 'This form';
  if (!/^\d+$/.test(last)) return last;
  const list = path.at(-2);
  const item = `Item ${Number(last) + 1}`;
  return list === undefined ? item : `${item} of ${list}`;
}

/** One error as a sentence about the field called `label`. */
export function answerErrorMessage(error: AnswerError, label: string): string {
  const { params } = error;
  const limit = Number(params.limit);
  switch (error.keyword) {
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
