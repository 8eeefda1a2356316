import { describe, expect, it } from 'vitest';
import {
  checkAnswers,
  draftReducer,
  draftsFromServer,
  editorForms,
  isFormDirty,
  needsSaving,
  serverErrors,
  type DraftState,
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

  it('keeps unsaved work when the proposal loads again, and takes the server’s for the rest', () => {
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
    expect(state[3]!.entries[0]).toMatchObject({
      stored: true,
      draft: { full_name: 'Vera Rubin' },
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
