import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { makeCall } from '../../features/calls/calls.fixtures';
import {
  makeReviewFormOrder,
  makeReviewList,
  makeReviewSummary,
} from '../../features/reviews/reviews.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, renderApp, stubApi } from '../../test/render-app';

const PATH = '/calls/12/proposals/30/reviews/';

const alan = makeReviewSummary({
  id: 91,
  authorId: 10,
  author: 'Alan Turing',
  score: 5,
  scores: [
    { name: 'significance', value: 5 },
    { name: 'feasibility', value: null },
  ],
  abilities: { edit: true },
});

const chairsList = makeReviewList({
  reviews: [makeReviewSummary(), alan],
  reviewers: [
    { id: 9, name: 'Grace Hopper' },
    { id: 12, name: 'Mary Somerville' },
  ],
  totals: [
    { name: 'significance', value: 4.5 },
    { name: 'feasibility', value: 3 },
    { name: 'result', value: 4.25 },
  ],
});

async function openList(list = chairsList) {
  stubApi({
    'GET /user_details/': { body: makeUser() },
    'GET /calls/12/proposals/30/reviews/': { body: list },
    'GET /review_form_order/12/': { body: makeReviewFormOrder() },
    'GET /calls/12/': { body: makeCall({ id: 12, name: 'Beamtime 2026' }) },
  });
  renderApp(PATH, { token: 'k' });
  await screen.findByRole(
    'heading',
    { level: 1, name: 'Reviews of Dark matter survey' },
    AFTER_NAVIGATION,
  );
}

const cellsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('ReviewListPage', () => {
  it('shows chairs each review’s scores, the totals and the reviewers', async () => {
    await openList();
    const table = screen.getByRole('table', { name: 'Reviews' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Reviewer', 'Significance', 'Feasibility', 'Score', 'Last modified', 'Open']);
    expect(cellsOf(table).map((cells) => cells.slice(0, 4))).toEqual([
      ['Alan Turing', '5.00', 'N/A', '5.00'],
      ['Grace Hopper', '4.00', '3.00', '3.50'],
    ]);
    // Edit for the caller's own review, View for the others, as the server says.
    expect(
      within(table).getByRole('link', { name: 'Edit the review by Alan Turing' }),
    ).toHaveAttribute('href', '/calls/12/proposals/30/reviews/91/');
    expect(
      within(table).getByRole('link', { name: 'View the review by Grace Hopper' }),
    ).toBeVisible();

    const totals = within(screen.getByRole('table', { name: 'Review Totals' }))
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(totals).toEqual(['Significance4.50', 'Feasibility3.00', 'Score4.25']);

    const reviewers = screen.getByRole('list', { name: 'Reviewers' });
    expect(
      within(reviewers)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Grace HopperReviewed', 'Mary SomervilleNot reviewed yet']);
  });

  it('downloads the Review Summary CSV, made in the browser', async () => {
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:review-summary';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    onTestFinished(() => click.mockRestore());

    await openList();
    const button = screen.getByRole('button', { name: 'Download Review Summary CSV' });
    // Named by the call as well: ready once the call is read.
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('Beamtime 2026 - Dark matter survey - Review Summary.csv');
    // UTF-8 with its byte order mark, as every download's CSV.
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = await blobs[0]!.text();
    expect(text.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'Reviewer,Significance,Feasibility,Score,Strengths,Weaknesses',
      'Grace Hopper,4.00,3.00,3.50,A clear plan.,Few nights.',
      'Alan Turing,5.00,N/A,5.00,A clear plan.,Few nights.',
    ]);
  });

  it('shows a member who reviewed it no scores, totals or download', async () => {
    await openList(makeReviewList());
    const table = screen.getByRole('table', { name: 'Reviews' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Reviewer', 'Last modified', 'Open']);
    expect(screen.queryByRole('table', { name: 'Review Totals' })).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Download Review Summary CSV' }),
    ).not.toBeInTheDocument();
  });

  it('says so when there are no reviews yet', async () => {
    await openList(makeReviewList({ reviews: [], totals: [{ name: 'result', value: null }] }));
    expect(screen.getByText('This proposal has no reviews yet.')).toBeVisible();
    expect(screen.getByRole('list', { name: 'Reviewers' })).toHaveTextContent('Not reviewed yet');
  });
});
