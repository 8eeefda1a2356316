import { describe, expect, it } from 'vitest';
import type { EntryVersion } from '@merit/contract';
import {
  checkAnswers,
  draftReducer,
  draftsFromServer,
  editorForms,
  isEntryDirty,
  isFormDirty,
  needsSaving,
  serverErrors,
  type DraftState,
  type Entry,
} from './editor-state';

const forms = editorForms([
  {
    id: 1,
    display_name: 'Project Details',
    type: 0,
    jsonSchema: {
      type: 'object',
      properties: {
        title: { type: 'string' },
        hours: { type: 'integer', default: 8 },
      },
    },
    uiSchema: {},
    initialData: null,
  },
  {
    id: 3,
    display_name: 'Team Members',
    type: 1,
    jsonSchema: { type: 'object', properties: { full_name: { type: 'string' } } },
    uiSchema: {},
    initialData: { full_name: '' },
  },
]);
const [details, team] = [forms[0]!, forms[1]!];

describe('the editor’s drafts', () => {
  it('starts a form nothing was saved to from its initial data, with its defaults, unchanged', () => {
    const state = draftsFromServer(forms, {});
    expect(state[1]!.entries).toMatchObject([{ stored: false, draft: { hours: 8 } }]);
    expect(state[3]!.entries).toMatchObject([{ stored: false, draft: { full_name: '' } }]);
    expect(isFormDirty(state[1]!)).toBe(false);
    // Never saved: a save sends it even unchanged.
    expect(needsSaving(state[1]!.entries[0]!)).toBe(true);
  });

  it('holds a multi-entry form’s saved entries in order', () => {
    const state = draftsFromServer(forms, {
      '3': [{ full_name: 'Vera Rubin' }, { full_name: 'Fritz Zwicky' }],
    });
    expect(state[3]!.entries.map((item) => item.draft.full_name)).toEqual([
      'Vera Rubin',
      'Fritz Zwicky',
    ]);
    expect(state[3]!.entries.every((item) => item.stored && !needsSaving(item))).toBe(true);
  });

  it('counts an entry added, or a field typed into and emptied again, as it is', () => {
    let state: DraftState = draftsFromServer(forms, { '1': { title: 'Axions', hours: 8 } });
    state = draftReducer(state, { type: 'add', form: team });
    expect(isFormDirty(state[3]!)).toBe(true);

    const key = state[1]!.entries[0]!.key;
    state = draftReducer(state, {
      type: 'change',
      form: details,
      key,
      answers: { title: 'Axions', hours: 8, extra: undefined },
      validate: true,
    });
    expect(isFormDirty(state[1]!)).toBe(false);
  });

  it('keeps unsaved work when the proposal loads again, offers what changed, takes the rest', () => {
    let state: DraftState = draftsFromServer(forms, {});
    const key = state[1]!.entries[0]!.key;
    state = draftReducer(state, {
      type: 'change',
      form: details,
      key,
      answers: { title: 'Mine', hours: 8 },
      validate: true,
    });
    state = draftReducer(state, {
      type: 'load',
      forms,
      responses: { '1': { title: 'Theirs', hours: 8 }, '3': [{ full_name: 'Vera Rubin' }] },
    });
    expect(state[1]!.entries[0]!.draft).toEqual({ title: 'Mine', hours: 8 });
    // Without versions (a review's forms), other saved answers than those it started from.
    expect(state[1]!.entries[0]!.conflict).toMatchObject({ theirs: { title: 'Theirs', hours: 8 } });
    expect(state[3]!.entries[0]).toMatchObject({
      stored: true,
      draft: { full_name: 'Vera Rubin' },
      conflict: null,
    });
  });

  it('clears an entry’s errors as they are fixed, while checks are on', () => {
    const checked = editorForms([
      {
        id: 5,
        display_name: 'Abstract',
        type: 0,
        jsonSchema: {
          type: 'object',
          required: ['text'],
          properties: { text: { type: 'string', title: 'Text' } },
        },
        uiSchema: {},
        initialData: null,
      },
    ])[0]!;
    let state = draftsFromServer([checked], {});
    const key = state[5]!.entries[0]!.key;
    state = draftReducer(state, {
      type: 'refused',
      formId: 5,
      key,
      errors: serverErrors({ text: ['Text is required.'] }),
    });
    state = draftReducer(state, {
      type: 'change',
      form: checked,
      key,
      answers: { text: 'Dark matter' },
      validate: true,
    });
    expect(state[5]!.entries[0]!.errors).toBeNull();
    // The tab still says the last save failed, until a save succeeds.
    expect(state[5]!.failed).toBe(true);
  });
});

const ID = {
  details: '00000000-0000-4000-8000-000000000001',
  vera: '00000000-0000-4000-8000-000000000002',
  fritz: '00000000-0000-4000-8000-000000000003',
};

const saved = (entryId: string, version: number, savedBy = 'Ada Lovelace'): EntryVersion => ({
  entryId,
  version,
  savedBy,
  savedAt: '2026-03-03T13:45:00.000Z',
});

