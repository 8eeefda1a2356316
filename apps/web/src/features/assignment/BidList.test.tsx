import { assignmentMessages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';
import { makeCall } from '../calls/calls.fixtures';
import { makeBids } from './assignment.fixtures';

const grace = makeUser({ id: 9, username: 'grace', first_name: 'Grace', last_name: 'Hopper' });
const BIDS = 'GET /calls/12/bids/';

function stubPage(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /user_details/': { body: grace },
    'GET /calls/12/': { body: makeCall() },
    [BIDS]: { body: makeBids() },
    ...extra,
  });
}

async function openBids() {
  const view = renderApp('/calls/12/bids', { token: 'k' });
  await screen.findByRole('heading', { level: 1, name: 'Bid on Proposals' }, AFTER_NAVIGATION);
  return view;
}

const bidButton = (name: string) => screen.getByRole('button', { name });

describe('Bid on Proposals', () => {
  it('lists what bidding shows, with each bid, and no link while the call hides proposals', async () => {
    stubPage();
    await openBids();
    const table = screen.getByRole('table', { name: 'Proposals to bid on' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Type', 'Facilities', 'Institutions', 'Your bid']);
    const row = within(table).getByRole('row', { name: /Axion search/ });
    expect(row).toHaveTextContent('Axion searchRapidBeamline 2University of Manchester');
    expect(bidButton('Axion search: Willing')).toHaveAttribute('aria-pressed', 'true');
    expect(bidButton('Dark matter survey: Neutral')).toHaveAttribute('aria-pressed', 'true');
    expect(within(table).queryByRole('link')).toBeNull();
    expect(screen.getByText('1 bid made')).toBeVisible();
    expect(screen.queryByText('Bidding is closed.')).toBeNull();
  });

  it('links each proposal when the call lets bidders open them', async () => {
    stubPage({ [BIDS]: { body: makeBids({ biddingShowsProposals: true }) } });
    await openBids();
    expect(screen.getByRole('link', { name: 'Dark matter survey' })).toHaveAttribute(
      'href',
      '/calls/12/proposals/30/',
    );
  });

  it('saves each bid at once, and puts it back with a word when the server refuses', async () => {
    const user = userEvent.setup();
    let refuse = false;
    const fetchStub = stubPage({
      'POST /calls/12/bids/': ({ body }) =>
        refuse
          ? { status: 409, body: { detail: assignmentMessages.biddingClosed, code: 'conflict' } }
          : { body },
    });
    await openBids();
    await user.click(bidButton('Dark matter survey: Eager'));
    expect(bidButton('Dark matter survey: Eager')).toHaveAttribute('aria-pressed', 'true');
    expect(sentBody(fetchStub, 'POST /calls/12/bids/')).toEqual({
      proposalId: 30,
      preference: 'eager',
    });
    expect(screen.getByText('2 bids made')).toBeVisible();

    refuse = true;
    await user.click(bidButton('Axion search: Not me'));
    expect(
      await screen.findByText(
        `Your bid on “Axion search” was not saved: ${assignmentMessages.biddingClosed}`,
      ),
    ).toBeVisible();
    await waitFor(() =>
      expect(bidButton('Axion search: Willing')).toHaveAttribute('aria-pressed', 'true'),
    );
    expect(bidButton('Axion search: Not me')).toHaveAttribute('aria-pressed', 'false');
    // A click on the bid already made sends nothing.
    await user.click(bidButton('Dark matter survey: Eager'));
    expect(apiCalls(fetchStub).filter((call) => call === 'POST /calls/12/bids/')).toHaveLength(2);
  });

  it('searches by name and institution, and filters by type and facility', async () => {
    const user = userEvent.setup();
    stubPage();
    await openBids();
    const table = screen.getByRole('table', { name: 'Proposals to bid on' });
    const names = () =>
      within(table)
        .queryAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[0]!.textContent);
    await user.type(screen.getByRole('searchbox', { name: 'Search proposals' }), 'manchester');
    await waitFor(() => expect(names()).toEqual(['Axion search']));
    await user.clear(screen.getByRole('searchbox', { name: 'Search proposals' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Standard');
    expect(names()).toEqual(['Dark matter survey']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Facility' }), 'Beamline 2');
    expect(await screen.findByText('No proposal matches these filters.')).toBeVisible();
  });

  it('says when bidding is closed, and offers no bids then', async () => {
    stubPage({ [BIDS]: { body: makeBids({ biddingOpen: false }) } });
    await openBids();
    expect(screen.getByText('Bidding is closed.')).toBeVisible();
    expect(bidButton('Dark matter survey: Eager')).toBeDisabled();
  });

  it('says when there is nothing to bid on yet', async () => {
    stubPage({ [BIDS]: { body: makeBids({ proposals: [] }) } });
    await openBids();
    expect(screen.getByText('No submitted proposals yet.')).toBeVisible();
  });

  it('lowers the member’s own cap, and shows the server’s refusal under the field', async () => {
    const user = userEvent.setup();
    const fetchStub = stubPage({
      'POST /calls/12/assignment/my_cap/': ({ body }) =>
        (body as { cap: number }).cap > 4
          ? {
              status: 400,
              body: {
                detail: 'The request is not valid. Check the highlighted fields.',
                code: 'validation_error',
                fields: { cap: [assignmentMessages.capAboveChair(4)] },
              },
            }
          : { body: { cap: 2, chairCap: 4 } },
    });
    await openBids();
    const field = screen.getByRole('spinbutton', { name: 'Your cap' });
    expect(field).toHaveAttribute('placeholder', '4');
    await user.type(field, '9');
    await user.click(screen.getByRole('button', { name: 'Save cap' }));
    expect(await screen.findByText(assignmentMessages.capAboveChair(4))).toBeVisible();
    expect(field).toHaveAccessibleDescription(assignmentMessages.capAboveChair(4));

    await user.clear(field);
    await user.type(field, '2');
    await user.click(screen.getByRole('button', { name: 'Save cap' }));
    expect(await screen.findByText('Your cap is now 2 reviews.')).toBeVisible();
    expect(sentBody(fetchStub, 'POST /calls/12/assignment/my_cap/')).toEqual({ cap: 9 });
    expect(screen.queryByText(assignmentMessages.capAboveChair(4))).toBeNull();
  });

  it('lets in no one the server does not count as a member', async () => {
    stubPage({
      [BIDS]: {
        status: 403,
        body: { detail: assignmentMessages.biddingMembersOnly, code: 'forbidden' },
      },
    });
    renderApp('/calls/12/bids', { token: 'k' });
    expect(await screen.findByText('Access denied', {}, AFTER_NAVIGATION)).toBeVisible();
  });
});
