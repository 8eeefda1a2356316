import { roleMessages } from '@merit/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { formatCallDate } from '../../features/calls/call-dates';
import { chairAbilities, makeCall } from '../../features/calls/calls.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

const extension = {
  id: 70,
  userId: 8,
  userName: 'Grace Hopper',
  commencement: '2026-04-01T00:00:00.000Z',
  termination: '2026-04-08T00:00:00.000Z',
  reason: 'Instrument downtime',
};

async function openMenu() {
  await userEvent.click(await screen.findByRole('button', { name: 'Manage' }, AFTER_NAVIGATION));
  return screen.findByRole('menu');
}

/** A second extension, for another user, that starts before the first. */
const earlierExtension = {
  id: 71,
  userId: 9,
  userName: 'Ada Lovelace',
  commencement: '2026-03-01T00:00:00.000Z',
  termination: '2026-03-20T00:00:00.000Z',
  reason: '',
};

/**
 * A window `width` pixels wide, as far as media queries go: jsdom answers none of them,
 * and the shared table asks one to choose between rows and cards.
 */
function stubViewportWidth(width: number) {
  const holds = (media: string) =>
    [...media.matchAll(/\((min|max)-width:\s*([\d.]+)px\)/g)].every(([, bound, pixels]) =>
      bound === 'min' ? width >= Number(pixels) : width <= Number(pixels),
    ) && /width/.test(media);
  vi.stubGlobal('matchMedia', (media: string) => ({
    matches: holds(media),
    media,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }));
}

async function openExtensions() {
  await userEvent.click(
    within(await openMenu()).getByRole('menuitem', { name: 'Manage Extensions' }),
  );
  return screen.findByRole('dialog', { name: 'Manage Extensions' }, AFTER_NAVIGATION);
}

const itemNames = (menu: HTMLElement) =>
  within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);

