import type { RemindNowResult } from '@merit/contract';
import { formatDateTime } from '@merit/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';
import { chairAbilities, makeCall } from '../calls/calls.fixtures';
import { MEMBER_PROGRESS, makeProgress } from './progress.fixtures';

/** The fixture's close of review, as the browser shows it: in its own zone, named. */
const REVIEW_CLOSES = formatDateTime(new Date('2026-05-01T00:00:00.000Z'));

/** Carla (3), a chair of the call's committee. */
const carla = makeUser({ id: 3, username: 'carla', first_name: 'Carla', last_name: 'Chair' });

const PROGRESS = 'GET /calls/12/progress/';
const SEND = 'POST /calls/12/reminders/send/';

function stubPage(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /user_details/': { body: carla },
    'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
    [PROGRESS]: { body: makeProgress() },
    ...extra,
  });
}

async function openPage() {
  const view = renderApp('/calls/12/progress', { token: 'k' });
  await screen.findByRole('heading', { level: 1, name: 'Review Progress' }, AFTER_NAVIGATION);
  // The progress itself, or what the page says without it.
  await screen.findByText(/^Reviews saved: |^No proposal has been submitted/);
  return view;
}

/** The names in a table's rows, top to bottom. */
const namesIn = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);

/** The proposals linked from a table's rows, top to bottom. */
const linksIn = (table: HTMLElement) =>
  within(table)
    .getAllByRole('link')
    .map((link) => link.textContent);

const rowOf = (table: HTMLElement, name: string) =>
  within(table).getByRole('row', { name: new RegExp(name) });

