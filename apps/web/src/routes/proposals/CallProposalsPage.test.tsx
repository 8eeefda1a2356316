import type { CallProposal } from '@merit/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { chairAbilities, makeCall } from '../../features/calls/calls.fixtures';
import { makeCallProposal } from '../../features/proposals/proposals.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';

const page = (items: CallProposal[], sort = 'name') => ({
  body: { items, page: 1, pageSize: 10, total: items.length, sort },
});

const mine = makeCallProposal();
const theirs = makeCallProposal({
  id: 31,
  proposalName: 'Comet dust',
  author: 'Grace Hopper',
  authorId: 9,
  proposalTypeName: 'Rapid access',
  editable: false,
});
const submitted = makeCallProposal({
  id: 32,
  proposalName: 'Baryon acoustics',
  state: 'Submitted',
  stateVal: 1,
  editable: false,
});

// Each test walks through pages that load lazily: slow on a busy machine, not stuck.
describe('CallProposalsPage', { timeout: 20_000 }, () => {
  it('lists the call’s proposals as the server pages them, sorted by name', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=name': page([mine, theirs, submitted]),
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=type': page([theirs], 'type'),
    });
    const view = renderApp('/calls/12/proposals/', { token: 'k' });
    const table = await screen.findByRole(
      'table',
      { name: 'Proposals of Beamtime 2026' },
      AFTER_NAVIGATION,
    );
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Type', 'Name', 'Proposal Author', 'State', 'View']);
    // Edit where the server says the caller may edit; View everywhere else.
    expect(
      within(table).getByRole('link', { name: 'Edit Proposal Dark matter survey' }),
    ).toHaveAttribute('href', '/calls/12/proposals/30/');
    expect(within(table).getByRole('link', { name: 'View Proposal Comet dust' })).toBeVisible();
    expect(
      within(table).getByRole('link', { name: 'View Proposal Baryon acoustics' }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Add Proposal' })).toHaveAttribute(
      'href',
      '/calls/12/new',
    );

    await user.click(within(table).getByRole('button', { name: 'Type' }));
    expect(await screen.findByRole('cell', { name: 'Rapid access' })).toBeInTheDocument();
    expect(view.location()).toBe('/calls/12/proposals/?sort=type');
    expect(apiCalls(fetchStub)).toContain('GET /calls/12/proposals/?page=1&pageSize=10&sort=type');
  });

  it('offers no Add Proposal when the call does not accept one, and says when there are none', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall() },
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=name': page([]),
    });
    renderApp('/calls/12/proposals/', { token: 'k' });
    expect(
      await screen.findByText(
        'There are no proposals here that you can see yet.',
        undefined,
        AFTER_NAVIGATION,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add Proposal' })).not.toBeInTheDocument();
  });
});