describe('CallDetailPage', () => {
  it('shows the details, the description and the forms of each type', async () => {
    stubApi({ 'GET /user_details/': { body: makeUser() }, 'GET /calls/12/': { body: makeCall() } });
    renderApp('/calls/12/', { token: 'k' });
    expect(
      await screen.findByRole('heading', { name: 'Beamtime 2026' }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    const details = screen.getByRole('table', { name: 'Details' });
    expect(
      within(details).getByRole('rowheader', { name: 'Committee' }).closest('tr'),
    ).toHaveTextContent('Synchrotron');
    expect(screen.getByText('beam time').tagName).toBe('STRONG');
    const type = screen.getByRole('region', { name: 'Standard' });
    expect(within(type).getByRole('list', { name: 'Proposal forms' })).toHaveTextContent(
      'Project Details',
    );
    expect(within(type).getByRole('list', { name: 'Review forms' })).toHaveTextContent(
      'Science Review',
    );
  });

  it('offers a member only what their abilities allow', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': {
        body: makeCall({ abilities: { ...makeCall().abilities, addProposal: true } }),
      },
    });
    renderApp('/calls/12/', { token: 'k' });
    const menu = await openMenu();
    expect(itemNames(menu)).toEqual(['Add Proposal', 'View Proposals']);
    expect(within(menu).getByRole('menuitem', { name: 'Add Proposal' })).toHaveAttribute(
      'href',
      '/calls/12/new',
    );
  });

  it('offers a member bidding while it is open, on the page and in the menu', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': {
        body: makeCall({ abilities: { ...makeCall().abilities, bid: true } }),
      },
    });
    renderApp('/calls/12/', { token: 'k' });
    expect(
      await screen.findByRole('link', { name: 'Bid on Proposals' }, AFTER_NAVIGATION),
    ).toHaveAttribute('href', '/calls/12/bids');
    const menu = await openMenu();
    expect(itemNames(menu)).toEqual(['View Proposals', 'Bid on Proposals']);
  });

  it('offers a member no bidding once it is closed', async () => {
    stubApi({ 'GET /user_details/': { body: makeUser() }, 'GET /calls/12/': { body: makeCall() } });
    renderApp('/calls/12/', { token: 'k' });
    await screen.findByRole('heading', { name: 'Beamtime 2026' }, AFTER_NAVIGATION);
    expect(screen.queryByRole('link', { name: 'Bid on Proposals' })).toBeNull();
  });

  it('offers a chair editing, managing and extensions, and no Add Proposal once submission ends', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': {
        body: makeCall({ abilities: { ...chairAbilities, addProposal: false } }),
      },
    });
    renderApp('/calls/12/', { token: 'k' });
    const menu = await openMenu();
    expect(itemNames(menu)).toEqual([
      'View Proposals',
      'Edit Call Details',
      'Manage Call',
      'Conflicts of Interest',
      'Assign Reviewers',
      'Review Progress',
      'Reminders',
      'Ranking',
      'Letters',
      'Activity',
      'Manage Extensions',
    ]);
    expect(within(menu).getByRole('menuitem', { name: 'Review Progress' })).toHaveAttribute(
      'href',
      '/calls/12/progress',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Reminders' })).toHaveAttribute(
      'href',
      '/calls/12/reminders',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Ranking' })).toHaveAttribute(
      'href',
      '/calls/12/ranking',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Letters' })).toHaveAttribute(
      'href',
      '/calls/12/letters',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Assign Reviewers' })).toHaveAttribute(
      'href',
      '/calls/12/assignment',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Edit Call Details' })).toHaveAttribute(
      'href',
      '/calls/12/update',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Manage Call' })).toHaveAttribute(
      'href',
      '/calls/12/manage',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Conflicts of Interest' })).toHaveAttribute(
      'href',
      '/calls/12/conflicts',
    );
  });

  it('lists extensions in DD/MM/YY HH:mm and refuses one that ends before it starts', async () => {
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': {
        body: makeCall({ abilities: chairAbilities, extensions: [extension] }),
      },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/', { token: 'k' });
    const menu = await openMenu();
    await user.click(within(menu).getByRole('menuitem', { name: 'Manage Extensions' }));

    const dialog = await screen.findByRole(
      'dialog',
      { name: 'Manage Extensions' },
      AFTER_NAVIGATION,
    );
    const row = within(dialog).getByRole('cell', { name: 'Grace Hopper' }).closest('tr')!;
    expect(row).toHaveTextContent(formatCallDate(extension.commencement));
    expect(formatCallDate(extension.commencement)).toMatch(
      /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d \S+$/,
    );

    fireEvent.change(within(dialog).getByLabelText(/^Extension from/), {
      target: { value: '2026-04-10T09:00' },
    });
    fireEvent.change(within(dialog).getByLabelText(/^Extension until/), {
      target: { value: '2026-04-09T09:00' },
    });
    expect(
      within(dialog).getByText(roleMessages.terminationBeforeCommencement),
    ).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Add Extension' }));
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
    expect(apiCalls(fetchStub)).not.toContain('POST /new_extension/');

    // The same day is fine: only an end before the start is refused.
    fireEvent.change(within(dialog).getByLabelText(/^Extension until/), {
      target: { value: '2026-04-10T09:00' },
    });
    expect(
      within(dialog).queryByText(roleMessages.terminationBeforeCommencement),
    ).not.toBeInTheDocument();
  });

  it('lists extensions in the shared table, earliest first, sorted by a clicked column', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': {
        body: makeCall({ abilities: chairAbilities, extensions: [extension, earlierExtension] }),
      },
    });
    const user = userEvent.setup();
    const app = renderApp('/calls/12/', { token: 'k' });
    const dialog = await openExtensions();
    const table = within(dialog).getByRole('table', { name: 'Extensions' });
    const users = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[0]!.textContent);
    const header = (name: string) => within(table).getByRole('columnheader', { name });

    expect(users()).toEqual(['Ada Lovelace', 'Grace Hopper']);
    expect(header('From')).toHaveAttribute('aria-sort', 'ascending');
    // No reason given reads as a dash, not as an empty cell.
    expect(
      within(table).getByRole('cell', { name: 'Ada Lovelace' }).closest('tr'),
    ).toHaveTextContent('—');

    await user.click(within(header('User')).getByRole('button', { name: 'User' }));
    await user.click(within(header('User')).getByRole('button', { name: 'User' }));
    expect(header('User')).toHaveAttribute('aria-sort', 'descending');
    expect(users()).toEqual(['Grace Hopper', 'Ada Lovelace']);
    await user.click(within(header('Until')).getByRole('button', { name: 'Until' }));
    expect(users()).toEqual(['Ada Lovelace', 'Grace Hopper']);
    // The address names the call's page, not the dialog: its sort stays in the dialog.
    expect(app.router.state.location.search).toBe('');
  });

  it('shows each extension as a card at phone width, whose Delete still asks first', async () => {
    stubViewportWidth(390);
    let extensions = [extension, earlierExtension];
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': () => ({ body: makeCall({ abilities: chairAbilities, extensions }) }),
      'DELETE /delete_extension/': () => {
        extensions = [earlierExtension];
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/', { token: 'k' });
    const dialog = await openExtensions();

    expect(within(dialog).queryByRole('table', { name: 'Extensions' })).not.toBeInTheDocument();
    const cards = within(within(dialog).getByRole('list', { name: 'Extensions' })).getAllByRole(
      'listitem',
    );
    expect(cards).toHaveLength(2);
    // Earliest first, each titled by its user.
    expect(cards[0]).toHaveTextContent(/^Ada Lovelace/);
    expect(cards[1]).toHaveTextContent(/^Grace Hopper/);
    const grace = within(cards[1]!);
    expect(grace.getAllByRole('term').map((term) => term.textContent)).toEqual([
      'From',
      'Until',
      'Reason',
    ]);
    expect(grace.getAllByRole('definition').map((value) => value.textContent)).toEqual([
      formatCallDate(extension.commencement),
      formatCallDate(extension.termination),
      'Instrument downtime',
    ]);
    // No header to click on a phone: one choice of column and direction instead.
    expect(within(dialog).getByRole('combobox', { name: 'Sort by' })).toBeInTheDocument();

    await user.click(grace.getByRole('button', { name: 'Delete the extension of Grace Hopper' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this extension?' });
    expect(confirm).toHaveTextContent(
      `Grace Hopper will no longer be able to submit from ${formatCallDate(
        extension.commencement,
      )} until ${formatCallDate(extension.termination)}.`,
    );
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(
        within(within(dialog).getByRole('list', { name: 'Extensions' })).getAllByRole('listitem'),
      ).toHaveLength(1),
    );
    expect(sentBody(fetchStub, 'DELETE /delete_extension/')).toEqual({
      callId: 12,
      extensionId: 70,
    });
  });

  it('adds an extension for a user found by the lookup', async () => {
    let extensions: (typeof extension)[] = [];
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': () => ({ body: makeCall({ abilities: chairAbilities, extensions }) }),
      'GET /users/lookup/?q=grace': {
        body: [{ id: 8, name: 'Grace Hopper', username: 'grace', email: 'grace@example.org' }],
      },
      'POST /new_extension/': () => {
        extensions = [extension];
        return { status: 201, body: extension };
      },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/', { token: 'k' });
    await user.click(within(await openMenu()).getByRole('menuitem', { name: 'Manage Extensions' }));
    const dialog = await screen.findByRole(
      'dialog',
      { name: 'Manage Extensions' },
      AFTER_NAVIGATION,
    );

    await user.type(within(dialog).getByRole('combobox', { name: /^User/ }), 'grace');
    await user.click(
      await screen.findByRole('option', { name: 'Grace Hopper (grace, grace@example.org)' }),
    );
    fireEvent.change(within(dialog).getByLabelText(/^Extension from/), {
      target: { value: '2026-04-01T09:00' },
    });
    fireEvent.change(within(dialog).getByLabelText(/^Extension until/), {
      target: { value: '2026-04-08T17:00' },
    });
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Instrument downtime');
    await user.click(within(dialog).getByRole('button', { name: 'Add Extension' }));

    expect(await within(dialog).findByRole('cell', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(sentBody(fetchStub, 'POST /new_extension/')).toEqual({
      callId: 12,
      user: 8,
      commencement: new Date('2026-04-01T09:00').toISOString(),
      termination: new Date('2026-04-08T17:00').toISOString(),
      reason: 'Instrument downtime',
    });
  });

  it('deletes an extension after confirmation', async () => {
    let extensions = [extension];
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': () => ({ body: makeCall({ abilities: chairAbilities, extensions }) }),
      'DELETE /delete_extension/': () => {
        extensions = [];
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/', { token: 'k' });
    await user.click(within(await openMenu()).getByRole('menuitem', { name: 'Manage Extensions' }));
    const dialog = await screen.findByRole(
      'dialog',
      { name: 'Manage Extensions' },
      AFTER_NAVIGATION,
    );
    await user.click(
      within(dialog).getByRole('button', { name: 'Delete the extension of Grace Hopper' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Delete this extension?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    await waitFor(() =>
      expect(within(dialog).getByText('This call has no extensions.')).toBeInTheDocument(),
    );
    expect(sentBody(fetchStub, 'DELETE /delete_extension/')).toEqual({
      callId: 12,
      extensionId: 70,
    });
  });
});
