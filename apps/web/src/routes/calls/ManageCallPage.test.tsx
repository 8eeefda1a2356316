import { callMessages, messages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { chairAbilities, makeCall } from '../../features/calls/calls.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

const closable = makeCall({ abilities: { ...chairAbilities, close: true } });

// Each test walks through pages that load lazily: slow on a busy machine, not stuck.
describe('ManageCallPage', { timeout: 20_000 }, () => {
  it('shows the counts, warns about proposals lacking reviews, and closes after confirmation', async () => {
    let call = closable;
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': () => ({ body: call }),
      'GET /calls/12/manage/': { body: { submitted: 7, awaitingReview: 2 } },
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
});
