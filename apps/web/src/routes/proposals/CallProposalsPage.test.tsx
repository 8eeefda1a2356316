import type { CallProposal } from '@merit/contract';
import { fileMessages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { chairAbilities, makeCall } from '../../features/calls/calls.fixtures';
import { resourceKey } from '../../features/proposals/chair/resource-sort';
import { makeCallProposal } from '../../features/proposals/proposals.fixtures';
import { makeReviewFormOrder } from '../../features/reviews/reviews.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

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

describe('CallProposalsPage', () => {
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
    ).toEqual(['Type', 'Name', 'Proposal Author', 'State', 'Actions']);
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

  it('offers View Reviews on the rows whose reviews the caller sees (a chair’s), never a draft’s', async () => {
    const grace = { id: 11, name: 'Grace Hopper' };
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
      // The server sends a row's reviewers only to those who see its reviews.
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=name': page([
        mine,
        { ...theirs, state: 'Submitted', stateVal: 1, reviewers: [grace] },
        // A draft has no reviews to view, even with a reviewer assigned...
        {
          ...submitted,
          id: 33,
          proposalName: 'Early draft',
          state: 'Draft',
          stateVal: 0,
          reviewers: [grace],
          allReviewScores: [],
        },
        // ...unless its author retracted it after a review.
        {
          ...submitted,
          id: 34,
          proposalName: 'Retracted',
          state: 'Draft',
          stateVal: 0,
          reviewers: [grace],
          allReviewScores: [{ reviewer: grace, scores: [], score: 3 }],
        },
      ]),
    });
    renderApp('/calls/12/proposals/', { token: 'k' });
    const table = await screen.findByRole(
      'table',
      { name: 'Proposals of Beamtime 2026' },
      AFTER_NAVIGATION,
    );
    expect(within(table).getByRole('link', { name: 'View Reviews of Comet dust' })).toHaveAttribute(
      'href',
      '/calls/12/proposals/31/reviews/',
    );
    expect(
      within(table).queryByRole('link', { name: 'View Reviews of Dark matter survey' }),
    ).not.toBeInTheDocument();
    expect(
      within(table).queryByRole('link', { name: 'View Reviews of Early draft' }),
    ).not.toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'View Proposal Early draft' })).toBeVisible();
    expect(within(table).getByRole('link', { name: 'View Reviews of Retracted' })).toBeVisible();
  });

  it('says so when the PDF of a proposal cannot be made, and lets the next one be asked for', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall() },
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=name': page([mine, theirs]),
      'POST /download_tickets/': {
        body: {
          url: '/api/v1/download_proposal_extract/30/?ticket=once',
          expires: '2026-03-02T10:01:00.000Z',
        },
      },
      'GET /download_proposal_extract/30/?ticket=once': {
        status: 500,
        body: { detail: 'Something went wrong on our side.', code: 'internal' },
      },
    });
    renderApp('/calls/12/proposals/', { token: 'k' });
    const pdf = await screen.findByRole(
      'button',
      { name: 'PDF of Dark matter survey' },
      AFTER_NAVIGATION,
    );
    await user.click(pdf);

    expect(await screen.findByText(fileMessages.pdfFailed)).toBeVisible();
    expect(sentBody(fetchStub, 'POST /download_tickets/')).toEqual({ proposalExtract: 30 });
    // The ticket went in the address, never the token: the request carried no header for it.
    const [, init] = fetchStub.mock.calls.find(([input]) =>
      String(input).startsWith('/api/v1/download_proposal_extract/'),
    )!;
    expect(init?.headers).toBeUndefined();
    expect(screen.queryByText(/Making the PDF/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'PDF of Comet dust' })).toBeEnabled();
  });
});

