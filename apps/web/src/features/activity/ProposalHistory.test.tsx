import { formatDateTime } from '@merit/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiCalls } from '../../test/render-app';
import { openEditor, PATH, stubEditor } from '../proposals/editor/editor.fixtures';
import { authorDraftAbilities, readerAbilities } from '../proposals/proposals.fixtures';
import { makeActivityEntry, makeProposalHistory } from './activity.fixtures';
import { TEAM_HISTORY_NOTE } from './ProposalHistory';

const FIRST_PAGE = 'GET /proposals/30/history/?page=1&pageSize=10';

const historyTable = () => screen.findByRole('table', { name: 'History of Dark matter survey' });

const rowOf = (table: HTMLElement, text: string) =>
  within(table).getByRole('row', { name: new RegExp(text) });

describe('the History tab of a proposal', () => {
  it('shows the team its own timeline, newest first, with the sentence that says so', async () => {
    const user = userEvent.setup();
    stubEditor(
      { abilities: { ...authorDraftAbilities, viewHistory: true } },
      {
        [FIRST_PAGE]: {
          body: makeProposalHistory({
            reader: 'team',
            items: [
              makeActivityEntry(),
              makeActivityEntry({
                key: 'audit-100',
                at: '2026-03-02T09:05:00.000Z',
                action: 'proposal.rename',
                label: 'Renamed the proposal',
                changes: { proposalName: { before: 'Dark matter', after: 'Dark matter survey' } },
              }),
            ],
          }),
        },
      },
    );
    await openEditor();
    expect(screen.getAllByRole('tab').map((item) => item.textContent)).toEqual([
      'Project Details',
      'Team Members',
      'History',
    ]);

    await user.click(screen.getByRole('tab', { name: 'History' }));
    const table = await historyTable();
    expect(screen.getByText(TEAM_HISTORY_NOTE)).toBeVisible();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['When', 'Who', 'Action', 'Changes']);
    const [, first, second] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent(formatDateTime(new Date('2026-03-03T14:32:00.000Z')));
    expect(first).toHaveTextContent('Ada Lovelace');
    expect(first).toHaveTextContent('Submitted the proposal');
    expect(first).toHaveTextContent('stateVal: 0 → 1');
    expect(second).toHaveTextContent('proposalName: Dark matter → Dark matter survey');
  });

  it('shows a chair what Merit did, fields without values, and long values on request, a page at a time', async () => {
    const user = userEvent.setup();
    const answers = { title: 'Axions', abstract: 'A'.repeat(120) };
    const fetchStub = stubEditor(
      { abilities: { ...readerAbilities, viewHistory: true } },
      {
        [FIRST_PAGE]: {
          body: makeProposalHistory({
            total: 12,
            items: [
              makeActivityEntry({
                key: 'audit-103',
                action: 'conflict.create',
                label: 'Recorded a conflict of interest',
                actor: null,
                subject: { id: 9, name: 'Grace Hopper' },
                changes: { type: { after: 'institutional' }, pinned: { after: false } },
              }),
              makeActivityEntry({
                key: 'audit-102',
                action: 'review.save',
                label: 'Saved a review',
                actor: { id: 9, name: 'Grace Hopper' },
                changes: { 'Science Review': {} },
              }),
              makeActivityEntry({
                key: 'audit-101',
                action: 'proposal.save',
                label: 'Saved the proposal',
                changes: {
                  'Project Details': { before: null, after: answers },
                  collaborators: { before: [], after: ['Vera Rubin', 'Fritz Zwicky'] },
                },
              }),
            ],
          }),
        },
        'GET /proposals/30/history/?page=2&pageSize=10': {
          body: makeProposalHistory({
            total: 12,
            page: 2,
            items: [makeActivityEntry({ key: 'audit-90', label: 'Created the proposal' })],
          }),
        },
      },
    );
    const { location } = await openEditor(`${PATH}?tab=history`, { editable: false });
    const table = await historyTable();
    expect(screen.queryByText(TEAM_HISTORY_NOTE)).not.toBeInTheDocument();

    const byMerit = rowOf(table, 'Recorded a conflict');
    expect(byMerit).toHaveTextContent('Merit');
    expect(byMerit).toHaveTextContent('Person: Grace Hopper');
    expect(byMerit).toHaveTextContent('type: institutional');
    expect(byMerit).toHaveTextContent('pinned: No');

    // The review's text is the chair's to know changed, not to read.
    const review = rowOf(table, 'Saved a review');
    expect(within(review).getByText('Science Review')).toBeVisible();
    expect(review).not.toHaveTextContent('→');

    const saved = rowOf(table, 'Saved the proposal');
    expect(saved).toHaveTextContent('collaborators: — → Vera Rubin, Fritz Zwicky');
    const disclosure = within(saved).getByText('Show values');
    const details = disclosure.closest('details')!;
    expect(details).not.toHaveAttribute('open');
    expect(details).toHaveTextContent('Project Details');
    await user.click(disclosure);
    expect(details).toHaveAttribute('open');
    expect(within(details).getByText(/"abstract": "A{120}"/)).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(
      await within(await historyTable()).findByText('Created the proposal'),
    ).toBeInTheDocument();
    expect(location()).toBe(`${PATH}?tab=history&history.page=2`);
    expect(apiCalls(fetchStub)).toContain('GET /proposals/30/history/?page=2&pageSize=10');
  });

  it('says so when nothing has been recorded yet', async () => {
    stubEditor(
      { abilities: { ...readerAbilities, viewHistory: true } },
      { [FIRST_PAGE]: { body: makeProposalHistory({ items: [] }) } },
    );
    await openEditor(`${PATH}?tab=history`, { editable: false });
    expect(
      await screen.findByText('Nothing has been recorded for this proposal yet.'),
    ).toBeVisible();
  });

  it('has no History tab, and asks for no history, without the ability', async () => {
    const fetchStub = stubEditor({ abilities: readerAbilities });
    await openEditor(`${PATH}?tab=history`, { editable: false });
    expect(screen.queryByRole('tab', { name: 'History' })).not.toBeInTheDocument();
    // The address's tab is unknown here: the first form shows.
    expect(screen.getByRole('tab', { name: 'Project Details' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(apiCalls(fetchStub).filter((call) => call.includes('/history/'))).toEqual([]);
  });
});
