import type { EntryVersion, ProposalDetail } from '@merit/contract';
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

/**
 * Someone else saved an entry whose answers the person has changed (or deleted it): what
 * is saved now, until the person chooses between theirs and it.
 */
export interface Conflict {
  /** The answers saved now; null when the entry was deleted. */
  theirs: Answers | null;
  entryId: string | null;
  version: number | null;
  /** Who saved them and when (ISO), as the server says; null when it does not. */
  savedBy: string | null;
  savedAt: string | null;
}

export interface Entry {
  /** Names the entry to React while the entries around it come and go. */
  key: number;
  /** The server holds this entry, at its position among the form's entries. */
  stored: boolean;
  /** The server's id of the saved entry; null until its first save (and for a review). */
  entryId: string | null;
  /** The saved version its answers started from; null when unsaved or unversioned. */
  version: number | null;
  /** Names an entry never saved, among a form's local drafts (features/drafts). */
  clientId: string;
  /** What the entry held when it was loaded or last saved; null for one added since. */
  baseline: Answers | null;
  draft: Answers;
  errors: EntryErrors | null;
  /** Saved by someone else since it was loaded: nothing saves it until the person chooses. */
  conflict: Conflict | null;
}

/** A saved entry's identity, as the proposal lists it (`entries`), by form id. */
export type EntryVersions = Partial<Record<string, readonly EntryVersion[]>>;

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

