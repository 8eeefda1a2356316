import { conflictScreenMessages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';
import { chairAbilities, makeCall } from '../calls/calls.fixtures';
import { makeCallProposal } from '../proposals/proposals.fixtures';
import { makeCallConflictsPage, makeConflictItem } from './conflicts.fixtures';

/** Carla (3), a chair of the call's committee. */
const carla = makeUser({ id: 3, username: 'carla', first_name: 'Carla', last_name: 'Chair' });

const GRACE = makeConflictItem();
const ALAN = makeConflictItem({
  id: 501,
  userId: 10,
  userName: 'Alan Turing',
  institution: 'University of Manchester',
  type: 'collaborator',
  evidence: [
    {
      kind: 'sharedProposal',
      proposalId: 31,
      proposalName: 'Axion search',
      applicantName: 'Ada Lovelace',
    },
  ],
});

const FIRST_PAGE = 'GET /calls/12/conflicts/?page=1&pageSize=10';

function stubPage(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /user_details/': { body: carla },
    'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
    [FIRST_PAGE]: {
      body: makeCallConflictsPage({
        items: [GRACE, ALAN],
        counts: { suggested: 2, confirmed: 1, dismissed: 4 },
        undeclared: 3,
      }),
    },
    ...extra,
  });
}

async function openPage(path = '/calls/12/conflicts') {
  const view = renderApp(path, { token: 'k' });
  await screen.findByRole('heading', { level: 1, name: 'Conflicts of Interest' }, AFTER_NAVIGATION);
  const table = await screen.findByRole('table', {
    name: 'Conflicts of interest of Beamtime 2026',
  });
  return { ...view, table };
}

const rowOf = (table: HTMLElement, name: string) =>
  within(table).getByRole('row', { name: new RegExp(name) });