/** Details (title Axions) and a team of Vera Rubin, each at version 1. */
function savedProposal(): DraftState {
  return draftsFromServer(
    forms,
    { '1': { title: 'Axions', hours: 8 }, '3': [{ full_name: 'Vera Rubin' }] },
    { '1': [saved(ID.details, 1)], '3': [saved(ID.vera, 1)] },
  );
}

const only = (state: DraftState, formId: number): Entry => state[formId]!.entries[0]!;

function type(state: DraftState, formId: number, answers: Record<string, unknown>) {
  const form = formId === 1 ? details : team;
  return draftReducer(state, {
    type: 'change',
    form,
    key: only(state, formId).key,
    answers,
    validate: false,
  });
}

describe('answers loaded again', () => {
  it('replace an unchanged form at once, with its new version', () => {
    const state = draftReducer(savedProposal(), {
      type: 'load',
      forms,
      responses: { '1': { title: 'Comet dust', hours: 8 }, '3': [{ full_name: 'Vera Rubin' }] },
      entries: { '1': [saved(ID.details, 2, 'Grace Hopper')], '3': [saved(ID.vera, 1)] },
    });
    expect(only(state, 1)).toMatchObject({
      entryId: ID.details,
      version: 2,
      draft: { title: 'Comet dust', hours: 8 },
      conflict: null,
    });
    expect(isFormDirty(state[1]!)).toBe(false);
  });

  it('are offered for a changed form, naming who saved them and when, and keep its answers', () => {
    const typed = type(savedProposal(), 1, { title: 'Mine', hours: 8 });
    const state = draftReducer(typed, {
      type: 'load',
      forms,
      responses: { '1': { title: 'Comet dust', hours: 8 }, '3': [{ full_name: 'Vera Rubin' }] },
      entries: { '1': [saved(ID.details, 2, 'Grace Hopper')], '3': [saved(ID.vera, 1)] },
    });
    expect(only(state, 1)).toMatchObject({
      version: 1,
      draft: { title: 'Mine', hours: 8 },
      conflict: {
        theirs: { title: 'Comet dust', hours: 8 },
        entryId: ID.details,
        version: 2,
        savedBy: 'Grace Hopper',
        savedAt: '2026-03-03T13:45:00.000Z',
      },
    });
    // The other form, unchanged here, is the same objects: nothing rebuilt under the cursor.
    expect(state[3]).toBe(typed[3]);
  });

  it('are no conflict when they are the version the answers started from, or older', () => {
    const typed = type(savedProposal(), 1, { title: 'Mine', hours: 8 });
    const state = draftReducer(typed, {
      type: 'load',
      forms,
      responses: { '1': { title: 'Axions', hours: 8 }, '3': [{ full_name: 'Vera Rubin' }] },
      entries: { '1': [saved(ID.details, 1)], '3': [saved(ID.vera, 1)] },
    });
    expect(state[1]).toBe(typed[1]);
    expect(state[3]).toBe(typed[3]);
  });

  it('pair a multi-entry form’s entries by id: an added one joins, a deleted clean one goes', () => {
    const state = draftReducer(savedProposal(), {
      type: 'load',
      forms,
      responses: { '1': { title: 'Axions', hours: 8 }, '3': [{ full_name: 'Fritz Zwicky' }] },
      entries: { '1': [saved(ID.details, 1)], '3': [saved(ID.fritz, 1, 'Grace Hopper')] },
    });
    expect(state[3]!.entries.map((item) => [item.entryId, item.draft.full_name])).toEqual([
      [ID.fritz, 'Fritz Zwicky'],
    ]);
  });

  it('offer a changed entry someone deleted as a conflict, and keep an unsaved one', () => {
    let state = type(savedProposal(), 3, { full_name: 'Vera C. Rubin' });
    state = draftReducer(state, { type: 'add', form: team });
    state = draftReducer(state, {
      type: 'load',
      forms,
      responses: { '1': { title: 'Axions', hours: 8 }, '3': [] },
      entries: { '1': [saved(ID.details, 1)], '3': [] },
    });
    expect(state[3]!.entries).toMatchObject([
      { entryId: ID.vera, draft: { full_name: 'Vera C. Rubin' }, conflict: { theirs: null } },
      { entryId: null, stored: false, conflict: null },
    ]);
  });
});

