import type { MatrixResponse } from '@merit/contract';
import { assignmentMessages } from '@merit/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';
import { chairAbilities, makeCall } from '../calls/calls.fixtures';
import { makeMatrix, makeMatrixRow } from './assignment.fixtures';

const carla = makeUser({ id: 3, username: 'carla', first_name: 'Carla', last_name: 'Chair' });
const FIRST_PAGE = 'GET /calls/12/assignment/matrix/?page=1&page_size=200';

/**
 * A window of 1200 x 600 pixels for the grid: jsdom has no layout, and the virtualiser
 * draws only the rows and columns that fit in its scroller.
 */
function stubLayout() {
  const width = vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(1200);
  const height = vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(600);
  onTestFinished(() => {
    width.mockRestore();
    height.mockRestore();
  });
}

function stubPage(extra: Parameters<typeof stubApi>[0] = {}) {
  stubLayout();
  return stubApi({
    'GET /user_details/': { body: carla },
    'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
    [FIRST_PAGE]: { body: makeMatrix() },
    ...extra,
  });
}

async function openMatrix(path = '/calls/12/assignment/matrix') {
  const view = renderApp(path, { token: 'k' });
  await screen.findByRole('heading', { level: 1, name: 'Assignment Matrix' }, AFTER_NAVIGATION);
  return view;
}

const cell = (name: RegExp | string) => screen.findByRole('button', { name });

/** The bodies sent to "METHOD /reviewers/", in order. */
const reviewerBodies = (fetchStub: ReturnType<typeof stubApi>, method: string) =>
  fetchStub.mock.calls
    .filter(([input, init]) => init?.method === method && String(input).endsWith('/reviewers/'))
    .map(([, init]) => JSON.parse(String(init!.body)) as unknown);

/** `n` proposals named "Proposal 1" on, from id `from`. */
const manyRows = (n: number, from = 1) =>
  Array.from({ length: n }, (_, index) =>
    makeMatrixRow({ proposalId: from + index, name: `Proposal ${from + index}`, cells: [] }),
  );

