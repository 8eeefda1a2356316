import { validationMessages } from '@merit/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeCall, makeProposalType } from '../../features/calls/calls.fixtures';
import { makeFormOrder, makeProposal } from '../../features/proposals/proposals.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

const openCall = makeCall({
  abilities: { ...makeCall().abilities, addProposal: true },
  proposalTypes: [makeProposalType(), makeProposalType({ typeId: 41, typeName: 'Rapid access' })],
});

describe('NewProposalPage', () => {
  it('creates the proposal and opens its editor without a reload', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: openCall },
      'POST /update_proposal_name/': { status: 201, body: makeProposal() },
      'GET /proposal_form_order/12/': { body: makeFormOrder() },
      'GET /proposals/30/': { body: makeProposal() },
      'GET /lock/30/': { body: { holderId: 7, holder: 'Ada Lovelace' } },
    });
    const view = renderApp('/calls/12/new', { token: 'k' });
    await screen.findByRole('heading', { name: 'Create Proposal' }, AFTER_NAVIGATION);
    await user.type(screen.getByRole('textbox', { name: 'Proposal Name' }), ' Dark matter survey ');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Proposal Type' }), 'Standard');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(
      await screen.findByRole('heading', { name: 'Dark matter survey' }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(view.location()).toBe('/calls/12/proposals/30/');
    expect(screen.getByRole('tab', { name: 'Project Details' })).toBeInTheDocument();
    expect(sentBody(fetchStub, 'POST /update_proposal_name/')).toEqual({
      callId: 12,
      isNew: true,
      proposalId: null,
      name: 'Dark matter survey',
      type: 40,
    });
  });

  it('asks for a name and a type before sending anything', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: openCall },
    });
    renderApp('/calls/12/new', { token: 'k' });
    await user.click(await screen.findByRole('button', { name: 'Create' }, AFTER_NAVIGATION));

    expect(screen.getByRole('textbox', { name: 'Proposal Name' })).toHaveAccessibleDescription(
      validationMessages.required,
    );
    expect(screen.getByRole('combobox', { name: 'Proposal Type' })).toHaveAccessibleDescription(
      validationMessages.required,
    );
    await waitFor(() => expect(screen.getByRole('alert')).toBeInTheDocument());
    expect(apiCalls(fetchStub)).not.toContain('POST /update_proposal_name/');
  });

  it('chooses the type itself when the call has only one', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: { ...openCall, proposalTypes: [makeProposalType()] } },
    });
    renderApp('/calls/12/new', { token: 'k' });
    expect(
      await screen.findByRole('combobox', { name: 'Proposal Type' }, AFTER_NAVIGATION),
    ).toHaveValue('40');
  });

  it('says so when the call does not accept proposals from the user', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall() },
    });
    renderApp('/calls/12/new', { token: 'k' });
    expect(
      await screen.findByText(
        /is not accepting proposals from you now/,
        undefined,
        AFTER_NAVIGATION,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create' })).not.toBeInTheDocument();
  });
});
