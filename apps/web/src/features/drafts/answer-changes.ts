import type { ConflictRow } from './ConflictChoiceDialog';

type Answers = Record<string, unknown>;

/** A form as the comparison reads it: its name, and its schema's field titles. */
export interface ComparedForm {
  name: string;
  schema: { properties?: Record<string, unknown> };
  uiSchema?: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An answer as people read it in a comparison: text as it is, anything else in short. */
export function answerText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '(empty)';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value, null, 1);
}

/** A field's title as its form shows it: the UI schema's, the schema's, or its name. */
function fieldLabel(form: ComparedForm, field: string): string {
  const ui = form.uiSchema?.[field];
  const property = form.schema.properties?.[field];
  const title =
    (isObject(ui) && typeof ui['ui:title'] === 'string' && ui['ui:title']) ||
    (isObject(property) && typeof property.title === 'string' && property.title);
  return title || field;
}

/** Compared as they are sent (JSON): a field left `undefined` is an empty one. */
const same = (a: unknown, b: unknown) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null) ||
  ((a === undefined || a === '') && (b === undefined || b === ''));

/**
 * The fields whose answers differ between the person's and the saved ones, in the form's
 * order (then any others), each labelled "Form: Field" for the conflict choice.
 */
export function answerChanges(form: ComparedForm, mine: Answers, theirs: Answers): ConflictRow[] {
  const order = Object.keys(form.schema.properties ?? {});
  const fields = [...new Set([...order, ...Object.keys(mine), ...Object.keys(theirs)])];
  return fields
    .filter((field) => !same(mine[field], theirs[field]))
    .map((field) => ({
      label: `${form.name}: ${fieldLabel(form, field)}`,
      mine: answerText(mine[field]),
      theirs: answerText(theirs[field]),
    }));
}

/** The person's answers as text for the clipboard (Copy mine): one "Form: Field" a line. */
export function answersText(forms: readonly { form: ComparedForm; answers: Answers }[]): string {
  return forms
    .flatMap(({ form, answers }) =>
      Object.keys({ ...form.schema.properties, ...answers })
        .filter((field) => answers[field] !== undefined)
        .map((field) => `${form.name}: ${fieldLabel(form, field)}\n${answerText(answers[field])}`),
    )
    .join('\n\n');
}

/**
 * Rich text (HTML) as plain text, for a comparison and the clipboard: one line a block.
 * Parsed in a document of its own, where no script runs and no image loads.
 */
export function htmlText(html: string): string {
  const blocks = html.replace(/<\/(p|h[1-6]|li|blockquote)>|<br\s*\/?>/gi, '$&\n');
  const text = new DOMParser().parseFromString(blocks, 'text/html').body.textContent ?? '';
  return text.replace(/\n+$/, '');
}
