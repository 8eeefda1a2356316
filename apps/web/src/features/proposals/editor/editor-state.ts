import type { ProposalDetail } from '@merit/contract';
import { answerSchema, isFormType, isMultiForm } from '@merit/domain';
import {
  deepEquals,
  getDefaultFormState,
  type ErrorSchema,
  type RJSFSchema,
  type UiSchema,
} from '@rjsf/utils';
import { readableErrors } from '../../forms/json-schema/error-messages';
import { formValidator } from '../../forms/json-schema/rjsf-validator';

/** One form's answers: the data object react-jsonschema-form edits. */
export type Answers = Record<string, unknown>;

/** A form of the proposal's type, as the editor shows it. */
export interface EditorForm {
  id: number;
  /** The form's display name: its tab's label. */
  name: string;
  /** Takes any number of entries (types 1 and 5), each saved at its own index. */
  multi: boolean;
  schema: RJSFSchema;
  uiSchema: UiSchema;
  /**
   * The schema the answers are checked against: the form's own, except that a file field
   * holds the id of an uploaded file, not the data URL its format names (spec section 3).
   */
  answerSchema: RJSFSchema;
  /** What a new entry starts from: the form's initial data. */
  initial: Answers;
}

/** The answers that stop an entry from being saved, on its fields and as a list. */
export interface EntryErrors {
  schema: ErrorSchema;
  messages: string[];
}

export interface Entry {
  /** Names the entry to React while the entries around it come and go. */
  key: number;
  /** The server holds this entry, at its position among the form's entries. */
  stored: boolean;
  /** What the entry held when it was loaded or last saved; null for one added since. */
  baseline: Answers | null;
  draft: Answers;
  errors: EntryErrors | null;
}

export interface FormDraft {
  entries: Entry[];
  /** Its last save failed on its answers: its tab says so until it saves. */
  failed: boolean;
}

/** The editor's forms by id. */
export type DraftState = Record<number, FormDraft>;

const isAnswers = (value: unknown): value is Answers =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The proposal type's forms in the call's order, ready for the editor. */
export function editorForms(
  forms: readonly {
    id: number;
    display_name: string;
    type: number;
    jsonSchema: Record<string, unknown>;
    uiSchema: Record<string, unknown>;
    initialData: unknown;
  }[],
): EditorForm[] {
  return forms.map((form) => ({
    id: form.id,
    name: form.display_name,
    multi: isFormType(form.type) && isMultiForm(form.type),
    schema: form.jsonSchema as RJSFSchema,
    uiSchema: form.uiSchema as UiSchema,
    answerSchema: answerSchema(form.jsonSchema, form.uiSchema) as RJSFSchema,
    initial: isAnswers(form.initialData) ? form.initialData : {},
  }));
}

/**
 * The answers with the schema's defaults filled in, as react-jsonschema-form fills them
 * when it renders: done here first, so that opening a form does not count as a change.
 */
function withDefaults(form: EditorForm, answers: Answers): Answers {
  const filled: unknown = getDefaultFormState(formValidator, form.schema, answers, form.schema);
  return isAnswers(filled) ? filled : answers;
}

let nextKey = 1;

function entry(form: EditorForm, answers: Answers, stored: boolean): Entry {
  const data = withDefaults(form, answers);
  return { key: nextKey++, stored, baseline: data, draft: data, errors: null };
}

/**
 * A form as the server holds it: its saved entries, or one entry of the form's initial
 * data when nothing is saved yet.
 */
export function formFromServer(form: EditorForm, response: unknown): FormDraft {
  const saved = (Array.isArray(response) ? response : [response]).filter(isAnswers);
  const entries =
    saved.length > 0
      ? saved.map((answers) => entry(form, answers, true))
      : [entry(form, form.initial, false)];
  return { entries, failed: false };
}

export function draftsFromServer(
  forms: readonly EditorForm[],
  responses: ProposalDetail['responses'],
): DraftState {
  return Object.fromEntries(
    forms.map((form) => [form.id, formFromServer(form, responses[String(form.id)])]),
  );
}

/**
 * Answers compare as JSON, which is what is sent: a field typed into and emptied again
 * (left `undefined` by the form) is no change.
 */
