import { conflictScreenMessages } from '@merit/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';
import { makeFormOrder, makeProposal, readerAbilities } from '../proposals/proposals.fixtures';
import { makeReviewFormOrder, makeReviewList } from '../reviews/reviews.fixtures';
import { DECLARATION_REQUIRED, makeGate } from './conflicts.fixtures';

/** Grace Hopper (9), a member of the call's committee, not yet asked about proposal 30. */
const grace = makeUser({ id: 9, username: 'grace', first_name: 'Grace', last_name: 'Hopper' });

/**
 * The member's side of the server: proposal 30 answers 403 `declaration_required` until
 * she has answered, then opens (GET /proposals/30/ and its review list).
 */
function gatedServer() {
  let answered = false;
  const fetchStub = stubApi({
    'GET /user_details/': { body: grace },
    'GET /proposals/30/': () =>
      answered
        ? {
            body: makeProposal({
              state: 'Submitted',
              stateVal: 1,
              abilities: { ...readerAbilities, viewReviews: true },
            }),
          }
        : DECLARATION_REQUIRED,
    'GET /proposal_form_order/12/': { body: makeFormOrder() },
    'GET /review_form_order/12/': { body: makeReviewFormOrder() },
    'GET /calls/12/proposals/30/reviews/': () =>
      answered ? { body: makeReviewList() } : DECLARATION_REQUIRED,
    'GET /proposals/30/conflict_declaration/': { body: makeGate() },
    'POST /proposals/30/conflict_declaration/': ({ body }) => {
      answered = true;
      const { conflict, type } = body as { conflict: boolean; type?: 'personal' };
      return {
        body: makeGate({
          answer: { conflict, type: type ?? null, at: '2026-04-03T10:00:00.000Z' },
          mayAnswer: false,
        }),
      };
    },
  });
  return fetchStub;
}

async function openGate(path = '/calls/12/proposals/30/') {
  renderApp(path, { token: 'k' });
  return screen.findByRole(
    'region',
    { name: conflictScreenMessages.gateQuestion },
    AFTER_NAVIGATION,
  );
}

describe('the declaration gate', () => {
  it('shows the facts instead of the proposal, and opens the proposal after No conflict', async () => {
    const user = userEvent.setup();
    const fetchStub = gatedServer();
    const gate = await openGate();
    expect(screen.getByRole('heading', { level: 1, name: 'Dark matter survey' })).toBeVisible();
    const facts = within(gate).getByRole('table', { name: 'About this proposal' });
    expect(within(facts).getByRole('row', { name: /Proposal type/ })).toHaveTextContent('Standard');
    expect(within(facts).getByRole('row', { name: /institutions/ })).toHaveTextContent(
      'Analytical Engines, Uppsala University',
    );
    // None of the proposal's text is shown while the gate is closed.
    expect(screen.queryByRole('tab', { name: 'Project Details' })).not.toBeInTheDocument();

    await user.click(within(gate).getByRole('button', { name: 'No conflict' }));
    expect(await screen.findByRole('tab', { name: 'Project Details' })).toBeVisible();
    expect(
      screen.queryByRole('region', { name: conflictScreenMessages.gateQuestion }),
    ).not.toBeInTheDocument();
    expect(sentBody(fetchStub, 'POST /proposals/30/conflict_declaration/')).toEqual({
      conflict: false,
    });
  });

  it('asks the kind, confirms, and ends on a message with the way back for I have a conflict', async () => {
    const user = userEvent.setup();
    const fetchStub = gatedServer();
    const gate = await openGate();
    await user.click(within(gate).getByRole('button', { name: 'I have a conflict' }));
    const form = within(gate).getByRole('form', { name: 'Declare a conflict' });

    // The kind is required before anything is sent.
    await user.click(within(form).getByRole('button', { name: 'Declare Conflict' }));
    expect(within(form).getByText('Choose the kind of conflict.')).toBeVisible();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.selectOptions(
      within(form).getByRole('combobox', { name: /Kind of conflict/ }),
      'Personal',
    );
    await user.type(
      within(form).getByRole('textbox', { name: 'Reason (optional)' }),
      'My former student',
    );
    await user.click(within(form).getByRole('button', { name: 'Declare Conflict' }));
    const confirm = await screen.findByRole('dialog', { name: 'Declare a conflict of interest?' });
    expect(confirm).toHaveTextContent(conflictScreenMessages.gateConfirm('Dark matter survey'));
    // Cancel sends nothing.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(apiCalls(fetchStub)).not.toContain('POST /proposals/30/conflict_declaration/');

    // Found once the confirmation has gone, and the page under it is in reach again.
    await user.click(await within(form).findByRole('button', { name: 'Declare Conflict' }));
    await user.click(
      within(
        await screen.findByRole('dialog', { name: 'Declare a conflict of interest?' }),
      ).getByRole('button', { name: 'Declare Conflict' }),
    );
    expect(
      await screen.findByText(conflictScreenMessages.gateDeclared('Dark matter survey')),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to the Proposals' })).toHaveAttribute(
      'href',
      '/calls/12/proposals/',
    );
    expect(sentBody(fetchStub, 'POST /proposals/30/conflict_declaration/')).toEqual({
      conflict: true,
      type: 'personal',
      reason: 'My former student',
    });
    // It ends there: the proposal does not open.
    expect(screen.queryByRole('tab', { name: 'Project Details' })).not.toBeInTheDocument();
  });

  it('stands before a proposal’s reviews too, which load once she has answered', async () => {
    const user = userEvent.setup();
    gatedServer();
    const gate = await openGate('/calls/12/proposals/30/reviews/');
    await user.click(within(gate).getByRole('button', { name: 'No conflict' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Reviews of Dark matter survey' }),
    ).toBeVisible();
  });

  it('says whom to ask when she may not answer, without the choices', async () => {
    stubApi({
      'GET /user_details/': { body: grace },
      'GET /proposals/30/': DECLARATION_REQUIRED,
      'GET /proposal_form_order/12/': { body: makeFormOrder() },
      'GET /proposals/30/conflict_declaration/': { body: makeGate({ mayAnswer: false }) },
    });
    const gate = await openGate();
    expect(within(gate).getByText(conflictScreenMessages.gateCannotAnswer)).toBeVisible();
    expect(within(gate).queryByRole('button', { name: 'No conflict' })).not.toBeInTheDocument();
    expect(
      within(gate).queryByRole('button', { name: 'I have a conflict' }),
    ).not.toBeInTheDocument();
  });
});