describe('a conflict', () => {
  function conflicted(): DraftState {
    const state = type(savedProposal(), 1, { title: 'Mine', hours: 8 });
    return draftReducer(state, {
      type: 'conflict',
      formId: 1,
      key: only(state, 1).key,
      conflict: {
        theirs: { title: 'Theirs', hours: 8 },
        entryId: ID.details,
        version: 3,
        savedBy: 'Grace Hopper',
        savedAt: '2026-03-03T13:45:00.000Z',
      },
    });
  }

  it('kept mine: the answers stay, and the next save writes over the version saved now', () => {
    const state = conflicted();
    const kept = draftReducer(state, { type: 'keepMine', formId: 1, key: only(state, 1).key });
    expect(only(kept, 1)).toMatchObject({
      entryId: ID.details,
      version: 3,
      draft: { title: 'Mine', hours: 8 },
      baseline: { title: 'Theirs', hours: 8 },
      conflict: null,
    });
    expect(needsSaving(only(kept, 1))).toBe(true);
  });

  it('taken theirs: the saved answers replace mine, and nothing is left to save', () => {
    const state = conflicted();
    const taken = draftReducer(state, {
      type: 'takeTheirs',
      form: details,
      key: only(state, 1).key,
    });
    expect(only(taken, 1)).toMatchObject({
      version: 3,
      draft: { title: 'Theirs', hours: 8 },
      conflict: null,
    });
    expect(isEntryDirty(only(taken, 1))).toBe(false);
  });

  it('is settled by a save of this editor’s that came after it', () => {
    const state = conflicted();
    const after = draftReducer(state, {
      type: 'saved',
      formId: 1,
      key: only(state, 1).key,
      answers: { title: 'Mine', hours: 8 },
      entryId: ID.details,
      version: 4,
    });
    expect(only(after, 1)).toMatchObject({ version: 4, conflict: null });
  });

  it('is none when what is saved now is what was typed', () => {
    const state = type(savedProposal(), 1, { title: 'Same', hours: 8 });
    const after = draftReducer(state, {
      type: 'conflict',
      formId: 1,
      key: only(state, 1).key,
      conflict: {
        theirs: { title: 'Same', hours: 8 },
        entryId: ID.details,
        version: 2,
        savedBy: 'Grace Hopper',
        savedAt: null,
      },
    });
    expect(only(after, 1)).toMatchObject({ version: 2, conflict: null });
    expect(isEntryDirty(only(after, 1))).toBe(false);
  });
});

describe('restored local drafts', () => {
  it('go back into their entries as unsaved changes when they started from the saved version', () => {
    const state = draftReducer(savedProposal(), {
      type: 'restore',
      forms,
      drafts: [
        { formId: 1, entry: ID.details, data: { title: 'Typed', hours: 8 }, baseVersion: 1 },
      ],
    });
    expect(only(state, 1)).toMatchObject({ draft: { title: 'Typed', hours: 8 }, conflict: null });
    expect(isFormDirty(state[1]!)).toBe(true);
  });

  it('come back as a conflict when someone saved the entry since', () => {
    const state = draftReducer(
      draftsFromServer(
        forms,
        { '1': { title: 'Comet dust', hours: 8 } },
        { '1': [saved(ID.details, 2, 'Grace Hopper')] },
      ),
      {
        type: 'restore',
        forms,
        drafts: [
          { formId: 1, entry: ID.details, data: { title: 'Typed', hours: 8 }, baseVersion: 1 },
        ],
        entries: { '1': [saved(ID.details, 2, 'Grace Hopper')] },
      },
    );
    expect(only(state, 1)).toMatchObject({
      draft: { title: 'Typed', hours: 8 },
      conflict: { theirs: { title: 'Comet dust', hours: 8 }, version: 2, savedBy: 'Grace Hopper' },
    });
  });

  it('add the new entries of a multi-entry form under their own names', () => {
    const state = draftReducer(draftsFromServer(forms, {}), {
      type: 'restore',
      forms,
      drafts: [
        { formId: 3, entry: 'new-1', data: { full_name: 'Henrietta Leavitt' }, baseVersion: null },
      ],
    });
    // The untouched first entry gives way.
    expect(state[3]!.entries).toMatchObject([
      { clientId: 'new-1', stored: false, draft: { full_name: 'Henrietta Leavitt' } },
    ]);
  });
});

describe('checkAnswers', () => {
  const [withFile] = editorForms([
    {
      id: 6,
      display_name: 'Documents',
      type: 0,
      jsonSchema: {
        type: 'object',
        required: ['cv'],
        properties: {
          cv: { type: 'string', format: 'data-url', title: 'CV (PDF)' },
          budget: { type: 'string', title: 'Budget' },
        },
      },
      uiSchema: { budget: { 'ui:widget': 'file' } },
      initialData: null,
    },
  ]);

  it.each([
    ['file ids in both file fields', { cv: '12', budget: '13' }, true],
    ['a file id and an empty optional field', { cv: '12' }, true],
    ['no file in a required field', {}, false],
    ['a data URL where a file id belongs', { cv: 'data:application/pdf;base64,JVBERi0=' }, false],
    ['text in a file field', { cv: '12', budget: 'see attached' }, false],
  ])('takes %s: %s', (_case, answers, valid) => {
    expect(checkAnswers(withFile!, answers) === null).toBe(valid);
  });
});

describe('serverErrors', () => {
  it('puts each message on the field its path names, and the form’s own at the top', () => {
    expect(
      serverErrors({
        'members.0.email': ['Email must be an email address.'],
        title: ['Too long.', 'Not allowed.'],
        non_field_errors: ['This form must be a group of answers.'],
      }),
    ).toEqual({
      schema: {
        members: { 0: { email: { __errors: ['Email must be an email address.'] } } },
        title: { __errors: ['Too long.', 'Not allowed.'] },
        __errors: ['This form must be a group of answers.'],
      },
      messages: [
        'Email must be an email address.',
        'Too long.',
        'Not allowed.',
        'This form must be a group of answers.',
      ],
    });
  });
});
