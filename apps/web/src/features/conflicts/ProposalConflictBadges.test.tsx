import type { CallProposal } from '@merit/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, renderApp, stubApi } from '../../test/render-app';
import { chairAbilities, makeCall } from '../calls/calls.fixtures';
import { makeCallProposal } from '../proposals/proposals.fixtures';

const page = (items: CallProposal[]) => ({
  body: { items, page: 1, pageSize: 10, total: items.length, sort: 'name' },
});

async function openList(items: CallProposal[]) {
  stubApi({
    'GET /user_details/': { body: makeUser() },
    'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
    'GET /calls/12/proposals/?page=1&pageSize=10&sort=name': page(items),
  });
  renderApp('/calls/12/proposals/', { token: 'k' });
  return screen.findByRole('table', { name: 'Proposals of Beamtime 2026' }, AFTER_NAVIGATION);
}

const rowOf = (table: HTMLElement, name: string) =>
  within(table).getByRole('row', { name: new RegExp(name) });

describe('the proposal list’s conflict marks', () => {
  it('marks the rows the caller has a conflict with', async () => {
    const table = await openList([
      makeCallProposal({ myConflict: true }),
      makeCallProposal({ id: 31, proposalName: 'Comet dust' }),
    ]);
    expect(within(rowOf(table, 'Dark matter survey')).getByText('Conflict')).toBeVisible();
    expect(rowOf(table, 'Comet dust')).not.toHaveTextContent(/conflict/i);
  });

  it('shows chairs the counts, linked to the Conflicts page, and the submitted rows that declared none', async () => {
    const table = await openList([
      makeCallProposal({
        state: 'Submitted',
        stateVal: 1,
        conflicts: { confirmed: 2, suggested: 1, declaredByApplicants: true },
      }),
      makeCallProposal({
        id: 31,
        proposalName: 'Comet dust',
        state: 'Submitted',
        stateVal: 1,
        conflicts: { confirmed: 0, suggested: 0, declaredByApplicants: false },
      }),
      // A draft has not declared yet: that is no news.
      makeCallProposal({
        id: 32,
        proposalName: 'Baryon acoustics',
        conflicts: { confirmed: 0, suggested: 0, declaredByApplicants: false },
      }),
    ]);
    const first = rowOf(table, 'Dark matter survey');
    expect(within(first).getByRole('link', { name: '2 conflicts' })).toHaveAttribute(
      'href',
      '/calls/12/conflicts?proposal=30',
    );
    expect(within(first).getByRole('link', { name: '1 possible conflict' })).toHaveAttribute(
      'href',
      '/calls/12/conflicts?proposal=30',
    );
    expect(first).not.toHaveTextContent('No declarations');
    expect(within(rowOf(table, 'Comet dust')).getByText('No declarations')).toBeVisible();
    expect(rowOf(table, 'Baryon acoustics')).not.toHaveTextContent('No declarations');
  });
});