function sameAnswers(a: Answers, b: Answers): boolean {
  return deepEquals(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
}

/** Two forms hold the same entries, stored alike. */
function sameForm(a: FormDraft, b: FormDraft): boolean {
  return (
    a.entries.length === b.entries.length &&
    a.entries.every((item, index) => {
      const other = b.entries[index]!;
      return (
        item.stored === other.stored &&
        item.baseline !== null &&
        other.baseline !== null &&
        sameAnswers(item.baseline, other.baseline)
      );
    })
  );
}

export const isEntryDirty = (item: Entry) =>
  item.baseline === null || !sameAnswers(item.draft, item.baseline);

/** The form has changes that are not saved. */
export const isFormDirty = (draft: FormDraft) => draft.entries.some(isEntryDirty);

/** The tab holds answers that stopped a save. */
export const hasFormErrors = (draft: FormDraft) =>
  draft.failed || draft.entries.some((item) => item.errors !== null);

/** An entry the server lacks or holds differently: one a save sends. */
export const needsSaving = (item: Entry) => !item.stored || isEntryDirty(item);

/**
 * The entry's answers checked against its form's schema, as the server will check them
 * (the same rules; the words are the readable ones the form builder's preview shows).
 */
export function checkAnswers(form: EditorForm, answers: Answers): EntryErrors | null {
  const { errors, errorSchema } = formValidator.validateFormData(
    answers,
    form.answerSchema,
    undefined,
    readableErrors,
    form.uiSchema,
  );
  if (errors.length === 0) return null;
  return { schema: errorSchema, messages: [...new Set(errors.map((error) => error.stack))] };
}

/** The server's key for what is wrong with the answers as a whole (its `NON_FIELD`). */
const WHOLE_FORM = 'non_field_errors';

/**
 * The server's `fields` of a refused save (keyed by each failing property's path,
 * `a.b.0.c`, or `non_field_errors` for the answers as a whole) as errors on the form's
 * fields.
 */
export function serverErrors(fields: Record<string, string[]>): EntryErrors {
  const schema: Record<string, unknown> = {};
  for (const [path, messages] of Object.entries(fields)) {
    let node = schema;
    const segments = path === WHOLE_FORM ? [] : path.split('.').filter(Boolean);
    for (const segment of segments) {
      node = (node[segment] ??= {}) as Record<string, unknown>;
    }
    node.__errors = [...((node.__errors as string[] | undefined) ?? []), ...messages];
  }
  return {
    schema: schema as ErrorSchema,
    messages: Object.values(fields).flat(),
  };
}

export type DraftAction =
  /** New answers from the server: forms without unsaved changes take them. */
  | { type: 'load'; forms: readonly EditorForm[]; responses: ProposalDetail['responses'] }
  | { type: 'change'; form: EditorForm; key: number; answers: Answers; validate: boolean }
  | { type: 'add'; form: EditorForm }
  | { type: 'remove'; formId: number; key: number }
  | { type: 'refused'; formId: number; key: number | null; errors: EntryErrors | null }
  | { type: 'saved'; formId: number; key: number; answers: Answers }
  | { type: 'formSaved'; formId: number };

function updateForm(
  state: DraftState,
  formId: number,
  change: (draft: FormDraft) => FormDraft,
): DraftState {
  const draft = state[formId];
  return draft ? { ...state, [formId]: change(draft) } : state;
}

function updateEntry(
  state: DraftState,
  formId: number,
  key: number,
  change: (item: Entry) => Entry,
): DraftState {
  return updateForm(state, formId, (draft) => ({
    ...draft,
    entries: draft.entries.map((item) => (item.key === key ? change(item) : item)),
  }));
}

export function draftReducer(state: DraftState, action: DraftAction): DraftState {
  switch (action.type) {
    case 'load':
      return Object.fromEntries(
        action.forms.map((form) => {
          const current = state[form.id];
          const loaded = formFromServer(form, action.responses[String(form.id)]);
          // Unsaved work and the errors to fix in it stay; so does a form the server holds
          // as shown, whose fields would otherwise be rebuilt under the cursor.
          const keep =
            current &&
            (isFormDirty(current) || hasFormErrors(current) || sameForm(current, loaded));
          return [form.id, keep ? current : loaded];
        }),
      );
    case 'change':
      return updateEntry(state, action.form.id, action.key, (item) => ({
        ...item,
        draft: action.answers,
        // Errors shown clear as each is fixed, rather than staying until the next save.
        errors: item.errors && action.validate ? checkAnswers(action.form, action.answers) : null,
      }));
    case 'add':
      return updateForm(state, action.form.id, (draft) => ({
        ...draft,
        entries: [
          ...draft.entries,
          { ...entry(action.form, action.form.initial, false), baseline: null },
        ],
      }));
    case 'remove':
      return updateForm(state, action.formId, (draft) => ({
        ...draft,
        entries: draft.entries.filter((item) => item.key !== action.key),
      }));
    case 'refused':
      return updateForm(state, action.formId, (draft) => ({
        failed: true,
        entries: draft.entries.map((item) =>
          item.key === action.key ? { ...item, errors: action.errors } : item,
        ),
      }));
    case 'saved':
      return updateEntry(state, action.formId, action.key, (item) => ({
        ...item,
        stored: true,
        baseline: action.answers,
        errors: null,
      }));
    case 'formSaved':
      return updateForm(state, action.formId, (draft) => ({ ...draft, failed: false }));
  }
}
