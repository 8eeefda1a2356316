import type { Form } from '@merit/contract';
import { formMessages, messages } from '@merit/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { adminUser, makeFormName } from '../../test/admin-fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

// CodeMirror needs layout that jsdom lacks; the editor's contract (a labelled text that
// reports changes) is what the page relies on, so a textarea stands in for it.
vi.mock('./JsonEditor', () => ({
  JSON_EDITOR_HEIGHT: '400px',
  JsonEditor: (props: {
    label: string;
    value: string;
    onChange: (value: string) => void;
    error?: string | null;
  }) => (
    <div>
      <textarea
        aria-label={props.label}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.error && <p>{props.error}</p>}
    </div>
  ),
}));

const scores = makeFormName();
const proposal = makeFormName({ id: 12, name: 'project', display_name: 'Project', type: 0 });
const scoreSchema = {
  type: 'object',
  required: ['merit'],
  properties: {
    merit: { type: 'integer', title: 'Merit', minimum: 0, maximum: 10 },
    comment: { type: 'string', title: 'Comment' },
  },
};
const savedForm: Form = {
  id: 31,
  name: scores.id,
  display_name: scores.display_name,
  type: 3,
  version: '1',
  jsonSchema: scoreSchema,
  uiSchema: {},
  initialData: null,
  options: { method: 'average', fields: ['merit'] },
  isUsed: false,
};

function formServer(answers: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /user_details/': { body: adminUser },
    'GET /form_names/': { body: [scores, proposal] },
    'POST /forms/': { status: 201, body: savedForm },
    'GET /forms/?id=31': { body: savedForm },
    ...answers,
  });
}

function typeInto(label: string, text: string) {
  fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value: text } });
}

async function openNewForm(answers?: Parameters<typeof stubApi>[0]) {
  const fetchStub = formServer(answers);
  const app = renderApp('/forms/new', { token: 'k' });
  await screen.findByRole('heading', { name: 'New Form' }, AFTER_NAVIGATION);
  fireEvent.change(screen.getByLabelText(/^Form name/), { target: { value: '11' } });
  fireEvent.change(screen.getByLabelText(/^Version/), { target: { value: '1' } });
  return { fetchStub, app, user: userEvent.setup() };
}

describe('form editor', () => {
  it('refuses to save a schema with a JSON syntax error, before sending it', async () => {
    const { fetchStub, user } = await openNewForm();
    typeInto('JSON Schema', '{ "type": "object", "properties": { }');

    await user.click(screen.getByRole('button', { name: 'Create form' }));

    const errors = await screen.findByRole('alert');
    expect(errors).toHaveTextContent(formMessages.notSaved);
    expect(errors).toHaveTextContent('JSON Schema: This is not valid JSON');
    expect(apiCalls(fetchStub)).not.toContain('POST /forms/');
    // The preview says why it shows nothing, in the spec's words.
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(preview).toHaveTextContent(/^PreviewThere is an error in the schema, /);
  });

  it('refuses a schema that is JSON but not valid JSON Schema, naming the problem', async () => {
    const { fetchStub, user } = await openNewForm();
    typeInto(
      'JSON Schema',
      JSON.stringify({ type: 'object', properties: { merit: { type: 'integr' } } }),
    );

    const preview = screen.getByRole('region', { name: 'Preview' });
    await waitFor(() =>
      expect(preview).toHaveTextContent(
        'There is an error in the schema, schema is invalid: data/properties/merit/type must be equal to one of the allowed values',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Create form' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(formMessages.notSaved);
    expect(apiCalls(fetchStub)).not.toContain('POST /forms/');
  });

  it('previews a valid schema and saves it with the chosen options', async () => {
    const { fetchStub, app, user } = await openNewForm();
    typeInto('JSON Schema', JSON.stringify(scoreSchema));

    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(await within(preview).findByLabelText(/^Merit/)).toBeInTheDocument();
    expect(within(preview).getByLabelText(/^Comment/)).toBeInTheDocument();

    // A score form needs its score fields: saving without one is refused with the rule.
    await user.click(screen.getByRole('button', { name: 'Create form' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Score fields: "fields" must name at least one field.',
    );
    expect(apiCalls(fetchStub)).not.toContain('POST /forms/');

    await user.click(screen.getByRole('tab', { name: /^Options/ }));
    await user.click(screen.getByRole('checkbox', { name: 'Merit (merit)' }));
    await user.click(screen.getByRole('button', { name: 'Create form' }));

    await waitFor(() => expect(app.location()).toBe('/forms/31/'));
    expect(sentBody(fetchStub, 'POST /forms/')).toEqual({
      isNew: true,
      name: 11,
      version: '1',
      jsonSchema: scoreSchema,
      uiSchema: {},
      initialData: null,
      options: { method: 'average', fields: ['merit'] },
    });
  });

  it('drops the missing form name banner once a form name of the example type is chosen', async () => {
    const example = {
      key: 'scores',
      title: 'Review scores',
      type: 3,
      name: 'review_scores_2027',
      display_name: 'Review Scores 2027',
      jsonSchema: scoreSchema,
      uiSchema: {},
      options: { method: 'average', fields: ['merit'] },
    };
    formServer({ 'GET /form_examples/': { body: [example] } });
    const user = userEvent.setup();
    renderApp('/forms/new', { token: 'k' });
    await screen.findByRole('heading', { name: 'New Form' }, AFTER_NAVIGATION);

    await user.click(screen.getByRole('button', { name: 'Load example' }));
    await user.click(await screen.findByRole('menuitem', { name: /^Review scores/ }));
    const banner = /There is no form name “review_scores_2027” yet/;
    expect(await screen.findByText(banner)).toBeInTheDocument();

    // Another type does not answer it.
    fireEvent.change(screen.getByLabelText(/^Form name/), { target: { value: '12' } });
    expect(screen.getByText(banner)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/^Form name/), { target: { value: '11' } });
    expect(screen.queryByText(banner)).not.toBeInTheDocument();
  });

  it("shows the server's messages under the fields they are about", async () => {
    const { user } = await openNewForm({
      'POST /forms/': {
        status: 400,
        body: {
          detail: messages.validationFailed,
          code: 'validation_error',
          fields: { version: ['Version 1 of Review Scores exists already.'] },
        },
      },
    });
    typeInto('JSON Schema', JSON.stringify(scoreSchema));
    await user.click(screen.getByRole('tab', { name: /^Options/ }));
    await user.click(screen.getByRole('checkbox', { name: 'Merit (merit)' }));
    await user.click(screen.getByRole('button', { name: 'Create form' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Version: Version 1 of Review Scores exists already.',
    );
    const version = screen.getByLabelText(/^Version/);
    expect(version).toHaveAttribute('aria-invalid', 'true');
    expect(version).toHaveAccessibleDescription('Version 1 of Review Scores exists already.');
  });

  it('shows a form a call uses read-only, with the reason and no Save', async () => {
    stubApi({
      'GET /user_details/': { body: adminUser },
      'GET /form_names/': { body: [scores] },
      'GET /forms/?id=31': { body: { ...savedForm, isUsed: true } },
    });
    renderApp('/forms/31/', { token: 'k' });
    await screen.findByRole('heading', { name: 'Review Scores · version 1' }, AFTER_NAVIGATION);

    expect(screen.getByText(/A call uses this form, so it cannot be changed/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create a new version' })).toBeInTheDocument();
    // On the Options tab, which is not shown yet.
    expect(screen.getByRole('checkbox', { name: 'Merit (merit)', hidden: true })).toBeDisabled();
  });
});
