import type { UserDetails } from '@merit/contract';
import { validationMessages } from '@merit/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

/** A server that keeps the user's details, so a reload shows what was saved. */
function accountServer(initial: UserDetails, extra: Parameters<typeof stubApi>[0] = {}) {
  let current = initial;
  const fetchStub = stubApi({
    'GET /user_details/': () => ({ body: current }),
    'PATCH /user_details/': ({ body }) => {
      const changes = body as Record<string, unknown>;
      const { email, gender_choice, ...rest } = changes;
      current = {
        ...current,
        ...rest,
        ...(gender_choice ? { gender: gender_choice as UserDetails['gender'] } : {}),
        pending_email: typeof email === 'string' ? email : current.pending_email,
      };
      return { body: current };
    },
    // The Sessions section (features/account/SessionsTable.test.tsx tests it).
    'GET /auth/sessions/': { body: [] },
    // The Recent collaborators section (features/conflicts/RecentCollaborators.test.tsx).
    'GET /recent_collaborators/': { body: { collaborators: [] } },
    'POST /user_hash/': () => {
      current = { ...current, hash: 'NewHash234' };
      return { body: { hash: current.hash } };
    },
    ...extra,
  });
  const detailLoads = () =>
    apiCalls(fetchStub).filter((call) => call === 'GET /user_details/').length;
  return { fetchStub, detailLoads };
}

async function openAccount(user: UserDetails = makeUser(), extra = {}) {
  const server = accountServer(user, extra);
  renderApp('/account/', { token: 'k' });
  await screen.findByRole('heading', { name: 'My Account' }, AFTER_NAVIGATION);
  return { ...server, user: userEvent.setup() };
}

function detailsRow(label: string) {
  return screen.getByRole('rowheader', { name: label }).closest('tr')!;
}