/** A local name for an entry never saved: random, so drafts of two tabs never meet. */
function newClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `new-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

function entry(
  form: EditorForm,
  answers: Answers,
  saved: Pick<EntryVersion, 'entryId' | 'version'> | null,
  stored = saved !== null,
): Entry {
  const data = withDefaults(form, answers);
  return {
    key: nextKey++,
    stored,
    entryId: saved?.entryId ?? null,
    version: saved?.version ?? null,
    clientId: newClientId(),
    baseline: data,
    draft: data,
    errors: null,
    conflict: null,
  };
}

/** One entry of a form as the server holds it, with its id and version when it says. */
interface ServerEntry {
  answers: Answers;
  saved: EntryVersion | null;
}

function serverEntries(
  form: EditorForm,
  response: unknown,
  versions: readonly EntryVersion[] | undefined,
): ServerEntry[] {
  const saved = (Array.isArray(response) ? response : [response]).filter(isAnswers);
  return saved.map((answers, index) => ({
    answers: withDefaults(form, answers),
    saved: versions?.[index] ?? null,
  }));
}

/**
 * A form as the server holds it: its saved entries, or one entry of the form's initial
 * data when nothing is saved yet.
 */
export function formFromServer(
  form: EditorForm,
  response: unknown,
  versions?: readonly EntryVersion[],
): FormDraft {
  const saved = serverEntries(form, response, versions);
  const entries =
    saved.length > 0
      ? saved.map((item) => entry(form, item.answers, item.saved, true))
      : [entry(form, form.initial, null)];
  return { entries, failed: false };
}

export function draftsFromServer(
  forms: readonly EditorForm[],
  responses: ProposalDetail['responses'],
  versions: EntryVersions = {},
): DraftState {
  return Object.fromEntries(
    forms.map((form) => [
      form.id,
      formFromServer(form, responses[String(form.id)], versions[String(form.id)]),
    ]),
  );
}

/**
 * Answers compare as JSON, which is what is sent: a field typed into and emptied again
 * (left `undefined` by the form) is no change.
 */
function sameAnswers(a: Answers, b: Answers): boolean {
  return deepEquals(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
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

/** A local draft of one entry (features/drafts), as the editor offers it back. */
export interface RestoredDraft {
  formId: number;
  /** The entry's draft name (`draftEntryName`): a saved entry's id, `new`, or a client id. */
  entry: string;
  data: Answers;
  /** The saved version it started from; null for answers never saved. */
  baseVersion: number | null;
}

/**
 * The name of an entry's local draft: a saved entry's id; for a one-entry form with
 * nothing saved yet `new`; for a new entry of a multi-entry form its client id.
 */
export function draftEntryName(form: EditorForm, item: Entry): string {
  return item.entryId ?? (form.multi ? item.clientId : 'new');
}

export type DraftAction =
  /**
   * New answers from the server. Entries without unsaved changes take them; a changed
   * entry that someone else saved (or deleted) meanwhile keeps the person's answers and
   * gets a conflict, for them to choose. `entries` pairs entries by id (proposals); without
   * it they pair by position and answers tell what is new (a review's forms).
   */
  | {
      type: 'load';
      forms: readonly EditorForm[];
      responses: ProposalDetail['responses'];
      entries?: EntryVersions;
    }
  | { type: 'change'; form: EditorForm; key: number; answers: Answers; validate: boolean }
  | { type: 'add'; form: EditorForm }
  | { type: 'remove'; formId: number; key: number }
  | { type: 'refused'; formId: number; key: number | null; errors: EntryErrors | null }
  | {
      type: 'saved';
      formId: number;
      key: number;
      answers: Answers;
      /** The saved entry's id and new version, when the server gives them. */
      entryId?: string;
      version?: number;
    }
  | { type: 'formSaved'; formId: number }
  /** A save was refused as stale: what is saved now. */
  | { type: 'conflict'; formId: number; key: number; conflict: Conflict }
  /** The person keeps their answers: the next save writes them over theirs. */
  | { type: 'keepMine'; formId: number; key: number }
  /** The person takes the saved answers (or the deletion) instead of theirs. */
  | { type: 'takeTheirs'; form: EditorForm; key: number }
  /** Local drafts go back into their entries, as unsaved changes. */
  | {
      type: 'restore';
      forms: readonly EditorForm[];
      drafts: readonly RestoredDraft[];
      entries?: EntryVersions;
    };

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

/**
 * Marks what someone else saved on an entry; answers that are the person's own already
 * are no conflict, and the entry simply takes their id and version.
 */
function withConflict(item: Entry, conflict: Conflict): Entry {
  if (conflict.theirs !== null && sameAnswers(conflict.theirs, item.draft)) {
    return {
      ...item,
      stored: true,
      entryId: conflict.entryId,
      version: conflict.version,
      baseline: conflict.theirs,
      errors: null,
      conflict: null,
    };
  }
  return { ...item, conflict };
}

function conflictFrom(item: ServerEntry | null): Conflict {
  return {
    theirs: item?.answers ?? null,
    entryId: item?.saved?.entryId ?? null,
    version: item?.saved?.version ?? null,
    savedBy: item?.saved?.savedBy ?? null,
    savedAt: item?.saved?.savedAt ?? null,
  };
}

/** What the server holds is newer than what the entry's answers started from. */
function isNewer(local: Entry, item: ServerEntry): boolean {
  if (item.saved) {
    if (local.entryId !== item.saved.entryId || local.version === null) return true;
    return item.saved.version > local.version;
  }
  return !local.stored || local.baseline === null || !sameAnswers(item.answers, local.baseline);
}

/** One saved entry, paired with the entry on screen (if any). */
function mergeEntry(form: EditorForm, local: Entry | undefined, item: ServerEntry): Entry {
  if (!local) return entry(form, item.answers, item.saved, true);
  if (!isNewer(local, item)) return local;
  const saved = {
    stored: true,
    entryId: item.saved?.entryId ?? null,
    version: item.saved?.version ?? null,
  };
  if (!isEntryDirty(local)) {
    return {
      ...local,
      ...saved,
      baseline: item.answers,
      draft: item.answers,
      errors: null,
      conflict: null,
    };
  }
  return withConflict(local, conflictFrom(item));
}

/**
 * A form loaded again: each saved entry paired with the one on screen (by id when the
 * server names them, else by position), then the entries only this page has. A clean
 * entry the server no longer has goes; a changed one is a conflict (deleted).
 */
function loadForm(
  form: EditorForm,
  current: FormDraft | undefined,
  response: unknown,
  versions: readonly EntryVersion[] | undefined,
): FormDraft {
  if (!current) return formFromServer(form, response, versions);
  const saved = serverEntries(form, response, versions);
  const paired = new Set<Entry>();
  const merged = saved.map((item, index) => {
    let local: Entry | undefined;
    if (item.saved) {
      const { entryId } = item.saved;
      local = current.entries.find((candidate) => candidate.entryId === entryId);
      // A one-entry form's first answers, saved elsewhere meanwhile, meet the entry here.
      if (!local && !form.multi) local = current.entries.find((e) => e.entryId === null);
    } else {
      local = current.entries[index];
    }
    if (local) paired.add(local);
    return mergeEntry(form, local, item);
  });
  for (const local of current.entries) {
    if (paired.has(local)) continue;
    const dirty = isEntryDirty(local);
    if (local.entryId === null) {
      // The untouched first entry of a form nothing was saved to gives way to saved ones.
      if (dirty || saved.length === 0) merged.push(local);
    } else if (dirty) {
      merged.push(
        local.conflict?.theirs === null ? local : withConflict(local, conflictFrom(null)),
      );
    }
  }
  if (merged.length === 0) return { ...current, entries: formFromServer(form, undefined).entries };
  const unchanged =
    merged.length === current.entries.length &&
    merged.every((item, index) => item === current.entries[index]);
  return unchanged ? current : { ...current, entries: merged };
}

/** A local draft put back into the entry it was typed into. */
function restoreInto(
  target: Entry,
  draft: RestoredDraft,
  versions: readonly EntryVersion[] | undefined,
): Entry {
  const restored = { ...target, draft: draft.data, errors: null };
  const savedVersion = target.entryId === null ? null : target.version;
  if (draft.baseVersion === savedVersion) return { ...restored, conflict: null };
  // Saved by someone else since the draft was typed: the person chooses.
  const meta = versions?.find((item) => item.entryId === target.entryId);
  return withConflict(restored, {
    theirs: target.stored ? target.baseline : null,
    entryId: target.entryId,
    version: target.version,
    savedBy: meta?.savedBy ?? null,
    savedAt: meta?.savedAt ?? null,
  });
}

function restoreForm(
  form: EditorForm,
  current: FormDraft,
  drafts: readonly RestoredDraft[],
  versions: readonly EntryVersion[] | undefined,
): FormDraft {
  if (drafts.length === 0) return current;
  if (!form.multi) {
    const [first] = current.entries;
    // A one-entry form has one draft; the newest wins should there be two.
    const draft = drafts.at(-1)!;
    return first ? { ...current, entries: [restoreInto(first, draft, versions)] } : current;
  }
  let entries = [...current.entries];
  const added: Entry[] = [];
  for (const draft of drafts) {
    const index = entries.findIndex((item) => item.entryId === draft.entry);
    if (index >= 0) {
      entries[index] = restoreInto(entries[index]!, draft, versions);
      continue;
    }
    const fresh = { ...entry(form, form.initial, null), baseline: null, draft: draft.data };
    added.push(
      draft.baseVersion === null
        ? { ...fresh, clientId: draft.entry }
        : // An entry deleted since its draft was typed.
          withConflict(fresh, conflictFrom(null)),
    );
  }
  // New entries replace the untouched first entry of a form nothing was saved to.
  if (added.length > 0) entries = entries.filter((item) => item.stored || isEntryDirty(item));
  return { ...current, entries: [...entries, ...added] };
}

/** A saved answer replaces the conflict it was the person's choice over. */
function settles(conflict: Conflict, answers: Answers, version: number | undefined): boolean {
  if (version !== undefined && conflict.version !== null) return conflict.version <= version;
  return conflict.theirs !== null && sameAnswers(conflict.theirs, answers);
}

export function draftReducer(state: DraftState, action: DraftAction): DraftState {
  switch (action.type) {
    case 'load':
      return Object.fromEntries(
        action.forms.map((form) => [
          form.id,
          loadForm(
            form,
            state[form.id],
            action.responses[String(form.id)],
            action.entries?.[String(form.id)],
          ),
        ]),
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
          { ...entry(action.form, action.form.initial, null), baseline: null },
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
        entryId: action.entryId ?? item.entryId,
        version: action.version ?? item.version,
        baseline: action.answers,
        errors: null,
        conflict:
          item.conflict && settles(item.conflict, action.answers, action.version)
            ? null
            : item.conflict,
      }));
    case 'formSaved':
      return updateForm(state, action.formId, (draft) => ({ ...draft, failed: false }));
    case 'conflict':
      return updateEntry(state, action.formId, action.key, (item) =>
        withConflict(item, action.conflict),
      );
    case 'keepMine':
      return updateEntry(state, action.formId, action.key, (item) => {
        const { conflict } = item;
        if (!conflict) return item;
        const gone = conflict.theirs === null;
        // Theirs becomes what the answers start from, so a save writes over that version;
        // a deleted entry is saved again as a new one.
        return {
          ...item,
          stored: !gone,
          entryId: gone ? null : conflict.entryId,
          version: gone ? null : conflict.version,
          baseline: conflict.theirs,
          conflict: null,
        };
      });
    case 'takeTheirs':
      return updateForm(state, action.form.id, (draft) => {
        const conflict = draft.entries.find((item) => item.key === action.key)?.conflict;
        if (!conflict) return draft;
        const { theirs } = conflict;
        if (theirs === null) {
          const entries = draft.entries.filter((item) => item.key !== action.key);
          return {
            ...draft,
            entries: entries.length > 0 ? entries : formFromServer(action.form, undefined).entries,
          };
        }
        return {
          ...draft,
          entries: draft.entries.map((item) =>
            item.key === action.key
              ? {
                  ...item,
                  stored: true,
                  entryId: conflict.entryId,
                  version: conflict.version,
                  baseline: theirs,
                  draft: theirs,
                  errors: null,
                  conflict: null,
                }
              : item,
          ),
        };
      });
    case 'restore':
      return Object.fromEntries(
        action.forms.map((form) => {
          const current = state[form.id];
          const drafts = action.drafts.filter((draft) => draft.formId === form.id);
          return [
            form.id,
            current
              ? restoreForm(form, current, drafts, action.entries?.[String(form.id)])
              : current,
          ];
        }),
      ) as DraftState;
  }
}
