import type { DecisionSave, ProposalDecision } from '@merit/contract';
import { decisionMessages, messages } from '@merit/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';
import { chairAbilities, makeCall } from '../calls/calls.fixtures';
import { CAPACITIES_SAVED } from './CapacityDialog';
import { makeCapacity, makeDecision, makeRanking, makeRankingRow } from './decisions.fixtures';

/** Carla (3), a chair of the call's committee. */
const carla = makeUser({ id: 3, username: 'carla', first_name: 'Carla', last_name: 'Chair' });

const RANKING = 'GET /calls/12/ranking/';
const CAPACITY = 'GET /calls/12/capacity/';
const SAVE_CAPACITY = 'PUT /calls/12/capacity/';
const FROM_LINE = 'POST /calls/12/ranking/outcomes/';
const MOVE = 'POST /calls/12/ranking/move/';
const decisionOf = (proposalId: number) => `POST /proposals/${proposalId}/decision/`;

type Stubs = Parameters<typeof stubApi>[0];

function stubPage(extra: Stubs = {}) {
  return stubApi({
    'GET /user_details/': { body: carla },
    'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
    [RANKING]: { body: makeRanking() },
    ...extra,
  });
}

async function openPage(path = '/calls/12/ranking') {
  const view = renderApp(path, { token: 'k' });
  await screen.findByRole('heading', { level: 1, name: 'Ranking' }, AFTER_NAVIGATION);
  await screen.findByText(/^Rank$|^No proposal/);
  return { ...view, user: userEvent.setup() };
}

