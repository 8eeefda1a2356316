import { callMessages, messages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { chairAbilities, makeCall } from '../../features/calls/calls.fixtures';
import { capacitySectionTexts } from '../../features/decisions/CallCapacitySection';
import { makeCapacity, makeLine } from '../../features/decisions/decisions.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

const closable = makeCall({ abilities: { ...chairAbilities, close: true } });
/** No capacity entered and nothing asked for: the Capacity section stays away. */
const NO_CAPACITY = {
  'GET /calls/12/capacity/': { body: makeCapacity({ capacity: {}, asked: [], lines: [] }) },
};

describe('ManageCallPage', () => {
  it('shows the counts, warns about proposals lacking reviews, and closes after confirmation', async () => {
    let call = closable;
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': () => ({ body: call }),
      'GET /calls/12/manage/': { body: { submitted: 7, awaitingReview: 2 } },
      ...NO_CAPACITY,
      'POST /close_call/': () => {
        call = makeCall({ closed: true, abilities: { ...chairAbilities, edit: false } });
        return { body: call };
      },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/manage', { token: 'k' });

    expect(
      await screen.findByText('2 proposals still lack reviews.', undefined, AFTER_NAVIGATION),
    ).toBeVisible();
    expect(screen.getByText('Proposals submitted').parentElement).toHaveTextContent('7');
    await waitFor(() => expect(apiCalls(fetchStub)).toContain('GET /calls/12/capacity/'));
    expect(screen.queryByRole('region', { name: capacitySectionTexts.title })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Close Call for Proposal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close this call for proposals?' });
    expect(apiCalls(fetchStub)).not.toContain('POST /close_call/');
    await user.click(within(dialog).getByRole('button', { name: 'Close Call' }));

    await waitFor(() => expect(sentBody(fetchStub, 'POST /close_call/')).toEqual({ callId: 12 }));
    expect(await screen.findByText(callMessages.alreadyClosed)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Close Call for Proposal' })).toBeDisabled();
  });

  it('keeps Close disabled, with the reason, until the review period is over', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
      'GET /calls/12/manage/': { body: { submitted: 0, awaitingReview: 0 } },
      ...NO_CAPACITY,
    });
    renderApp('/calls/12/manage', { token: 'k' });
    const button = await screen.findByRole(
      'button',
      { name: 'Close Call for Proposal' },
      AFTER_NAVIGATION,
    );
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(/can be closed once its review period has ended/);
    expect(screen.queryByText(/still lack/)).not.toBeInTheDocument();
  });

  it("shows the server's refusal", async () => {
    const refusal = callMessages.notYetClosable('2026-05-01T00:00:00.000Z');
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: closable },
      'GET /calls/12/manage/': { body: { submitted: 1, awaitingReview: 0 } },
      ...NO_CAPACITY,
      'POST /close_call/': { status: 409, body: { detail: refusal, code: 'conflict' } },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/manage', { token: 'k' });
    await user.click(
      await screen.findByRole('button', { name: 'Close Call for Proposal' }, AFTER_NAVIGATION),
    );
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close Call' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
  });

  it('shows the no-permission page to members who do not chair the committee', async () => {
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall() },
    });
    renderApp('/calls/12/manage', { token: 'k' });
    expect(
      await screen.findByText(messages.noPermission, undefined, AFTER_NAVIGATION),
    ).toBeVisible();
    expect(apiCalls(fetchStub)).not.toContain('GET /calls/12/manage/');
  });

  it('shows those who decide each facility’s capacity, requests and awards, red above capacity', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
      'GET /calls/12/manage/': { body: { submitted: 3, awaitingReview: 0 } },
      'GET /calls/12/capacity/': {
        body: makeCapacity({
          lines: [
            // 14 nights asked and 12 awarded of 10.
            makeLine(),
            makeLine({
              facility: 'Instrument B',
              field: 'hours',
              capacity: 100,
              requested: 40,
              awarded: 30,
              firstBelow: null,
              oversubscription: 0.4,
              awardedShare: 0.3,
              overAwarded: false,
            }),
            makeLine({
              facility: 'Cryostat',
              field: 'days',
              capacity: null,
              requested: 5,
              awarded: 0,
              firstBelow: null,
              oversubscription: null,
              awardedShare: null,
              overAwarded: false,
            }),
          ],
        }),
      },
    });
    renderApp('/calls/12/manage', { token: 'k' });
    const section = await screen.findByRole(
      'region',
      { name: capacitySectionTexts.title },
      AFTER_NAVIGATION,
    );
    const rows = within(within(section).getByRole('table', { name: 'Capacity' }))
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      [
        'Facility',
        'Field',
        'Capacity',
        'Requested',
        'Awarded',
        'Requested / capacity',
        'Awarded / capacity',
      ],
      ['Telescope A', 'Nights', '10', '14', '12', '140 %, above capacity', '120 %, above capacity'],
      ['Instrument B', 'hours', '100', '40', '30', '40 %', '30 %'], // No title given: the key.
      ['Cryostat', 'days', 'None', '5', '0', '—', '—'],
    ]);
    // Above capacity: in red, with an icon beside the words.
    const over = within(section).getAllByText('140 %, above capacity')[0]!.closest('td')!;
    expect(over.querySelector('svg')).not.toBeNull();
    expect(getComputedStyle(over).color).not.toBe(
      getComputedStyle(within(section).getByText('40 %').closest('td')!).color,
    );
    expect(
      within(section).getByRole('link', { name: capacitySectionTexts.toRanking }),
    ).toHaveAttribute('href', '/calls/12/ranking');
    expect(section).not.toHaveTextContent(capacitySectionTexts.noneEntered);
  });

  it('says where to enter capacities while only requests are known', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
      'GET /calls/12/manage/': { body: { submitted: 1, awaitingReview: 0 } },
      'GET /calls/12/capacity/': {
        body: makeCapacity({
          capacity: {},
          lines: [
            makeLine({
              capacity: null,
              firstBelow: null,
              oversubscription: null,
              awardedShare: null,
              overAwarded: false,
            }),
          ],
        }),
      },
    });
    renderApp('/calls/12/manage', { token: 'k' });
    const section = await screen.findByRole(
      'region',
      { name: capacitySectionTexts.title },
      AFTER_NAVIGATION,
    );
    expect(section).toHaveTextContent(capacitySectionTexts.noneEntered);
    expect(within(section).getByRole('row', { name: /Telescope A/ })).toHaveTextContent(
      'Telescope ANightsNone1412——',
    );
    expect(within(section).queryByText(/above capacity/)).toBeNull();
  });

  it('shows chairs who may not decide no capacities, and asks for none', async () => {
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall({ abilities: { ...chairAbilities, decide: false } }) },
      'GET /calls/12/manage/': { body: { submitted: 3, awaitingReview: 0 } },
    });
    renderApp('/calls/12/manage', { token: 'k' });
    await screen.findByRole('button', { name: 'Close Call for Proposal' }, AFTER_NAVIGATION);
    expect(screen.queryByRole('region', { name: capacitySectionTexts.title })).toBeNull();
    expect(apiCalls(fetchStub)).not.toContain('GET /calls/12/capacity/');
  });
});
