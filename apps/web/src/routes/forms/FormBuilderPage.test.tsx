import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeForm } from '../../features/calls/calls.fixtures';
import { adminUser, makeFormName } from '../../test/admin-fixtures';
import { AFTER_NAVIGATION, renderApp, sentBody, stubApi } from '../../test/render-app';

const version = (id: number, number: string, isUsed = false) => ({
  ...makeForm(id, 'Science Case', 0),
  version: number,
  isUsed,
});

/** The first cell of each body row of the table named `label`. */
const firstCells = (label: string, column = 0) =>
  within(screen.getByRole('table', { name: label }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[column]!.textContent);

describe('Form Builder lists', () => {
  it('sorts versions as numbers and deletes an unused form after asking', async () => {
    let forms = [version(1, '10'), version(2, '9', true), version(3, '1.5')];
    const fetchStub = stubApi({
      'GET /user_details/': { body: adminUser },
      'GET /forms/': () => ({ body: forms }),
      'DELETE /forms/': ({ body }) => {
        forms = forms.filter((form) => form.id !== (body as { id: number }).id);
        return { status: 204 };
      },
    });
    const app = renderApp('/forms/?sort=version', { token: 'k' });
    await screen.findByRole('table', { name: 'Forms' }, AFTER_NAVIGATION);
    expect(firstCells('Forms', 2)).toEqual(['1.5', '9', '10']);

    const used = screen.getAllByRole('row')[2]!;
    expect(within(used).getByText('In use')).toBeInTheDocument();
    expect(within(used).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete Science Case version 10' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this form?' });
    expect(dialog).toHaveTextContent('Science Case version 10 will be deleted.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(firstCells('Forms', 2)).toEqual(['1.5', '9']));
    expect(sentBody(fetchStub, 'DELETE /forms/')).toEqual({ id: 1 });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Science Case version 10 has been deleted.',
    );
    expect(app.location()).toBe('/forms/?sort=version');
  });

  it('shows why the server refused to delete a form name', async () => {
    stubApi({
      'GET /user_details/': { body: adminUser },
      'GET /form_names/': {
        body: [makeFormName(), makeFormName({ id: 12, name: 'abstract', isUsed: true })],
      },
      'DELETE /form_names/': {
        status: 409,
        body: { detail: 'This form name has forms: delete them first.', code: 'conflict' },
      },
    });
    renderApp('/forms/?tab=names', { token: 'k' });
    await screen.findByRole('table', { name: 'Form names' }, AFTER_NAVIGATION);
    expect(firstCells('Form names')).toEqual(['abstract', 'review_scores']);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete review_scores' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this form name?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(
      await screen.findByText('This form name has forms: delete them first.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
