import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, renderApp, sentBody, stubApi } from '../../test/render-app';
import { chairAbilities, makeCall, makeForm } from '../calls/calls.fixtures';

// ProseMirror needs layout jsdom lacks; the wizard's logic does not depend on the editor.
vi.mock('../calls/RichTextEditor', () => ({
  default: ({ label }: { label: string }) => <textarea aria-label={label} />,
}));

const chair = makeUser({
  roles: [
    {
      id: 1,
      committeeId: 3,
      committeeName: 'Synchrotron',
      role: 'CHAIR',
      commencement: '2020-01-01T00:00:00.000Z',
      termination: '2099-12-31T23:59:59.999Z',
      current: true,
    },
  ],
});

const ENABLED = 'Record and enforce conflicts of interest';
const DECLARATION = 'Members declare conflicts before reading a proposal';

const summaryRow = (label: string) => screen.getByRole('rowheader', { name: label }).closest('tr')!;

describe('the call wizard’s conflict settings', () => {
  it('loads the call’s settings, turns declaring off with conflicts, and sends both', async () => {
    const call = makeCall({
      abilities: chairAbilities,
      conflicts: { enabled: true, declarationRequired: false },
    });
    const fetchStub = stubApi({
      'GET /user_details/': { body: chair },
      'GET /calls/12/': { body: call },
      'GET /forms/': {
        body: [makeForm(1, 'Project Details', 0), makeForm(2, 'Science Review', 2)],
      },
      'POST /new_call/': { status: 201, body: call },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/update', { token: 'k' });
    await screen.findByRole('heading', { name: 'Edit Call for Proposal' }, AFTER_NAVIGATION);
    const settings = screen.getByRole('group', { name: 'Conflicts of interest' });
    const enabled = within(settings).getByRole('checkbox', { name: ENABLED });
    const declaration = within(settings).getByRole('checkbox', { name: DECLARATION });
    expect(enabled).toBeChecked();
    expect(declaration).not.toBeChecked();
    expect(declaration).toBeEnabled();

    await user.click(declaration);
    expect(declaration).toBeChecked();
    // Without conflicts there is nothing to declare.
    await user.click(enabled);
    expect(declaration).toBeDisabled();
    expect(declaration).not.toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(summaryRow(ENABLED)).toHaveTextContent('No');
    expect(summaryRow(DECLARATION)).toHaveTextContent('No');
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await screen.findByRole('link', { name: 'Continue' });
    expect(sentBody(fetchStub, 'POST /new_call/')).toMatchObject({
      conflicts: { enabled: false, declarationRequired: false },
    });
  });

  it('has both on for a new call', async () => {
    stubApi({
      'GET /user_details/': { body: chair },
      'GET /forms/': { body: [] },
    });
    renderApp('/calls/new', { token: 'k' });
    await screen.findByRole('heading', { name: 'New Call for Proposal' }, AFTER_NAVIGATION);
    expect(screen.getByRole('checkbox', { name: ENABLED })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: DECLARATION })).toBeChecked();
  });
});