describe('the Progress page', () => {
  it('shows the totals, the chart in words, and each member’s reviews', async () => {
    stubPage();
    await openPage();
    expect(document.title).toBe('Review Progress · Merit');
    expect(screen.getByText('Reviews saved: 3 of 8')).toBeVisible();
    expect(screen.getByText('1 proposal has no review yet.')).toBeVisible();
    const chart = screen.getByRole('img', { name: 'Reviews saved per day' });
    expect(chart).toHaveAccessibleDescription(
      `3 reviews saved between 5 Apr and 12 Apr; the most in one day: 2 on 12 Apr. Review closes on ${REVIEW_CLOSES}.`,
    );
    // One bar per day with saves; the close of review a line across it.
    expect(chart.querySelectorAll('rect')).toHaveLength(2);
    expect(within(chart).getByText('Review closes')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Beamtime 2026' })).toHaveAttribute(
      'href',
      '/calls/12/',
    );
    expect(screen.getByRole('link', { name: 'Reminders' })).toHaveAttribute(
      'href',
      '/calls/12/reminders',
    );

    const table = screen.getByRole('table', { name: 'Members' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Assigned', 'Saved', 'Not started', 'Overdue', 'Last reminder', 'Progress']);
    expect(rowOf(table, 'Alan Turing')).toHaveTextContent(/Alan Turing3030Never0 %/);
    expect(rowOf(table, 'Grace Hopper')).not.toHaveTextContent('Never');
    expect(
      within(table).getByRole('progressbar', { name: 'Progress of Grace Hopper' }),
    ).toHaveAttribute('aria-valuenow', '25');
    // Nothing assigned counts as nothing left to do.
    expect(
      within(table).getByRole('progressbar', { name: 'Progress of Mary Short' }),
    ).toHaveAttribute('aria-valuenow', '100');
  });

  it('sorts the members by any column and finds them by name or username', async () => {
    const user = userEvent.setup();
    stubPage();
    const view = await openPage();
    const table = screen.getByRole('table', { name: 'Members' });
    expect(namesIn(table)).toEqual(['Alan Turing', 'Carla Chair', 'Grace Hopper', 'Mary Short']);

    await user.click(within(table).getByRole('button', { name: 'Not started' }));
    expect(namesIn(table)).toEqual(['Carla Chair', 'Mary Short', 'Grace Hopper', 'Alan Turing']);
    await user.click(within(table).getByRole('button', { name: 'Not started' }));
    expect(namesIn(table)).toEqual(['Grace Hopper', 'Alan Turing', 'Carla Chair', 'Mary Short']);
    expect(view.location()).toContain('members.sort=-notStarted');
    // "Never" is the oldest reminder of all.
    await user.click(within(table).getByRole('button', { name: 'Last reminder' }));
    expect(namesIn(table).at(-1)).toBe('Grace Hopper');
    await user.click(within(table).getByRole('button', { name: 'Progress' }));
    expect(namesIn(table)).toEqual(['Alan Turing', 'Grace Hopper', 'Carla Chair', 'Mary Short']);

    const search = screen.getByRole('searchbox', { name: 'Search members' });
    await user.type(search, 'TURING');
    expect(namesIn(screen.getByRole('table', { name: 'Members' }))).toEqual(['Alan Turing']);
    await user.clear(search);
    await user.type(search, 'mshort');
    expect(namesIn(screen.getByRole('table', { name: 'Members' }))).toEqual(['Mary Short']);
    await user.clear(search);
    await user.type(search, 'nobody');
    expect(screen.getByText('No member matches “nobody”.')).toBeVisible();
    expect(screen.queryByRole('table', { name: 'Members' })).toBeNull();
  });

  it('reminds the members selected after asking, says who was skipped, and shows the new last reminder', async () => {
    const user = userEvent.setup();
    let progress = makeProgress();
    const fetchStub = stubPage({
      [PROGRESS]: () => ({ body: progress }),
      [SEND]: () => {
        progress = makeProgress({
          members: MEMBER_PROGRESS.map((member) =>
            member.userId === 10 ? { ...member, lastReminded: '2026-04-21T09:30:00.000Z' } : member,
          ),
        });
        const answer: RemindNowResult = { sent: [10], skipped: [3] };
        return { body: answer };
      },
    });
    await openPage();
    const table = screen.getByRole('table', { name: 'Members' });
    const remind = screen.getByRole('button', { name: 'Remind selected' });
    expect(remind).toBeDisabled();

    await user.click(within(table).getByRole('checkbox', { name: 'Select Alan Turing' }));
    await user.click(within(table).getByRole('checkbox', { name: 'Select Carla Chair' }));
    expect(screen.getByText('2 selected')).toBeVisible();
    await user.click(remind);
    const dialog = await screen.findByRole('dialog', { name: 'Remind 2 members?' });
    expect(dialog).toHaveTextContent('with the reviewers’ reminder');
    // Cancel sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(apiCalls(fetchStub)).not.toContain(SEND);

    await user.click(remind);
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remind 2 members?' })).getByRole('button', {
        name: 'Send reminder',
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Reminded 1 member. Not reminded, having nothing to review: Carla Chair.',
    );
    expect(sentBody(fetchStub, SEND)).toEqual({ userIds: [10, 3] });
    // The list is asked again: Alan's last reminder is now, and the selection is cleared.
    await waitFor(() => expect(rowOf(table, 'Alan Turing')).not.toHaveTextContent('Never'));
    expect(screen.getByText('0 selected')).toBeVisible();
    expect(remind).toBeDisabled();
  });

  it('selects every member shown with Select all', async () => {
    const user = userEvent.setup();
    const fetchStub = stubPage({ [SEND]: { body: { sent: [3, 9, 11], skipped: [] } } });
    await openPage();
    await user.type(screen.getByRole('searchbox', { name: 'Search members' }), 'h');
    const table = screen.getByRole('table', { name: 'Members' });
    expect(namesIn(table)).toEqual(['Carla Chair', 'Grace Hopper', 'Mary Short']);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(screen.getByText('3 selected')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Remind selected' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remind 3 members?' })).getByRole('button', {
        name: 'Send reminder',
      }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Reminded 3 members\.$/);
    expect(sentBody(fetchStub, SEND)).toEqual({ userIds: [3, 9, 11] });
  });

  it('offers no reminding once the call is closed', async () => {
    const user = userEvent.setup();
    stubPage({
      'GET /calls/12/': {
        body: makeCall({ closed: true, abilities: { ...chairAbilities, remind: false } }),
      },
      [PROGRESS]: { body: makeProgress({ closed: true }) },
    });
    await openPage();
    await user.click(screen.getByRole('checkbox', { name: 'Select Grace Hopper' }));
    expect(screen.getByRole('button', { name: 'Remind selected' })).toBeDisabled();
    // Nothing changes by itself any more: the page is not asked again.
    expect(screen.queryByText('Updated every 30 seconds while review is open.')).toBeNull();
  });

  it('marks the proposals to discuss and those with a late conflict, and links each', async () => {
    const user = userEvent.setup();
    stubPage();
    await openPage();
    const table = screen.getByRole('table', { name: 'Proposals' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Proposal', 'Type', 'Reviews saved', 'Min score', 'Max score', 'Spread (sd)']);
    const dark = rowOf(table, 'Dark matter survey');
    expect(dark).toHaveTextContent(/Dark matter surveyStandard2 of 32\.009\.003\.5Discuss/);
    expect(within(dark).getByRole('link', { name: 'Dark matter survey' })).toHaveAttribute(
      'href',
      '/calls/12/proposals/30/',
    );
    await user.hover(within(dark).getByText('Discuss'));
    expect(
      await screen.findByRole('tooltip', {
        name: 'The scores spread widely: the committee should discuss this proposal.',
      }),
    ).toBeVisible();
    // A spread under the call's wide one is not marked; no scores, no spread.
    expect(within(rowOf(table, 'Axion search')).queryByText('Discuss')).toBeNull();
    expect(within(rowOf(table, 'Axion search')).getByText('Late conflict')).toBeVisible();
    expect(rowOf(table, 'Neutrino mass')).toHaveTextContent(/0 of 3—.*—.*—/);
    expect(within(rowOf(table, 'Dark matter survey')).queryByText('Late conflict')).toBeNull();

    await user.click(within(table).getByRole('button', { name: 'Spread (sd)' }));
    expect(linksIn(table)).toEqual(['Axion search', 'Dark matter survey', 'Neutrino mass']);
    await user.click(within(table).getByRole('button', { name: 'Reviews saved' }));
    // By the share saved: none of 3, 1 of 2, 2 of 3.
    expect(linksIn(table)).toEqual(['Neutrino mass', 'Axion search', 'Dark matter survey']);
  });

  it('says what to do when nothing is submitted yet, or nobody is assigned', async () => {
    stubPage({
      [PROGRESS]: {
        body: makeProgress({
          proposals: [],
          members: [],
          totals: { saved: 0, wanted: 0, withoutReview: 0, wideSpread: null },
          savesPerDay: [],
        }),
      },
    });
    const view = await openPage();
    expect(
      await screen.findByText(/No proposal has been submitted to this call yet/),
    ).toBeVisible();
    view.unmount();

    stubPage({
      [PROGRESS]: {
        body: makeProgress({
          members: MEMBER_PROGRESS.map((member) => ({
            ...member,
            assigned: 0,
            saved: 0,
            notStarted: 0,
          })),
          totals: { saved: 0, wanted: 8, withoutReview: 3, wideSpread: null },
          savesPerDay: [],
        }),
      },
    });
    await openPage();
    expect(screen.getByText(/Nobody has been assigned a review yet/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Assign Reviewers' })).toHaveAttribute(
      'href',
      '/calls/12/assignment',
    );
    expect(screen.getByRole('img', { name: 'Reviews saved per day' })).toHaveAccessibleDescription(
      `No review has been saved yet. Review closes on ${REVIEW_CLOSES}.`,
    );
  });

  it('asks again every 30 seconds while review is open', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], shouldAdvanceTime: true });
    vi.setSystemTime(new Date('2026-04-20T12:00:00.000Z'));
    const fetchStub = stubPage();
    await openPage();
    expect(await screen.findByText('Updated every 30 seconds while review is open.')).toBeVisible();
    const asked = () => apiCalls(fetchStub).filter((call) => call === PROGRESS).length;
    expect(asked()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await waitFor(() => expect(asked()).toBe(2));
  });

  it('shows nothing to a member who may not follow the review', async () => {
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall() },
    });
    renderApp('/calls/12/progress', { token: 'k' });
    expect(
      await screen.findByRole('heading', { name: 'Access denied' }, AFTER_NAVIGATION),
    ).toBeVisible();
    expect(apiCalls(fetchStub)).not.toContain(PROGRESS);
  });
});