describe('AccountPage', () => {
  it('sends only the changed fields, then closes the dialog and reloads the details', async () => {
    const { fetchStub, detailLoads, user } = await openAccount();
    const loadsBefore = detailLoads();

    await user.click(screen.getByRole('button', { name: 'Edit details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit your details' });
    expect(within(dialog).getByLabelText(/^First name/)).toHaveValue('Ada');
    fireEvent.change(within(dialog).getByLabelText(/^Institution/), {
      target: { value: 'Difference Engines' },
    });
    fireEvent.change(within(dialog).getByLabelText(/^Gender/), { target: { value: 'OTHER' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sentBody(fetchStub, 'PATCH /user_details/')).toEqual({
      institution: 'Difference Engines',
      gender_choice: 'OTHER',
    });
    await waitFor(() => expect(detailLoads()).toBe(loadsBefore + 1));
    expect(detailsRow('Institution')).toHaveTextContent('Difference Engines');
    expect(detailsRow('Gender')).toHaveTextContent('Other/Prefer not to say');
    expect(screen.getByRole('alert')).toHaveTextContent('Your details have been saved.');
  });

  it('shows a rule as the user edits, and keeps the dialog open when the server refuses', async () => {
    const { user } = await openAccount(makeUser(), {
      'PATCH /user_details/': {
        status: 400,
        body: {
          detail: 'The request is not valid. Check the highlighted fields.',
          code: 'validation_error',
          fields: { email: [validationMessages.emailTaken] },
        },
      },
    });

    await user.click(screen.getByRole('button', { name: 'Edit details' }));
    const dialog = await screen.findByRole('dialog');
    const phone = within(dialog).getByLabelText(/^Phone number/);
    fireEvent.change(phone, { target: { value: 'call me' } });
    fireEvent.blur(phone);
    expect(within(dialog).getByText(validationMessages.phone)).toBeInTheDocument();
    fireEvent.change(phone, { target: { value: '0412 345 678' } });
    expect(within(dialog).queryByText(validationMessages.phone)).not.toBeInTheDocument();

    const email = within(dialog).getByLabelText(/^Email/);
    fireEvent.change(email, { target: { value: 'taken@example.org' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      `Email: ${validationMessages.emailTaken}`,
    );
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    // Under the field, in place of its hint.
    expect(email).toHaveAccessibleDescription(validationMessages.emailTaken);
    // Editing clears the list (spec section 8).
    fireEvent.change(email, { target: { value: 'taken@example.orgx' } });
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says where the confirmation link went when the email changes', async () => {
    const { fetchStub, user } = await openAccount();

    await user.click(screen.getByRole('button', { name: 'Edit details' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/^Email/), {
      target: { value: 'ada@new.example.org' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'We sent a confirmation link to ada@new.example.org. Your email changes when you follow it.',
    );
    expect(sentBody(fetchStub, 'PATCH /user_details/')).toEqual({ email: 'ada@new.example.org' });
    // While the dialog fades out, the page behind it is still aria-hidden.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(detailsRow('Email')).toHaveTextContent('ada@example.org');
    expect(detailsRow('New email (awaiting confirmation)')).toHaveTextContent(
      'ada@new.example.org',
    );
  });

  it('shows a federated user their email without letting them change it', async () => {
    await openAccount(makeUser({ is_aaf: true }));
    await userEvent.click(screen.getByRole('button', { name: 'Edit details' }));
    const email = within(await screen.findByRole('dialog')).getByLabelText('Email');
    expect(email).toHaveValue('ada@example.org');
    expect(email).toHaveAttribute('readonly');
  });

  it('asks before renewing the collaborator hash, and renews only when confirmed', async () => {
    const { fetchStub, user } = await openAccount();
    expect(screen.getByLabelText('Your collaborator hash')).toHaveTextContent('Xk7pQ2mNa9');

    await user.click(screen.getByRole('button', { name: 'Renew' }));
    const confirm = await screen.findByRole('dialog', { name: 'Renew your collaborator hash?' });
    expect(confirm).toHaveTextContent('People who have your old hash can no longer use it');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(apiCalls(fetchStub)).not.toContain('POST /user_hash/');

    await user.click(screen.getByRole('button', { name: 'Renew' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Renew hash' }),
    );

    await waitFor(() =>
      expect(screen.getByLabelText('Your collaborator hash')).toHaveTextContent('NewHash234'),
    );
    expect(apiCalls(fetchStub)).toContain('POST /user_hash/');
  });

  it('copies the hash to the clipboard and says so', async () => {
    const { user } = await openAccount();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });

    await user.click(screen.getByRole('button', { name: 'Copy' }));

    expect(writeText).toHaveBeenCalledWith('Xk7pQ2mNa9');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Collaborator hash copied to the clipboard.',
    );
  });

  it('lists current roles, and all of them with a Current column on request', async () => {
    const role = {
      committeeId: 1,
      role: 'MEMBER' as const,
      commencement: '2024-01-01T00:00:00.000Z',
      termination: '2030-01-01T00:00:00.000Z',
    };
    const { user } = await openAccount(
      makeUser({
        roles: [
          { ...role, id: 1, committeeName: 'Astronomy', current: true },
          { ...role, id: 2, committeeName: 'Geology', role: 'CHAIR', current: false },
        ],
      }),
    );
    const table = screen.getByRole('table', { name: 'Committee roles' });
    expect(within(table).getByText('Astronomy')).toBeInTheDocument();
    expect(within(table).queryByText('Geology')).not.toBeInTheDocument();

    await user.click(screen.getByLabelText('Include past and future roles'));

    const row = within(table).getByText('Geology').closest('tr')!;
    expect(within(row).getByText('Chair')).toBeInTheDocument();
    expect(within(row).getByText('No')).toBeInTheDocument();
  });

  it.each([
    ['a password account', false, true],
    ['an account that already logs in through its institution', true, false],
  ])('%s: offers to link the institutional login: %s', async (_name, isAaf, offered) => {
    const oidc = { displayName: 'Example Federation', loginUrl: '/api/v1/auth/oidc/login/' };
    const { fetchStub } = await openAccount(makeUser({ is_aaf: isAaf }), {
      'GET /auth/methods/': { body: { oidc } },
    });
    await waitFor(() => expect(apiCalls(fetchStub)).toContain('GET /auth/methods/'));
    await waitFor(() =>
      expect(Boolean(screen.queryByRole('button', { name: 'Link institutional login' }))).toBe(
        offered,
      ),
    );
  });

  it('says when the institutional login has been linked', async () => {
    accountServer(makeUser());
    const app = renderApp('/account/?linked=1', { token: 'k' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "Your institution's login is now linked to this account.",
    );
    await waitFor(() => expect(app.location()).toBe('/account/'));
  });
});