/** The ranking's rows top to bottom: a proposal's name, or a line's words. */
const rowsOf = () =>
  within(screen.getByRole('table', { name: 'Ranking' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).queryByRole('link')?.textContent ?? row.textContent);

const rowOf = (name: string) =>
  within(screen.getByRole('table', { name: 'Ranking' }))
    .getAllByRole('row')
    .find((row) => within(row).queryByRole('link', { name }))!;

/** The bodies sent to "METHOD /path", in order. */
function bodiesOf(fetchStub: ReturnType<typeof stubApi>, call: string): unknown[] {
  return fetchStub.mock.calls
    .filter((_c, index) => apiCalls(fetchStub)[index] === call)
    .map(([, init]) => JSON.parse(init!.body as string));
}

describe('the Ranking page', () => {
  it('lists the proposals in rank order with the line, the totals and the oversubscription', async () => {
    stubPage({ [RANKING]: { body: makeRanking({ hidden: 2 }) } });
    await openPage();
    expect(document.title).toBe('Ranking · Merit');
    expect(rowsOf()).toEqual(['Alpha', 'Capacity of Telescope A reached', 'Beta', 'Gamma']);
    expect(screen.getByText('2 proposals you are conflicted on are not shown.')).toBeVisible();

    const alpha = rowOf('Alpha');
    const cells = within(alpha).getAllByRole('cell');
    // Rank, proposal, type, score (two decimals), asked, running total.
    expect(cells.slice(0, 6).map((cell) => cell.textContent)).toEqual([
      '1',
      'Alpha',
      'Standard',
      '4.50',
      '6',
      '6',
    ]);
    expect(within(rowOf('Beta')).getAllByRole('cell')[5]).toHaveTextContent('11');
    expect(rowOf('Gamma')).toHaveTextContent('Moved by Alan Turing: Urgent follow-up');
    expect(within(alpha).getByRole('link', { name: 'Alpha' })).toHaveAttribute(
      'href',
      '/calls/12/proposals/30/',
    );
    // Gamma is not Carla's to decide: its outcome and award read only, and no Move.
    expect(within(rowOf('Gamma')).queryByRole('combobox')).toBeNull();
    expect(rowOf('Gamma')).toHaveTextContent('Approved');
    expect(screen.queryByRole('button', { name: 'Move Gamma' })).toBeNull();

    const summary = screen.getByRole('table', { name: 'Capacity and awards' });
    const line = within(summary).getAllByRole('row')[1]!;
    expect(
      within(line)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Telescope A',
      'Nights',
      '10',
      '14',
      '12',
      '140 %, above capacity',
      '120 %, above capacity',
    ]);
    // Above capacity: in the error colour, with an icon and words, not the colour alone.
    const awardedShare = within(line).getAllByRole('cell')[6]!;
    expect(awardedShare.querySelector('svg')).not.toBeNull();
    expect(getComputedStyle(awardedShare).color).not.toBe(
      getComputedStyle(within(line).getAllByRole('cell')[4]!).color,
    );
  });

  it('draws no red within capacity', async () => {
    stubPage({
      [RANKING]: {
        body: makeRanking({
          lines: [
            {
              ...makeRanking().lines[0]!,
              capacity: 20,
              firstBelow: null,
              oversubscription: 0.7,
              awardedShare: 0.6,
              overAwarded: false,
            },
          ],
        }),
      },
    });
    await openPage();
    expect(rowsOf()).toEqual(['Alpha', 'Beta', 'Gamma']);
    const line = within(screen.getByRole('table', { name: 'Capacity and awards' })).getAllByRole(
      'row',
    )[1]!;
    expect(within(line).getAllByRole('cell')[6]).toHaveTextContent(/^60 %$/);
    expect(line.querySelector('svg')).toBeNull();
  });

  it('keeps the filters in the address and asks the server for them', async () => {
    const fetchStub = stubPage({
      'GET /calls/12/ranking/?type=41': { body: makeRanking({ rows: [makeRanking().rows[2]!] }) },
      'GET /calls/12/ranking/?facility=Telescope+A&type=41': {
        body: makeRanking({ rows: [makeRanking().rows[2]!] }),
      },
    });
    const { user, location } = await openPage('/calls/12/ranking?type=41');
    expect(apiCalls(fetchStub)).toContain('GET /calls/12/ranking/?type=41');
    expect(apiCalls(fetchStub)).not.toContain(RANKING);
    // Its rank stays the whole call's, and so does the line above it.
    expect(rowsOf()).toEqual(['Capacity of Telescope A reached', 'Gamma']);
    expect(within(rowOf('Gamma')).getAllByRole('cell')[0]).toHaveTextContent('3');
    expect(screen.getByRole('combobox', { name: 'Filter by Type' })).toHaveDisplayValue('Rapid');

    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Filter by Facility' }),
      'Telescope A',
    );
    await waitFor(() => expect(location()).toBe('/calls/12/ranking?type=41&facility=Telescope+A'));
    await waitFor(() =>
      expect(apiCalls(fetchStub)).toContain('GET /calls/12/ranking/?facility=Telescope+A&type=41'),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by Type' }), 'All types');
    await waitFor(() => expect(location()).toBe('/calls/12/ranking?facility=Telescope+A'));
  });

  it('says what to do when nothing is submitted yet', async () => {
    stubPage({ [RANKING]: { body: makeRanking({ rows: [], lines: [], hidden: 1 }) } });
    await openPage();
    expect(screen.getByText(/No proposal of this call has been submitted yet/)).toBeVisible();
    expect(screen.getByText('1 proposal you are conflicted on is not shown.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Set outcomes from the line' })).toBeDisabled();
  });

  it('saves a new outcome at once, with the awards asked for, from the row’s version', async () => {
    const fetchStub = stubPage({
      [decisionOf(31)]: ({ body }) => {
        const save = body as DecisionSave;
        return {
          body: makeDecision({
            ...save,
            version: save.version + 1,
            awarded: { 'Telescope A': { nights: 17 } },
          }),
        };
      },
    });
    const { user } = await openPage();
    await user.selectOptions(
      within(rowOf('Beta')).getByRole('combobox', { name: 'Outcome of Beta' }),
      'Approved',
    );
    expect(await screen.findByText('The decision on Beta has been saved.')).toBeVisible();
    expect(sentBody(fetchStub, decisionOf(31))).toEqual({
      outcome: 'approved',
      awards: { 'Telescope A': { nights: 5 } },
      awardNotes: {},
      version: 0,
    });
    // The totals at the top are the answer's, worked out again by the domain, and the
    // ranking is not asked again (10,000 rows on a large call).
    const summary = screen.getByRole('table', { name: 'Capacity and awards' });
    const line = within(summary).getAllByRole('row')[1]!;
    await waitFor(() =>
      expect(
        within(line)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ).toEqual([
        'Telescope A',
        'Nights',
        '10',
        '14',
        '17',
        '140 %, above capacity',
        '170 %, above capacity',
      ]),
    );
    expect(
      within(rowOf('Beta')).getByRole('combobox', { name: 'Outcome of Beta' }),
    ).toHaveDisplayValue('Approved');
    expect(apiCalls(fetchStub).filter((c) => c === RANKING)).toHaveLength(1);
  });

  it('asks for a note on an award above the request before saving it', async () => {
    const fetchStub = stubPage({
      [decisionOf(30)]: ({ body }) => ({
        body: makeDecision({ ...(body as DecisionSave), version: 3 }),
      }),
    });
    const { user } = await openPage();
    const award = within(rowOf('Alpha')).getByRole('spinbutton', {
      name: 'Award of Telescope A: nights to Alpha',
    });
    await user.clear(award);
    await user.type(award, '-1');
    expect(award).toHaveAccessibleDescription(decisionMessages.negative);
    await user.clear(award);
    await user.type(award, '8');
    expect(award).toHaveAccessibleDescription(decisionMessages.aboveRequest(6));
    const save = within(rowOf('Alpha')).getByRole('button', { name: 'Save the decision on Alpha' });
    expect(save).toBeDisabled();

    const note = within(rowOf('Alpha')).getByRole('textbox', { name: /Why more of Telescope A/ });
    expect(note).toBeRequired();
    await user.type(note, 'Two nights lost to the moon last year');
    expect(award).not.toHaveAccessibleDescription(decisionMessages.aboveRequest(6));
    await user.click(save);
    await screen.findByText('The decision on Alpha has been saved.');
    expect(sentBody(fetchStub, decisionOf(30))).toEqual({
      outcome: 'approved',
      awards: { 'Telescope A': { nights: 8 } },
      awardNotes: { 'Telescope A': 'Two nights lost to the moon last year' },
      version: 2,
    });
  });

  it('shows the server’s message by the award it names', async () => {
    stubPage({
      [decisionOf(30)]: {
        status: 400,
        body: {
          detail: 'The awards cannot be saved.',
          code: 'validation_error',
          fields: { 'awards.Telescope A.nights': [decisionMessages.tooLarge] },
        },
      },
    });
    const { user } = await openPage();
    const award = within(rowOf('Alpha')).getByRole('spinbutton', {
      name: 'Award of Telescope A: nights to Alpha',
    });
    await user.clear(award);
    await user.type(award, '5');
    await user.click(within(rowOf('Alpha')).getByRole('button', { name: /Save the decision/ }));
    await waitFor(() => expect(award).toHaveAccessibleDescription(decisionMessages.tooLarge));
    expect(within(rowOf('Alpha')).getByRole('alert')).toHaveTextContent(
      'The awards cannot be saved.',
    );
  });

  it('keeps the chair’s outcome when another chair saved first, and saves it over theirs', async () => {
    const theirs: ProposalDecision = makeDecision({
      outcome: 'declined',
      awards: {},
      version: 1,
      decidedBy: 'Alan Turing',
    });
    let refuse = true;
    const fetchStub = stubPage({
      [decisionOf(31)]: ({ body }) => {
        if (refuse) {
          refuse = false;
          return {
            status: 409,
            body: { detail: decisionMessages.stale('Alan Turing'), code: 'stale', current: theirs },
          };
        }
        return { body: makeDecision({ ...(body as DecisionSave), version: 2 }) };
      },
    });
    const { user } = await openPage();
    const outcome = within(rowOf('Beta')).getByRole('combobox', { name: 'Outcome of Beta' });
    await user.selectOptions(outcome, 'Waitlisted');
    const alert = await within(rowOf('Beta')).findByRole('alert');
    expect(alert).toHaveTextContent(decisionMessages.stale('Alan Turing'));
    expect(alert).toHaveTextContent('Saved now: Declined.');
    expect(outcome).toHaveDisplayValue('Waitlisted');

    await user.click(
      within(rowOf('Beta')).getByRole('button', { name: /Save the decision on Beta/ }),
    );
    await screen.findByText('The decision on Beta has been saved.');
    const sent = bodiesOf(fetchStub, decisionOf(31));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({ outcome: 'waitlisted', awards: {}, awardNotes: {}, version: 1 });
  });

  it('moves a proposal with a reason, by keyboard and dialog', async () => {
    const fetchStub = stubPage({ [MOVE]: { body: makeRanking() } });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Move Beta' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move Beta' });
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: /Put it/ }),
      'At the top',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(within(dialog).getByRole('textbox', { name: /Reason/ })).toHaveAccessibleDescription(
      decisionMessages.rankReasonMissing,
    );
    expect(apiCalls(fetchStub)).not.toContain(MOVE);

    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Time-critical');
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await screen.findByText('Beta has been moved.');
    expect(sentBody(fetchStub, MOVE)).toEqual({
      proposalId: 31,
      after: null,
      reason: 'Time-critical',
      version: 0,
    });
  });

  it('moves a proposal dragged onto another row, with a reason; Cancel sends nothing', async () => {
    const fetchStub = stubPage({ [MOVE]: { body: makeRanking() } });
    const { user } = await openPage();
    // jsdom has no DataTransfer: one drag's, as the browser hands it to each event.
    const dataTransfer = {
      data: {} as Record<string, string>,
      effectAllowed: 'all',
      dropEffect: 'none',
      setData(type: string, value: string) {
        this.data[type] = value;
      },
      getData(type: string) {
        return this.data[type] ?? '';
      },
      setDragImage() {},
    };
    const handleOf = (name: string) =>
      within(rowOf(name)).getByRole('button', { name: `Drag ${name} to another rank` });
    const cellOf = (name: string) => within(rowOf(name)).getAllByRole('cell')[2]!;
    // Gamma is not Carla's to decide: no handle, as no Move.
    expect(within(rowOf('Gamma')).queryByRole('button', { name: /^Drag Gamma/ })).toBeNull();

    // Alpha down onto Gamma: it takes Gamma's place, below it.
    const alphaHandle = handleOf('Alpha');
    fireEvent.dragStart(alphaHandle, { dataTransfer });
    expect(dataTransfer.effectAllowed).toBe('move');
    // Over itself there is nowhere to go: no indicator, and the browser may not drop.
    expect(fireEvent.dragOver(cellOf('Alpha'), { dataTransfer })).toBe(true);
    expect(rowOf('Alpha')).not.toHaveAttribute('data-drop');
    expect(fireEvent.dragOver(cellOf('Beta'), { dataTransfer })).toBe(false);
    expect(rowOf('Beta')).toHaveAttribute('data-drop', 'below');
    fireEvent.dragOver(cellOf('Gamma'), { dataTransfer });
    // One line at a time.
    expect(rowOf('Beta')).not.toHaveAttribute('data-drop');
    expect(rowOf('Gamma')).toHaveAttribute('data-drop', 'below');
    const gamma = rowOf('Gamma');
    fireEvent.drop(cellOf('Gamma'), { dataTransfer });
    // The dialog hides the page from queries (it is modal): the handle found before.
    fireEvent.dragEnd(alphaHandle, { dataTransfer });
    expect(gamma).not.toHaveAttribute('data-drop');

    let dialog = await screen.findByRole('dialog', { name: 'Move Alpha' });
    expect(within(dialog).getByRole('combobox', { name: /Put it/ })).toHaveDisplayValue(
      'Below 3. Gamma',
    );
    expect(apiCalls(fetchStub)).not.toContain(MOVE);
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Weather risk');
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await screen.findByText('Alpha has been moved.');
    expect(sentBody(fetchStub, MOVE)).toEqual({
      proposalId: 30,
      after: 32,
      reason: 'Weather risk',
      version: 2,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Beta up onto Alpha: above it, at the top; cancelled, it stays where it is.
    const betaHandle = handleOf('Beta');
    fireEvent.dragStart(betaHandle, { dataTransfer });
    fireEvent.dragOver(cellOf('Alpha'), { dataTransfer });
    expect(rowOf('Alpha')).toHaveAttribute('data-drop', 'above');
    fireEvent.drop(cellOf('Alpha'), { dataTransfer });
    fireEvent.dragEnd(betaHandle, { dataTransfer });
    dialog = await screen.findByRole('dialog', { name: 'Move Beta' });
    expect(within(dialog).getByRole('combobox', { name: /Put it/ })).toHaveDisplayValue(
      'At the top',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(apiCalls(fetchStub).filter((call) => call === MOVE)).toHaveLength(1);
    expect(rowsOf()).toEqual(['Alpha', 'Capacity of Telescope A reached', 'Beta', 'Gamma']);
  });

  it('previews the outcomes from the line; Discard sends nothing, Apply saves them', async () => {
    // Beta, below the line, is waitlisted when one is, declined otherwise.
    const fetchStub = stubPage({
      [FROM_LINE]: ({ body }) => {
        const { waitlist, apply } = body as { waitlist: number; apply: boolean };
        const beta = waitlist > 0 ? 'waitlisted' : 'declined';
        return {
          body: {
            proposals: [
              { proposalId: 30, outcome: 'approved', current: 'approved' },
              { proposalId: 31, outcome: beta, current: null },
            ],
            counts: {
              approved: 1,
              partly_approved: 0,
              waitlisted: waitlist > 0 ? 1 : 0,
              declined: waitlist > 0 ? 0 : 1,
            },
            changed: apply ? 1 : 0,
          },
        };
      },
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Set outcomes from the line' }));
    let dialog = await screen.findByRole('dialog', { name: 'Set outcomes from the line' });
    expect(await within(dialog).findByText('Beta: No outcome → Declined')).toBeVisible();
    const waitlist = within(dialog).getByRole('spinbutton', { name: 'How many to waitlist' });
    await user.clear(waitlist);
    await user.type(waitlist, '1');
    expect(await within(dialog).findByText('Beta: No outcome → Waitlisted')).toBeVisible();
    const list = within(dialog).getByRole('list', { name: 'What would change' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(dialog).toHaveTextContent('Approved: 1');
    expect(dialog).toHaveTextContent('Waitlisted: 1');
    expect(dialog).toHaveTextContent('Declined: 0');
    expect(dialog).toHaveTextContent('1 outcome would change:');

    await user.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = bodiesOf(fetchStub, FROM_LINE) as { apply: boolean; waitlist: number }[];
    expect(sent).toContainEqual({ waitlist: 1, apply: false });
    expect(sent.every((body) => !body.apply)).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Set outcomes from the line' }));
    dialog = await screen.findByRole('dialog', { name: 'Set outcomes from the line' });
    await within(dialog).findByText('Beta: No outcome → Declined');
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await screen.findByText('1 outcome was set from the line.');
    expect(
      bodiesOf(fetchStub, FROM_LINE).filter((body) => (body as { apply: boolean }).apply),
    ).toEqual([{ waitlist: 0, apply: true }]);
  });

  it('edits the capacities and keeps the chair’s numbers when someone saved first', async () => {
    let refuse = false;
    const fetchStub = stubPage({
      [CAPACITY]: { body: makeCapacity() },
      [SAVE_CAPACITY]: ({ body }) =>
        refuse
          ? {
              status: 409,
              body: {
                detail: decisionMessages.capacityStale,
                code: 'stale',
                current: makeCapacity({ version: 3 }),
              },
            }
          : { body: { ...makeCapacity(), ...(body as object), version: 3 } },
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Capacities' }));
    let dialog = await screen.findByRole('dialog', { name: 'Capacities' });
    const nights = await within(dialog).findByRole('spinbutton', { name: 'Telescope A: nights' });
    expect(nights).toHaveValue(10);
    const hours = within(dialog).getByRole('spinbutton', { name: 'Instrument B: hours' });
    expect(hours).toHaveValue(null);
    await user.type(hours, '-5');
    expect(hours).toHaveAccessibleDescription(decisionMessages.capacityNegative);
    expect(within(dialog).getByRole('button', { name: 'Save capacities' })).toBeDisabled();
    await user.clear(hours);
    await user.type(hours, '1200');
    await user.clear(nights);
    await user.type(nights, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Save capacities' }));
    await screen.findByText(CAPACITIES_SAVED);
    expect(sentBody(fetchStub, SAVE_CAPACITY)).toEqual({
      capacity: { 'Telescope A': { nights: 12 }, 'Instrument B': { hours: 1200 } },
      version: 2,
    });

    refuse = true;
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Capacities' }));
    dialog = await screen.findByRole('dialog', { name: 'Capacities' });
    const again = await within(dialog).findByRole('spinbutton', { name: 'Telescope A: nights' });
    await user.clear(again);
    await user.type(again, '15');
    await user.click(within(dialog).getByRole('button', { name: 'Save capacities' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      decisionMessages.capacityStale,
    );
    expect(again).toHaveValue(15);
    expect(within(dialog).getByRole('button', { name: 'Save capacities' })).toBeDisabled();
  });

  it('is for chairs only', async () => {
    stubPage({ 'GET /calls/12/': { body: makeCall() } });
    renderApp('/calls/12/ranking', { token: 'k' });
    expect(await screen.findByText(messages.noPermission, {}, AFTER_NAVIGATION)).toBeVisible();
  });

  it('pages a long ranking rather than drawing every row', async () => {
    const rows = Array.from({ length: 30 }, (_, index) =>
      makeRankingRow({ rank: index + 1, proposalId: 100 + index, name: `P${index + 1}` }),
    );
    stubPage({
      [RANKING]: {
        body: makeRanking({ rows, lines: [{ ...makeRanking().lines[0]!, firstBelow: 12 }] }),
      },
    });
    const { user } = await openPage();
    expect(rowsOf()).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8', 'P9', 'P10']);
    await user.click(screen.getByRole('button', { name: /next page/i }));
    expect(rowsOf()).toEqual([
      'P11',
      'Capacity of Telescope A reached',
      'P12',
      'P13',
      'P14',
      'P15',
      'P16',
      'P17',
      'P18',
      'P19',
      'P20',
    ]);
  });
});