describe('the Assignment Matrix', () => {
  it('shows each member’s load and cap, each proposal’s count, and each cell in words', async () => {
    stubPage();
    await openMatrix();
    const grid = await screen.findByRole('grid', { name: 'Reviewers of Beamtime 2026' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Proposal', 'Carla Chair1/4', 'Grace Hopper2/4', 'Alan Turing5/5']);
    expect(
      within(grid).getByRole('button', { name: '1/3 reviews for Dark matter survey' }),
    ).toHaveTextContent('1/3');
    expect(
      await cell('Dark matter survey — Grace Hopper: Assigned, Locked, Eager'),
    ).toBeInTheDocument();
    expect(await cell('Axion search — Carla Chair: Not assigned, Reluctant')).toBeInTheDocument();
    expect(await cell('Axion search — Grace Hopper: Not assigned')).toBeInTheDocument();
    const conflict = await cell('Dark matter survey — Alan Turing: Not assigned, Conflict');
    expect(conflict).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByText('2 proposals')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Assign Reviewers' })).toHaveAttribute(
      'href',
      '/calls/12/assignment',
    );
  });

  it('assigns with a click, asks before passing a cap, and counts the change in place', async () => {
    const user = userEvent.setup();
    const detail = assignmentMessages.overCap('Alan Turing', 5);
    const fetchStub = stubPage({
      'POST /reviewers/': ({ body }) =>
        (body as { overCap?: boolean }).overCap
          ? { status: 201, body: { id: 10, name: 'Alan Turing' } }
          : { status: 409, body: { detail, code: 'over_cap' } },
    });
    await openMatrix();
    await user.click(await cell('Axion search — Alan Turing: Not assigned'));
    const ask = await screen.findByRole('dialog', { name: 'Assign over the cap?' });
    expect(ask).toHaveTextContent(`${detail} Assign anyway?`);
    await user.click(within(ask).getByRole('button', { name: 'Assign anyway' }));

    expect(await cell('Axion search — Alan Turing: Assigned')).toBeInTheDocument();
    expect(reviewerBodies(fetchStub, 'POST')).toEqual([
      { proposalId: 31, userId: 10 },
      { proposalId: 31, userId: 10, overCap: true },
    ]);
    const grid = screen.getByRole('grid');
    expect(within(grid).getByRole('columnheader', { name: /Alan Turing/ })).toHaveTextContent(
      '6/5',
    );
    expect(
      within(grid).getByRole('button', { name: '1/2 reviews for Axion search' }),
    ).toBeInTheDocument();
    // The page's own answers were kept: nothing was asked again.
    expect(apiCalls(fetchStub).filter((call) => call === FIRST_PAGE)).toHaveLength(1);
  });

  it('takes back an assignment only after asking, and leaves a conflict alone', async () => {
    const user = userEvent.setup();
    const fetchStub = stubPage({ 'DELETE /reviewers/': { status: 204 } });
    await openMatrix();
    await user.click(await cell('Dark matter survey — Alan Turing: Not assigned, Conflict'));
    await user.click(await cell(/^Dark matter survey — Grace Hopper: Assigned/));
    const confirm = await screen.findByRole('dialog', {
      name: 'Grace Hopper reviews “Dark matter survey”',
    });
    expect(confirm).toHaveTextContent(
      'Grace Hopper will no longer be asked to review “Dark matter survey”',
    );
    // Cancel has the focus: a reflexive Enter takes nothing back.
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(
      await cell('Dark matter survey — Grace Hopper: Not assigned, Eager'),
    ).toBeInTheDocument();
    expect(reviewerBodies(fetchStub, 'DELETE')).toEqual([{ proposalId: 30, userId: 9 }]);
    expect(reviewerBodies(fetchStub, 'POST')).toEqual([]);
    expect(
      screen.getByRole('button', { name: '0/3 reviews for Dark matter survey' }),
    ).toBeVisible();
  });

  it('unlocks and locks an assignment, so that Propose may or may not take it back', async () => {
    const user = userEvent.setup();
    const fetchStub = stubPage({
      'PATCH /calls/12/assignment/locks/': ({ body }) => ({ body }),
    });
    await openMatrix();
    await user.click(await cell('Dark matter survey — Grace Hopper: Assigned, Locked, Eager'));
    let dialog = await screen.findByRole('dialog', {
      name: 'Grace Hopper reviews “Dark matter survey”',
    });
    expect(dialog).toHaveTextContent('This assignment is locked');
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(
      await screen.findByText(
        'Grace Hopper’s assignment to “Dark matter survey” is no longer locked.',
      ),
    ).toBeVisible();
    const unlocked = await cell('Dark matter survey — Grace Hopper: Assigned, Eager');

    await user.click(unlocked);
    dialog = await screen.findByRole('dialog', {
      name: 'Grace Hopper reviews “Dark matter survey”',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Lock' }));
    expect(
      await cell('Dark matter survey — Grace Hopper: Assigned, Locked, Eager'),
    ).toBeInTheDocument();
    expect(
      fetchStub.mock.calls
        .filter(([, init]) => init?.method === 'PATCH')
        .map(([, init]) => JSON.parse(String(init!.body)) as unknown),
    ).toEqual([
      { proposalId: 30, userId: 9, locked: false },
      { proposalId: 30, userId: 9, locked: true },
    ]);
    expect(reviewerBodies(fetchStub, 'DELETE')).toEqual([]);
  });

  it('shows a refusal in red', async () => {
    const user = userEvent.setup();
    stubPage({
      'POST /reviewers/': {
        status: 409,
        body: { detail: assignmentMessages.callClosed, code: 'conflict' },
      },
    });
    await openMatrix();
    await user.click(await cell('Axion search — Grace Hopper: Not assigned'));
    expect(await screen.findByRole('alert')).toHaveTextContent(assignmentMessages.callClosed);
    expect(await cell('Axion search — Grace Hopper: Not assigned')).toBeInTheDocument();
  });

  it('moves between cells with the arrow keys and assigns with Enter', async () => {
    const user = userEvent.setup();
    const fetchStub = stubPage({
      'POST /reviewers/': { status: 201, body: { id: 9, name: 'Grace Hopper' } },
    });
    await openMatrix();
    const first = await cell('Dark matter survey — Carla Chair: Not assigned');
    // One cell of the grid is in the Tab order.
    expect(first).toHaveAttribute('tabindex', '0');
    first.focus();
    await user.keyboard('{ArrowDown}');
    expect(await cell('Axion search — Carla Chair: Not assigned, Reluctant')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    const grace = await cell('Axion search — Grace Hopper: Not assigned');
    expect(grace).toHaveFocus();
    expect(grace).toHaveAttribute('tabindex', '0');
    expect(first).toHaveAttribute('tabindex', '-1');
    await user.keyboard('{Enter}');
    expect(await cell('Axion search — Grace Hopper: Assigned')).toBeInTheDocument();
    expect(reviewerBodies(fetchStub, 'POST')).toEqual([{ proposalId: 31, userId: 9 }]);
    // Left of the first member is the proposal's count, which opens its k.
    await user.keyboard('{Home}');
    expect(screen.getByRole('button', { name: '1/2 reviews for Axion search' })).toHaveFocus();
    await user.keyboard(' ');
    expect(await screen.findByRole('dialog', { name: 'Reviews wanted' })).toBeVisible();
  });

  it('filters by name, type, facility and what is short, through the address', async () => {
    const user = userEvent.setup();
    const filtered = makeMatrix({ count: 0, rows: [] });
    const fetchStub = stubPage({
      'GET /calls/12/assignment/matrix/?page=1&page_size=200&search=axion': { body: filtered },
      'GET /calls/12/assignment/matrix/?page=1&page_size=200&search=axion&type=40': {
        body: filtered,
      },
      'GET /calls/12/assignment/matrix/?page=1&page_size=200&search=axion&type=40&facility=Beamline+1':
        { body: filtered },
      'GET /calls/12/assignment/matrix/?page=1&page_size=200&search=axion&type=40&facility=Beamline+1&show=under':
        { body: filtered },
    });
    const { location } = await openMatrix();
    await screen.findByRole('grid');
    await user.type(screen.getByRole('searchbox', { name: 'Search proposals' }), 'axion');
    expect(await screen.findByText('No proposal matches these filters.')).toBeVisible();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Standard');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Facility' }), 'Beamline 1');
    const show = screen.getByRole('group', { name: 'Show' });
    expect(within(show).getByRole('button', { name: 'All' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.click(within(show).getByRole('button', { name: 'Under k' }));
    await waitFor(() =>
      expect(location()).toBe(
        '/calls/12/assignment/matrix?q=axion&type=40&facility=Beamline+1&show=under',
      ),
    );
    await waitFor(() =>
      expect(apiCalls(fetchStub)).toContain(
        'GET /calls/12/assignment/matrix/?page=1&page_size=200&search=axion&type=40&facility=Beamline+1&show=under',
      ),
    );
  });

  it('says when the call has no submitted proposals', async () => {
    stubPage({ [FIRST_PAGE]: { body: makeMatrix({ count: 0, rows: [] }) } });
    await openMatrix();
    expect(await screen.findByText('No submitted proposals yet.')).toBeVisible();
    expect(screen.queryByRole('grid')).toBeNull();
  });

  it('asks for the next 200 rows as the chair scrolls near the end', async () => {
    const page = (number: number): MatrixResponse =>
      makeMatrix({ count: 400, page: number, rows: manyRows(200, 1 + (number - 1) * 200) });
    const fetchStub = stubPage({
      [FIRST_PAGE]: { body: page(1) },
      'GET /calls/12/assignment/matrix/?page=2&page_size=200': { body: page(2) },
    });
    await openMatrix();
    const grid = await screen.findByRole('grid');
    expect(await screen.findByText('200 of 400 proposals loaded')).toBeVisible();
    // Only what fits is drawn.
    expect(within(grid).getAllByRole('rowheader').length).toBeLessThan(40);
    expect(apiCalls(fetchStub)).not.toContain(
      'GET /calls/12/assignment/matrix/?page=2&page_size=200',
    );

    grid.scrollTop = 180 * 44;
    fireEvent.scroll(grid);
    expect(await screen.findByText('400 proposals')).toBeVisible();
    expect(grid).toHaveAttribute('aria-rowcount', '401');
  });

  it('sets one proposal’s k from its count', async () => {
    const user = userEvent.setup();
    const fetchStub = stubPage({
      'PATCH /calls/12/assignment/settings/': {
        body: {
          reviewsPerProposal: 3,
          perProposal: { '30': 4 },
          caps: {},
          biddingOpen: false,
          biddingShowsProposals: false,
        },
      },
    });
    await openMatrix();
    await user.click(
      await screen.findByRole('button', { name: '1/3 reviews for Dark matter survey' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Reviews wanted' });
    const field = within(dialog).getByRole('spinbutton', {
      name: 'Reviews wanted for this proposal',
    });
    expect(field).toHaveValue(3);
    await user.clear(field);
    await user.type(field, '4');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('“Dark matter survey” now wants 4 reviews.')).toBeVisible();
    expect(
      await screen.findByRole('button', { name: '1/4 reviews for Dark matter survey' }),
    ).toBeInTheDocument();
    const patch = fetchStub.mock.calls.find(([, init]) => init?.method === 'PATCH')!;
    expect(JSON.parse(String(patch[1]!.body))).toEqual({ perProposal: { '30': 4 } });
  });
});
