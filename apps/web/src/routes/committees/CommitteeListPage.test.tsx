import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminUser, makeCommittee } from '../../test/admin-fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

const unused = makeCommittee({ id: 3, name: 'Telescope Time', canDelete: true });
const used = makeCommittee({ id: 4, name: 'Beamline', canDelete: false });

/** A server that forgets a committee once it is deleted. */
function committeeServer() {
  let committees = [used, unused];
  return stubApi({
    'GET /user_details/': { body: adminUser },
    'GET /committees/': () => ({ body: committees }),
    'DELETE /committees/': ({ body }) => {
      committees = committees.filter((committee) => committee.id !== (body as { id: number }).id);
      return { status: 204 };
    },
  });
}

function rowOf(name: string) {
  return screen.getByRole('link', { name }).closest('tr')!;
}

describe('CommitteeListPage', () => {
  it('offers Delete only for a committee nothing refers to, and In use otherwise', async () => {
    committeeServer();
    renderApp('/committees', { token: 'k' });
    await screen.findByRole('link', { name: 'Beamline' }, AFTER_NAVIGATION);

    expect(within(rowOf('Beamline')).getByText('In use')).toBeInTheDocument();
    expect(within(rowOf('Beamline')).queryByRole('button')).not.toBeInTheDocument();
    expect(
      within(rowOf('Telescope Time')).getByRole('button', { name: 'Delete Telescope Time' }),
    ).toBeInTheDocument();
    expect(within(rowOf('Telescope Time')).queryByText('In use')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add Committee' })).toHaveAttribute(
      'href',
      '/committees/new',
    );
  });

  it('asks before deleting: Cancel sends nothing, Delete sends DELETE with the id', async () => {
    const fetchStub = committeeServer();
    renderApp('/committees', { token: 'k' });
    const user = userEvent.setup();
    await screen.findByRole('link', { name: 'Telescope Time' }, AFTER_NAVIGATION);

    await user.click(screen.getByRole('button', { name: 'Delete Telescope Time' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this committee?' });
    expect(dialog).toHaveTextContent('Telescope Time');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(apiCalls(fetchStub)).not.toContain('DELETE /committees/');

    await user.click(screen.getByRole('button', { name: 'Delete Telescope Time' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this committee?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: 'Telescope Time' })).not.toBeInTheDocument(),
    );
    expect(sentBody(fetchStub, 'DELETE /committees/')).toEqual({ id: 3 });
    expect(screen.getByRole('link', { name: 'Beamline' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The committee Telescope Time has been deleted.',
    );
  });

  it('shows why the server refused a deletion', async () => {
    stubApi({
      'GET /user_details/': { body: adminUser },
      'GET /committees/': { body: [unused] },
      'DELETE /committees/': {
        status: 409,
        body: { detail: 'In use: this committee has roles or calls.', code: 'conflict' },
      },
    });
    renderApp('/committees', { token: 'k' });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Delete Telescope Time' }, AFTER_NAVIGATION),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete this committee?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText('In use: this committee has roles or calls.'),
    ).toBeInTheDocument();
  });
});