describe('CallProposalsPage, the chair’s view', () => {
  const rebecca = { id: 21, name: 'Rebecca Reviewer' };
  const galaxy = makeCallProposal({
    id: 40,
    proposalName: 'Galaxy survey',
    author: 'Ada Author',
    state: 'Reviewed',
    stateVal: 2,
    editable: false,
    reviewers: [rebecca],
    isReviewed: true,
    reviewScores: [
      { name: 'significance', value: 3 },
      { name: 'result', value: 3.25 },
    ],
    score: 3.25,
    resourceValues: { ATCA: { hours: 12.5 }, Parkes: { hours: 4 } },
    allReviewScores: [],
    allReviewComments: [],
  });
  const pulsar = makeCallProposal({
    id: 41,
    proposalName: 'Pulsar timing',
    author: 'Bob Writer',
    state: 'Submitted',
    stateVal: 1,
    editable: false,
    reviewers: [],
    isReviewed: false,
    reviewScores: [{ name: 'result', value: null }],
    score: null,
    resourceValues: { Parkes: { hours: 6 } },
    allReviewScores: [],
    allReviewComments: [],
  });
  const chairPage = (
    items: CallProposal[],
    sort = 'name',
    resourceTitles: Record<string, string> = {},
  ) => ({
    body: {
      ...page(items, sort).body,
      resourceTotals: { ATCA: { hours: 12.5 }, Parkes: { hours: 10 } },
      facilities: ['ATCA', 'Parkes'],
      resourceTitles,
    },
  });
  const scoreForm = makeReviewFormOrder();

  it('shows reviewers, a column per facility and field, average scores and the review score', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=name': chairPage([galaxy, pulsar]),
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=score': chairPage([galaxy, pulsar]),
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=-score': chairPage([galaxy, pulsar]),
      // Pretend orders, unlike the page's, to tell the server's order from a browser sort.
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=resource&sortFacility=ATCA&sortField=hours':
        chairPage([pulsar, galaxy], 'resource'),
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=-resource&sortFacility=ATCA&sortField=hours':
        chairPage([galaxy, pulsar], '-resource'),
      'GET /review_form_order/12/': { body: scoreForm },
    });
    onTestFinished(() => window.localStorage.clear());
    const view = renderApp('/calls/12/proposals/', { token: 'k' });
    const headers = async () =>
      within(
        await screen.findByRole('table', { name: 'Proposals of Beamtime 2026' }, AFTER_NAVIGATION),
      )
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent);
    // By default the columns that fit the page; the row's name stays in view sideways.
    expect(await headers()).toEqual([
      'Type',
      'Name',
      'Proposal Author',
      'State',
      'Review Score',
      'Actions',
    ]);
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveStyle({
      position: 'sticky',
      left: '0px',
    });
    // Columns: a menu of checkboxes, by the keyboard as well.
    const picker = screen.getByRole('button', { name: 'Columns (5 of 9)' });
    picker.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Columns to show' });
    const option = (name: string) => within(menu).getByRole('menuitemcheckbox', { name });
    expect(option('Name')).toHaveAttribute('aria-checked', 'true');
    expect(option('Name')).toHaveAttribute('aria-disabled', 'true');
    expect(option('Reviewers')).toHaveAttribute('aria-checked', 'false');
    await user.click(option('Reviewers'));
    await user.click(option('ATCA: hours'));
    option('Parkes: hours').focus();
    await user.keyboard(' ');
    await user.click(option('Average Field Scores'));
    expect(option('Reviewers')).toHaveAttribute('aria-checked', 'true');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    // Remembered for this call in this browser.
    expect(JSON.parse(window.localStorage.getItem('merit.callProposals.columns.12')!)).toEqual({
      reviewers: true,
      [resourceKey({ facility: 'ATCA', field: 'hours' })]: true,
      [resourceKey({ facility: 'Parkes', field: 'hours' })]: true,
      averageFieldScores: true,
    });
    const table = screen.getByRole('table', { name: 'Proposals of Beamtime 2026' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Type',
      'Name',
      'Proposal Author',
      'State',
      'Reviewers',
      'ATCA: hours',
      'Parkes: hours',
      'Average Field Scores',
      'Review Score',
      'Actions',
    ]);
    const cells = (name: string) =>
      within(within(table).getByRole('cell', { name }).closest('tr')!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(await screen.findByRole('cell', { name: 'Significance 3.00' })).toBeInTheDocument();
    expect(cells('Galaxy survey').slice(4, 9)).toEqual([
      'Rebecca Reviewer',
      '12.5',
      '4',
      'Significance 3.00',
      '3.25',
    ]);
    expect(cells('Pulsar timing').slice(4, 9)).toEqual(['None', 'N/A', '6', 'N/A', 'N/A']);

    // Resource Totals: the whole call's, per facility and field.
    const totals = screen.getByRole('table', { name: 'Resource Totals' });
    expect(
      within(totals)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['FacilityFieldTotal', 'ATCAhours12.5', 'Parkeshours10']);

    // Review Score sorts on the server.
    const currentTable = () => screen.getByRole('table', { name: 'Proposals of Beamtime 2026' });
    await user.click(within(currentTable()).getByRole('button', { name: 'Review Score' }));
    expect(view.location()).toBe('/calls/12/proposals/?sort=score');
    await user.click(within(currentTable()).getByRole('button', { name: 'Review Score' }));
    expect(view.location()).toBe('/calls/12/proposals/?sort=-score');
    expect(apiCalls(fetchStub)).toContain(
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=-score',
    );

    // A resource column sorts on the server too, across the whole call: the rows show
    // in the order the server sent them.
    const names = () =>
      within(currentTable())
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[1]!.textContent);
    await user.click(within(currentTable()).getByRole('button', { name: 'ATCA: hours' }));
    expect(view.location()).toBe(
      `/calls/12/proposals/?sort=${encodeURIComponent('resource.["ATCA","hours"]')}`,
    );
    await waitFor(() => expect(names()).toEqual(['Pulsar timing', 'Galaxy survey']));
    await user.click(within(currentTable()).getByRole('button', { name: 'ATCA: hours' }));
    await waitFor(() => expect(names()).toEqual(['Galaxy survey', 'Pulsar timing']));
    expect(
      within(currentTable()).getByRole('columnheader', { name: 'ATCA: hours' }),
    ).toHaveAttribute('aria-sort', 'descending');
    expect(apiCalls(fetchStub)).toEqual(
      expect.arrayContaining([
        'GET /calls/12/proposals/?page=1&pageSize=10&sort=resource&sortFacility=ATCA&sortField=hours',
        'GET /calls/12/proposals/?page=1&pageSize=10&sort=-resource&sortFacility=ATCA&sortField=hours',
      ]),
    );
  });

  it('Filter by Facility lists that facility’s proposals with its columns and totals, sorted by its field', async () => {
    const user = userEvent.setup();
    const titles = { hours: 'Observing hours' };
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=name': chairPage([galaxy, pulsar]),
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=-resource&sortFacility=ATCA&sortField=hours':
        chairPage([galaxy, pulsar], '-resource', titles),
      // The server lists only the proposals that ask something of Parkes.
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=-resource&sortFacility=Parkes&sortField=hours&facility=Parkes':
        chairPage([pulsar], '-resource', titles),
      'GET /review_form_order/12/': { body: scoreForm },
    });
    const atcaHours = encodeURIComponent('resource.["ATCA","hours"]');
    const view = renderApp(`/calls/12/proposals/?sort=-${atcaHours}`, { token: 'k' });
    const filter = await screen.findByRole(
      'combobox',
      { name: 'Filter by Facility' },
      AFTER_NAVIGATION,
    );
    await user.selectOptions(filter, 'Parkes');
    // Sorted by ATCA hours, the list now sorts by Parkes hours: the column it shows.
    expect(view.location()).toBe(
      `/calls/12/proposals/?sort=-${encodeURIComponent('resource.["Parkes","hours"]')}&facility=Parkes`,
    );
    const currentTable = () => screen.getByRole('table', { name: 'Proposals of Beamtime 2026' });
    // The facility's column shows (the field by its form's title), the other's not.
    await waitFor(() =>
      expect(
        within(currentTable()).getByRole('columnheader', { name: 'Parkes: Observing hours' }),
      ).toHaveAttribute('aria-sort', 'descending'),
    );
    const headers = within(currentTable())
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).not.toContain('ATCA: Observing hours');
    // Only the proposals asking something of Parkes.
    const names = () =>
      within(currentTable())
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[1]!.textContent);
    expect(names()).toEqual(['Pulsar timing']);
    expect(apiCalls(fetchStub)).toContain(
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=-resource&sortFacility=Parkes&sortField=hours&facility=Parkes',
    );
    // The totals are those of the rows shown: Parkes's.
    const totals = screen.getByRole('table', { name: 'Resource Totals' });
    expect(
      within(totals)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['FacilityFieldTotal', 'ParkesObserving hours10']);
  });

  it('makes a download from one request for the type’s rows, showing its progress', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=name': chairPage([galaxy, pulsar]),
      'GET /review_form_order/12/': { body: scoreForm },
      // The Standard type's download asks for that type's rows only, with their decisions.
      'GET /calls/12/proposals/export/?include=decisions&type=40': {
        body: {
          items: [galaxy, pulsar],
          total: 2,
          resourceTotals: { ATCA: { hours: 12.5 }, Parkes: { hours: 10 } },
          facilities: ['ATCA', 'Parkes'],
          resourceTitles: { hours: 'Observing hours' },
        },
      },
    });
    // The export's answer waits until the test has seen the progress.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/export/')) await answered;
      return fetchStub(input, init);
    });
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:export';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    onTestFinished(() => click.mockRestore());

    renderApp('/calls/12/proposals/', { token: 'k' });
    await user.click(
      await screen.findByRole('button', { name: 'Download CSV Files: Standard' }, AFTER_NAVIGATION),
    );
    await user.click(screen.getByRole('menuitem', { name: 'Resources (CSV)' }));
    expect(await screen.findByText('Fetching the proposals of the call…')).toBeVisible();
    expect(screen.getByRole('progressbar', { name: 'Preparing the download' })).toBeVisible();
    answer();
    await waitFor(() => expect(click).toHaveBeenCalled());
    // Named by call, type and kind; UTF-8 with a byte order mark; fields by their titles.
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe(
      'Beamtime 2026 - Standard - Resources.csv',
    );
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = await blobs[0]!.text();
    expect(text.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'Proposal ID,Proposal,Proposal Author,State,ATCA: Observing hours,Parkes: Observing hours',
      '40,Galaxy survey,Ada Author,Reviewed,12.5,4',
      '41,Pulsar timing,Bob Writer,Submitted,N/A,6',
    ]);
    await waitFor(() =>
      expect(
        screen.queryByRole('progressbar', { name: 'Preparing the download' }),
      ).not.toBeInTheDocument(),
    );
    // One request for every row of the type, not page after page.
    expect(apiCalls(fetchStub).filter((call) => call.includes('/proposals/'))).toEqual([
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=name',
      'GET /calls/12/proposals/export/?include=decisions&type=40',
    ]);
  });

  it('shows an author none of the chair’s columns, filters or downloads', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall() },
      'GET /calls/12/proposals/?page=1&pageSize=10&sort=name': page([mine]),
    });
    renderApp('/calls/12/proposals/', { token: 'k' });
    const table = await screen.findByRole(
      'table',
      { name: 'Proposals of Beamtime 2026' },
      AFTER_NAVIGATION,
    );
    expect(within(table).getAllByRole('columnheader')).toHaveLength(5);
    expect(screen.queryByRole('combobox', { name: 'Filter by Facility' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Resource Totals' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Download CSV Files/ })).not.toBeInTheDocument();
  });
});