describe('the Conflicts page', () => {
  it('shows the counts, the proposals without declarations, and what matched in words', async () => {
    const user = userEvent.setup();
    const fetchStub = stubPage({
      'GET /calls/12/conflicts/?state=dismissed&page=1&pageSize=10': {
        body: makeCallConflictsPage({
          items: [],
          total: 0,
          counts: { suggested: 2, confirmed: 1, dismissed: 4 },
        }),
      },
    });
    const { table, location } = await openPage();
    const chips = screen.getByRole('navigation', { name: 'Filter by state' });
    expect(
      within(chips)
        .getAllByRole('button')
        .map((chip) => chip.textContent),
    ).toEqual(['All (7)', 'Suggested (2)', 'Confirmed (1)', 'Dismissed (4)']);
    expect(within(chips).getByRole('button', { name: 'All (7)' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByText(conflictScreenMessages.undeclared(3))).toBeVisible();
    expect(rowOf(table, 'Grace Hopper')).toHaveTextContent(
      'Same mail domain: cs.uu.se / uu.se (Ada Lovelace)',
    );
    expect(rowOf(table, 'Alan Turing')).toHaveTextContent(
      'Shared proposal: Axion search with Ada Lovelace',
    );
    expect(rowOf(table, 'Alan Turing')).toHaveTextContent('Recent collaborator');
    expect(
      within(rowOf(table, 'Grace Hopper')).getByRole('link', { name: 'Dark matter survey' }),
    ).toHaveAttribute('href', '/calls/12/proposals/30/');

    await user.click(within(chips).getByRole('button', { name: 'Dismissed (4)' }));
    expect(await screen.findByText(conflictScreenMessages.listNoMatch)).toBeVisible();
    expect(location()).toBe('/calls/12/conflicts?state=dismissed');
    expect(apiCalls(fetchStub)).toContain(
      'GET /calls/12/conflicts/?state=dismissed&page=1&pageSize=10',
    );
  });

  it('filters by type and member through the address', async () => {
    const user = userEvent.setup();
    const fetchStub = stubPage({
      'GET /calls/12/conflicts/?type=collaborator&page=1&pageSize=10': {
        body: makeCallConflictsPage({ items: [ALAN] }),
      },
      'GET /calls/12/conflicts/?type=collaborator&user=10&page=1&pageSize=10': {
        body: makeCallConflictsPage({ items: [ALAN] }),
      },
    });
    const { location } = await openPage();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Recent collaborator');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Member' }), 'Alan Turing');
    await waitFor(() =>
      expect(apiCalls(fetchStub)).toContain(
        'GET /calls/12/conflicts/?type=collaborator&user=10&page=1&pageSize=10',
      ),
    );
    expect(location()).toBe('/calls/12/conflicts?type=collaborator&user=10');
  });

  it('dismisses the ticked rows at once after asking, and says which were refused and why', async () => {
    const user = userEvent.setup();
    const refusal = 'The member declared this conflict themselves, so it cannot be dismissed.';
    const fetchStub = stubPage({
      'POST /conflicts/bulk/': {
        body: { changed: [500], refused: [{ id: 501, detail: refusal }] },
      },
    });
    const { table } = await openPage();
    const dismiss = screen.getByRole('button', { name: 'Dismiss Selected' });
    expect(dismiss).toBeDisabled();
    await user.click(
      within(table).getByRole('checkbox', {
        name: 'Select the conflict of Grace Hopper with “Dark matter survey”',
      }),
    );
    await user.click(
      within(table).getByRole('checkbox', {
        name: 'Select the conflict of Alan Turing with “Dark matter survey”',
      }),
    );
    expect(screen.getByText('2 selected')).toBeVisible();
    expect(screen.getByRole('checkbox', { name: 'Select all on this page' })).toBeChecked();

    await user.click(dismiss);
    const confirm = await screen.findByRole('dialog', { name: 'Dismiss 2 conflicts?' });
    await user.click(within(confirm).getByRole('button', { name: 'Dismiss' }));

    expect(await screen.findByText('1 conflict dismissed.')).toBeVisible();
    expect(sentBody(fetchStub, 'POST /conflicts/bulk/')).toEqual({
      ids: [500, 501],
      state: 'dismissed',
    });
    const refused = await screen.findByText(conflictScreenMessages.bulkRefused);
    expect(refused.closest('[role="alert"]')).toHaveTextContent(
      `Alan Turing with “Dark matter survey”: ${refusal}`,
    );
    // The one refused stays ticked, for the chair to act on.
    expect(await screen.findByText('1 selected')).toBeVisible();
  });

  it('confirms one conflict, and removes one after asking', async () => {
    const user = userEvent.setup();
    const fetchStub = stubPage({
      'POST /conflicts/500/': ({ body }) => ({ body: makeConflictItem(body as object) }),
      'DELETE /conflicts/501/': { status: 204 },
    });
    const { table } = await openPage();
    await user.click(
      within(table).getByRole('button', {
        name: 'Confirm the conflict of Grace Hopper with “Dark matter survey”',
      }),
    );
    expect(
      await screen.findByText(
        'The conflict of Grace Hopper with “Dark matter survey” has been confirmed.',
      ),
    ).toBeVisible();
    expect(sentBody(fetchStub, 'POST /conflicts/500/')).toEqual({ state: 'confirmed' });

    await user.click(
      within(table).getByRole('button', {
        name: 'Remove the conflict of Alan Turing with “Dark matter survey”',
      }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Remove this conflict?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(apiCalls(fetchStub)).not.toContain('DELETE /conflicts/501/');
    await user.click(
      await within(table).findByRole('button', {
        name: 'Remove the conflict of Alan Turing with “Dark matter survey”',
      }),
    );
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove this conflict?' })).getByRole(
        'button',
        { name: 'Remove' },
      ),
    );
    expect(
      await screen.findByText(
        'The conflict of Alan Turing with “Dark matter survey” has been removed.',
      ),
    ).toBeVisible();
  });

  it('offers no Dismiss or Remove of authorship', async () => {
    stubPage({
      [FIRST_PAGE]: {
        body: makeCallConflictsPage({
          items: [
            makeConflictItem({
              type: 'author',
              state: 'confirmed',
              evidence: [{ kind: 'team', role: 'collaborator' }],
            }),
          ],
        }),
      },
    });
    const { table } = await openPage();
    const row = rowOf(table, 'Grace Hopper');
    expect(row).toHaveTextContent('Collaborator on the proposal');
    expect(within(row).queryByRole('button', { name: /^Dismiss/ })).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(within(row).getByRole('button', { name: /^Pin/ })).toBeVisible();
  });

  it('offers only what the server says the chair may do with a conflict', async () => {
    stubPage({
      [FIRST_PAGE]: {
        body: makeCallConflictsPage({
          items: [
            makeConflictItem({
              abilities: { confirm: false, dismiss: true, pin: false, remove: false },
            }),
          ],
        }),
      },
    });
    const { table } = await openPage();
    const row = rowOf(table, 'Grace Hopper');
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Dismiss']);
  });

  it('adds a conflict: a proposal found by search, a member, the kind, pinned', async () => {
    const user = userEvent.setup();
    const fetchStub = stubPage({
      'GET /calls/12/proposals/?page=1&pageSize=20&sort=name': {
        body: { items: [makeCallProposal()], page: 1, pageSize: 20, total: 1, sort: 'name' },
      },
      'POST /proposals/30/conflicts/': ({ body }) => ({
        status: 201,
        body: makeConflictItem({ ...(body as object), state: 'confirmed', source: 'chair' }),
      }),
    });
    await openPage();
    await user.click(screen.getByRole('button', { name: 'Add Conflict' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Conflict' });

    // Nothing chosen: each required field says so, and nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Add Conflict' }));
    expect(within(dialog).getByText('Choose the proposal.')).toBeVisible();
    expect(within(dialog).getByText('Choose the member.')).toBeVisible();
    expect(apiCalls(fetchStub)).not.toContain('POST /proposals/30/conflicts/');

    await user.click(within(dialog).getByRole('combobox', { name: /^Proposal/ }));
    await user.click(
      await screen.findByRole('option', { name: 'Dark matter survey (Ada Lovelace)' }),
    );
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: /^Member/ }),
      'Grace Hopper (Navy Labs)',
    );
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: /^Kind of conflict/ }),
      'Financial',
    );
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Reason (optional)' }),
      'Shares in the company',
    );
    await user.click(within(dialog).getByRole('checkbox', { name: 'Pinned' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Conflict' }));

    expect(
      await screen.findByText(
        'The conflict of Grace Hopper with “Dark matter survey” has been added.',
      ),
    ).toBeVisible();
    expect(sentBody(fetchStub, 'POST /proposals/30/conflicts/')).toEqual({
      userId: 9,
      type: 'financial',
      reason: 'Shares in the company',
      pinned: true,
    });
  });

  it('says what to do when the call has none, and is closed to those who are not chairs', async () => {
    stubPage({
      [FIRST_PAGE]: {
        body: makeCallConflictsPage({
          items: [],
          total: 0,
          counts: { suggested: 0, confirmed: 0, dismissed: 0 },
        }),
      },
    });
    const view = renderApp('/calls/12/conflicts', { token: 'k' });
    expect(
      await screen.findByText(conflictScreenMessages.listEmpty, undefined, AFTER_NAVIGATION),
    ).toBeVisible();
    view.unmount();

    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall() },
    });
    renderApp('/calls/12/conflicts', { token: 'k' });
    expect(
      await screen.findByRole('heading', { name: 'Access denied' }, AFTER_NAVIGATION),
    ).toBeVisible();
    expect(apiCalls(fetchStub).filter((call) => call.includes('conflicts'))).toEqual([]);
  });
});
