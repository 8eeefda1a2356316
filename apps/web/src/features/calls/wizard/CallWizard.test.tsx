import {
  callDateMessages,
  callMessages,
  formatDateTime,
  messages,
  timeZoneLabel,
  validationMessages,
} from '@merit/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../../test/render-app';
import { chairAbilities, makeCall, makeForm, makeProposalType } from '../calls.fixtures';

// ProseMirror needs layout jsdom lacks; the wizard's logic does not depend on the editor.
vi.mock('../RichTextEditor', () => ({
  default: ({
    label,
    value,
    onChange,
  }: {
    label: string;
    value: string;
    onChange: (html: string) => void;
  }) => (
    <textarea aria-label={label} value={value} onChange={(event) => onChange(event.target.value)} />
  ),
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

const forms = [
  makeForm(1, 'Project Details', 0),
  makeForm(2, 'Science Review', 2),
  makeForm(3, 'Budget', 4),
];

const input = (label: string) => screen.getByLabelText(new RegExp(`^${label}`));
const setValue = (label: string, value: string) =>
  fireEvent.change(input(label), { target: { value } });

async function fillDetails() {
  await screen.findByRole('heading', { name: 'New Call for Proposal' }, AFTER_NAVIGATION);
  setValue('Name', 'Beamtime 2027');
  setValue('Submission opens', '2027-03-01T09:00');
  setValue('Submission deadline', '2027-04-01T17:00');
  setValue('Review starts', '2027-04-02T09:00');
  setValue('Review deadline', '2027-05-01T17:00');
}

async function addForm(user: ReturnType<typeof userEvent.setup>, kind: string, formId: number) {
  const select = screen.getByLabelText(new RegExp(`^Add a ${kind} form to`));
  await user.selectOptions(select, String(formId));
  await user.click(
    screen.getByRole('button', { name: new RegExp(`^Add the chosen ${kind} form`) }),
  );
}

describe('the call wizard', () => {
  it('enables Next on the forms page only when every type has a proposal and a review form', async () => {
    const fetchStub = stubApi({
      'GET /user_details/': { body: chair },
      'GET /forms/': { body: forms },
      'POST /new_call/': ({ body }) => ({
        status: 201,
        body: makeCall({ id: 99, name: (body as { name: string }).name }),
      }),
      'GET /calls/99/': { body: makeCall({ id: 99 }) },
    });
    const user = userEvent.setup();
    renderApp('/calls/new', { token: 'k' });
    await fillDetails();
    // The only committee this user chairs is chosen already.
    expect(input('Committee')).toHaveValue('3');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    // Not enabled (spec), yet it answers a click with what is missing: a button that is
    // disabled outright could not say why.
    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).toHaveAttribute('aria-disabled', 'true');
    setValue('Type name', 'Standard');
    await addForm(user, 'proposal', 1);
    expect(next).toHaveAttribute('aria-disabled', 'true');
    await addForm(user, 'review', 2);
    expect(next).not.toHaveAttribute('aria-disabled');

    // A second type without forms disables it again, until it goes.
    await user.click(screen.getByRole('button', { name: 'Add proposal type' }));
    expect(next).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('button', { name: 'Delete proposal type Proposal type 2' }));
    expect(next).not.toHaveAttribute('aria-disabled');

    await user.click(next);
    expect(screen.getByRole('rowheader', { name: 'Name' }).closest('tr')).toHaveTextContent(
      'Beamtime 2027',
    );
    await user.click(screen.getByRole('button', { name: 'Finish' }));

    expect(await screen.findByRole('link', { name: 'Continue' })).toHaveAttribute(
      'href',
      '/calls/99/',
    );
    expect(sentBody(fetchStub, 'POST /new_call/')).toEqual({
      new: true,
      id: null,
      committee: 3,
      name: 'Beamtime 2027',
      openDateTime: new Date('2027-03-01T09:00').toISOString(),
      closeDateTime: new Date('2027-04-01T17:00').toISOString(),
      reviewOpenDateTime: new Date('2027-04-02T09:00').toISOString(),
      reviewCloseDateTime: new Date('2027-05-01T17:00').toISOString(),
      isReviewOpen: false,
      // Both on unless the chair turns them off.
      conflicts: { enabled: true, declarationRequired: true },
      description: '',
      proposalTypes: [{ typeName: 'Standard', typeId: null, proposalForms: [1], reviewForms: [2] }],
    });
  });

  it('says what a type lacks only once the user tries to go on, not before they start', async () => {
    stubApi({ 'GET /user_details/': { body: chair }, 'GET /forms/': { body: forms } });
    const user = userEvent.setup();
    renderApp('/calls/new', { token: 'k' });
    await fillDetails();
    await user.click(screen.getByRole('button', { name: 'Next' }));

    const type = screen.getByRole('region', { name: 'Proposal type 1' });
    expect(within(type).getByLabelText(/^Type name/)).toBeInTheDocument();
    expect(screen.queryByText(callMessages.noProposalForm)).not.toBeInTheDocument();
    expect(screen.queryByText(callMessages.noReviewForm)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Some fields need your attention before you go on.',
    );
    expect(within(type).getByText(callMessages.noProposalForm)).toBeInTheDocument();
    expect(within(type).getByText(callMessages.noReviewForm)).toBeInTheDocument();
    expect(within(type).getByText(validationMessages.required)).toBeInTheDocument();
    // Still on the forms page.
    expect(screen.queryByRole('button', { name: 'Finish' })).not.toBeInTheDocument();

    // Each message goes once its list is fixed.
    await addForm(user, 'proposal', 1);
    expect(within(type).queryByText(callMessages.noProposalForm)).not.toBeInTheDocument();
    expect(within(type).getByText(callMessages.noReviewForm)).toBeInTheDocument();
  });

  it('shows the date order messages as the dates are typed', async () => {
    stubApi({ 'GET /user_details/': { body: chair }, 'GET /forms/': { body: forms } });
    renderApp('/calls/new', { token: 'k' });
    await fillDetails();
    expect(screen.queryByText(callDateMessages.closeBeforeOpen)).not.toBeInTheDocument();

    setValue('Submission deadline', '2027-02-01T17:00');
    expect(screen.getByText(callDateMessages.closeBeforeOpen)).toBeInTheDocument();
    setValue('Review starts', '2027-01-15T09:00');
    expect(screen.getByText(callDateMessages.reviewOpenBeforeClose)).toBeInTheDocument();
    setValue('Review deadline', '2027-01-10T09:00');
    expect(screen.getByText(callDateMessages.reviewCloseBeforeOpen)).toBeInTheDocument();

    // Next does not go on while they stand.
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByLabelText(/^Submission deadline/)).toBeInTheDocument();

    setValue('Submission deadline', '2027-03-01T09:00');
    setValue('Review starts', '2027-03-01T09:00');
    setValue('Review deadline', '2027-03-01T09:00');
    // Equal dates are allowed ("on or after").
    for (const message of Object.values(callDateMessages)) {
      expect(screen.queryByText(message)).not.toBeInTheDocument();
    }
  });

  it('locks the forms of a type with saved proposals, and says why', async () => {
    const call = makeCall({
      abilities: chairAbilities,
      proposalTypes: [makeProposalType({ hasProposals: true })],
    });
    stubApi({
      'GET /user_details/': { body: chair },
      'GET /calls/12/': { body: call },
      'GET /forms/': { body: forms },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/update', { token: 'k' });
    await screen.findByRole('heading', { name: 'Edit Call for Proposal' }, AFTER_NAVIGATION);
    expect(input('Committee')).toHaveAttribute('readonly');
    expect(screen.getByRole('checkbox', { name: /Review open to all/ })).toBeDisabled();
    expect(screen.getByText(callMessages.reviewOpenFixed)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));

    const type = screen.getByRole('region', { name: 'Standard' });
    expect(
      within(type).getByText(callMessages.proposalFormsLocked('Standard')),
    ).toBeInTheDocument();
    expect(within(type).getByText(callMessages.typeHasProposals('Standard'))).toBeInTheDocument();
    expect(
      within(type).getByRole('button', { name: 'Delete proposal type Standard' }),
    ).toBeDisabled();
    expect(
      within(type).queryByRole('button', { name: /^Remove Project Details/ }),
    ).not.toBeInTheDocument();
    expect(within(type).queryByLabelText(/^Add a proposal form/)).not.toBeInTheDocument();
    // No reviews yet: the review forms may still change.
    expect(within(type).getByRole('button', { name: /^Remove Science Review/ })).toBeEnabled();
  });

  it('goes back to the page the server refused, with its messages in the red list', async () => {
    const call = makeCall({ abilities: chairAbilities });
    stubApi({
      'GET /user_details/': { body: chair },
      'GET /calls/12/': { body: call },
      'GET /forms/': { body: forms },
      'POST /new_call/': {
        status: 400,
        body: {
          detail: messages.validationFailed,
          code: 'validation_error',
          fields: { description: [callMessages.imageTooLarge] },
        },
      },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/update', { token: 'k' });
    await screen.findByRole('heading', { name: 'Edit Call for Proposal' }, AFTER_NAVIGATION);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`Description: ${callMessages.imageTooLarge}`);
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Beamtime 2026');
    // Editing clears the list (spec section 8).
    setValue('Name', 'Beamtime 2026 (revised)');
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it("shows the server's messages under the fields they are about, on either page", async () => {
    const call = makeCall({ abilities: chairAbilities });
    stubApi({
      'GET /user_details/': { body: chair },
      'GET /calls/12/': { body: call },
      'GET /forms/': { body: forms },
      'POST /new_call/': {
        status: 400,
        body: {
          detail: messages.validationFailed,
          code: 'validation_error',
          fields: {
            name: ['A call with this name already exists.'],
            'proposalTypes.0.typeName': ['Type names must differ.'],
          },
        },
      },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/update', { token: 'k' });
    await screen.findByRole('heading', { name: 'Edit Call for Proposal' }, AFTER_NAVIGATION);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));

    await screen.findByRole('alert');
    expect(input('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(input('Name')).toHaveAccessibleDescription('A call with this name already exists.');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(input('Type name')).toHaveAccessibleDescription('Type names must differ.');
  });

  it('saves the exact instant of a date the user left alone, seconds and all', async () => {
    const exact = '2026-07-01T09:30:45.123Z';
    const call = makeCall({
      abilities: chairAbilities,
      commencement: exact,
      termination: '2026-08-01T00:00:00.000Z',
      reviewCommencement: '2026-08-02T00:00:00.000Z',
      reviewTermination: '2026-09-01T00:00:00.000Z',
    });
    const fetchStub = stubApi({
      'GET /user_details/': { body: chair },
      'GET /calls/12/': { body: call },
      'GET /forms/': { body: forms },
      'POST /new_call/': { status: 201, body: { ...call, name: 'Beamtime 2026 (revised)' } },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/update', { token: 'k' });
    await screen.findByRole('heading', { name: 'Edit Call for Proposal' }, AFTER_NAVIGATION);
    setValue('Name', 'Beamtime 2026 (revised)');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));

    await screen.findByRole('link', { name: 'Continue' });
    expect(sentBody(fetchStub, 'POST /new_call/')).toMatchObject({
      new: false,
      id: 12,
      // The version the edit was made on, so a newer save by someone else is not overwritten.
      version: call.version,
      name: 'Beamtime 2026 (revised)',
      openDateTime: exact,
      closeDateTime: call.termination,
    });
  });

  it('says so when another chair saved the call first, instead of overwriting their work', async () => {
    const call = makeCall({ abilities: chairAbilities, version: 4 });
    const stale =
      'Someone else changed this call since you opened it. Reload it to see their changes, then make yours again.';
    stubApi({
      'GET /user_details/': { body: chair },
      'GET /calls/12/': { body: call },
      'GET /forms/': { body: forms },
      'POST /new_call/': { status: 409, body: { code: 'conflict', detail: stale } },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/update', { token: 'k' });
    await screen.findByRole('heading', { name: 'Edit Call for Proposal' }, AFTER_NAVIGATION);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(await screen.findByText(stale)).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Continue' })).toBeNull();
  });

  it('sends the minute the user chose when they change a date saved with seconds', async () => {
    const call = makeCall({ abilities: chairAbilities, commencement: '2026-03-01T09:30:45.123Z' });
    const fetchStub = stubApi({
      'GET /user_details/': { body: chair },
      'GET /calls/12/': { body: call },
      'GET /forms/': { body: forms },
      'POST /new_call/': { status: 201, body: call },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/update', { token: 'k' });
    await screen.findByRole('heading', { name: 'Edit Call for Proposal' }, AFTER_NAVIGATION);
    setValue('Submission opens', '2026-03-01T10:00');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));

    await screen.findByRole('link', { name: 'Continue' });
    expect(sentBody(fetchStub, 'POST /new_call/')).toMatchObject({
      openDateTime: new Date('2026-03-01T10:00').toISOString(),
    });
  });

  it('tells the chair who a moved deadline reaches before saving it, and Cancel saves nothing', async () => {
    const call = makeCall({
      abilities: chairAbilities,
      termination: '2026-08-01T00:00:00.000Z',
      reviewCommencement: '2026-08-02T00:00:00.000Z',
      reviewTermination: '2026-09-01T00:00:00.000Z',
    });
    const earlier = new Date('2026-07-20T17:00').toISOString();
    const impactPath = `GET /calls/12/deadline_impact/?${new URLSearchParams({
      termination: earlier,
      reviewTermination: call.reviewTermination,
    })}`;
    const fetchStub = stubApi({
      'GET /user_details/': { body: chair },
      'GET /calls/12/': { body: call },
      'GET /forms/': { body: forms },
      [impactPath]: {
        body: {
          draftsEarlier: 12,
          peopleMailed: 15,
          draftsLater: 0,
          extensionsPast: 1,
          extensionsOvertaken: 0,
          reviewsNotSaved: 3,
        },
      },
      'POST /new_call/': { status: 201, body: call },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/update', { token: 'k' });
    await screen.findByRole('heading', { name: 'Edit Call for Proposal' }, AFTER_NAVIGATION);
    // The input says which zone it is in: the browser's.
    expect(input('Submission deadline')).toHaveAccessibleName(
      `Submission deadline (${timeZoneLabel(new Date(call.termination))})`,
    );
    setValue('Submission deadline', '2026-07-20T17:00');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));

    const dialog = await screen.findByRole('dialog', { name: 'Change the deadlines?' });
    expect(
      await within(dialog).findByText(
        '12 proposals are still drafts: 15 people (their authors and collaborators) will be mailed that the deadline is now earlier.',
      ),
    ).toBeVisible();
    expect(dialog).toHaveTextContent(
      `The submission deadline moves earlier, from ${formatDateTime(new Date(call.termination))} to ${formatDateTime(new Date(earlier))}.`,
    );
    expect(dialog).toHaveTextContent(
      '1 extension ends after the new deadline: its applicant keeps it.',
    );
    // The review deadline stays: nothing is said of reviews.
    expect(dialog).not.toHaveTextContent('review deadline');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(apiCalls(fetchStub)).not.toContain('POST /new_call/');

    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Change the deadlines?' })).getByRole(
        'button',
        { name: 'Save Changes' },
      ),
    );
    await screen.findByRole('link', { name: 'Continue' });
    expect(sentBody(fetchStub, 'POST /new_call/')).toMatchObject({ closeDateTime: earlier });
  });

  it('saves at once when no deadline moves', async () => {
    const call = makeCall({ abilities: chairAbilities });
    const fetchStub = stubApi({
      'GET /user_details/': { body: chair },
      'GET /calls/12/': { body: call },
      'GET /forms/': { body: forms },
      'POST /new_call/': { status: 201, body: call },
    });
    const user = userEvent.setup();
    renderApp('/calls/12/update', { token: 'k' });
    await screen.findByRole('heading', { name: 'Edit Call for Proposal' }, AFTER_NAVIGATION);
    setValue('Name', 'Renamed');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await screen.findByRole('link', { name: 'Continue' });
    expect(apiCalls(fetchStub).some((c) => c.includes('deadline_impact'))).toBe(false);
  });

  it('shows the no-permission page to non-chairs and on a closed call', async () => {
    stubApi({ 'GET /user_details/': { body: makeUser() } });
    const first = renderApp('/calls/new', { token: 'k' });
    expect(
      await screen.findByText(messages.noPermission, undefined, AFTER_NAVIGATION),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    first.unmount();

    stubApi({
      'GET /user_details/': { body: chair },
      'GET /calls/12/': {
        body: makeCall({ closed: true, abilities: { ...chairAbilities, edit: false } }),
      },
    });
    renderApp('/calls/12/update', { token: 'k' });
    expect(
      await screen.findByText(messages.noPermission, undefined, AFTER_NAVIGATION),
    ).toBeVisible();
  });
});
