import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSummary } from '../calls/calls.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';

const admin = makeUser({ id: 1, username: 'admin', is_admin: true });
const TOKEN = '3.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
const nothingYet = { committees: 0, chairs: 0, forms: 0, calls: 0, people: 0 };
const chairRole = {
  id: 1,
  committeeId: 3,
  committeeName: 'Synchrotron',
  role: 'CHAIR' as const,
  commencement: '2020-01-01T00:00:00.000Z',
  termination: '2099-12-31T23:59:59.999Z',
  current: true,
};

/** The dashboard's own answers, and `more` on top. */
function stubDashboard(user: ReturnType<typeof makeUser>, more: Parameters<typeof stubApi>[0]) {
  return stubApi({
    'GET /user_details/': { body: user },
    'GET /calls/open/': { body: [] },
    'GET /proposals/': { body: [] },
    'GET /pending_reviews/count/': { body: { total: 0 } },
    'GET /reviews/': { body: [] },
    ...more,
  });
}

const stepOf = (name: string) =>
  screen.getByRole('heading', { name, level: 3 }).closest('li') as HTMLElement;

afterEach(() => window.localStorage.clear());

describe('the guided first run', () => {
  it('shows the admin a checklist, ticked from the server’s counts, with the invitation link', async () => {
    stubDashboard(admin, {
      'GET /admin/setup/': { body: { ...nothingYet, committees: 1, forms: 2 } },
      'GET /committees/': { body: [{ id: 3, name: 'Synchrotron', canDelete: true }] },
      'GET /committees/3/invitation/': { body: { token: TOKEN, committeeName: 'Synchrotron' } },
    });
    const user = userEvent.setup();
    renderApp('/', { token: 'k' });
    const checklist = await screen.findByRole(
      'region',
      { name: 'Set up Merit for your committee' },
      AFTER_NAVIGATION,
    );
    expect(checklist).toHaveTextContent('2 of 5 steps done.');
    const ticks = ['Done', 'To do', 'Done', 'To do', 'To do'];
    const titles = [
      'Create a committee',
      'Give someone the chair role',
      'Add forms',
      'Create a call',
      'Invite people',
    ];
    titles.forEach((title, index) => expect(stepOf(title)).toHaveTextContent(ticks[index]!));
    expect(within(stepOf('Add forms')).getByRole('link')).toHaveAttribute('href', '/forms/new');
    expect(within(stepOf('Create a call')).getByRole('link')).toHaveAttribute('href', '/calls/new');

    const link = await screen.findByDisplayValue(/\/auth\/register\?invite=/);
    expect(link).toHaveAccessibleName('Invitation link to Synchrotron');
    expect((link as HTMLInputElement).value).toBe(
      `${window.location.origin}/auth/register?invite=${encodeURIComponent(TOKEN)}`,
    );
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe((link as HTMLInputElement).value);
    expect(
      await screen.findByText('Invitation link to Synchrotron copied to the clipboard.'),
    ).toBeInTheDocument();
  });

  it('goes away when dismissed, and stays away for that admin', async () => {
    const fetchStub = stubDashboard(admin, {
      'GET /admin/setup/': { body: nothingYet },
      'GET /committees/': { body: [] },
    });
    const user = userEvent.setup();
    const first = renderApp('/', { token: 'k' });
    const checklist = await screen.findByRole(
      'region',
      { name: 'Set up Merit for your committee' },
      AFTER_NAVIGATION,
    );
    expect(
      within(checklist).getByText('The link names a committee: create one first.'),
    ).toBeVisible();
    await user.click(within(checklist).getByRole('button', { name: 'Dismiss' }));
    expect(checklist).not.toBeInTheDocument();
    first.unmount();

    fetchStub.mockClear();
    renderApp('/', { token: 'k' });
    await screen.findByRole('heading', { name: 'My Proposals' }, AFTER_NAVIGATION);
    expect(screen.queryByRole('region', { name: /Set up Merit/ })).not.toBeInTheDocument();
    expect(apiCalls(fetchStub)).not.toContain('GET /admin/setup/');
  });

  it('shows no checklist once every step is done', async () => {
    stubDashboard(admin, {
      'GET /admin/setup/': { body: { committees: 1, chairs: 1, forms: 4, calls: 1, people: 3 } },
      'GET /committees/': { body: [] },
    });
    renderApp('/', { token: 'k' });
    await screen.findByRole('heading', { name: 'My Proposals' }, AFTER_NAVIGATION);
    await screen.findByText(/no call accepts proposals now/);
    expect(screen.queryByRole('region', { name: /Set up Merit/ })).not.toBeInTheDocument();
  });

  it('tells a chair with no call yet that there are no forms, and who makes them', async () => {
    stubDashboard(makeUser({ roles: [chairRole] }), {
      'GET /calls/': { body: [makeSummary({ id: 9, committeeId: 4 })] },
      'GET /forms/': { body: [] },
      'GET /committees/3/invitation/': { body: { token: TOKEN, committeeName: 'Synchrotron' } },
    });
    renderApp('/', { token: 'k' });
    const first = await screen.findByRole(
      'region',
      { name: 'Create your first call' },
      AFTER_NAVIGATION,
    );
    expect(
      await within(first).findByText(/There are no forms yet\. Administrators create forms/),
    ).toHaveTextContent('ask an administrator');
    expect(within(first).getByRole('link', { name: 'Add Call for Proposal' })).toHaveAttribute(
      'href',
      '/calls/new',
    );
    const invite = screen.getByRole('region', { name: 'Invite people to your committee' });
    expect(await within(invite).findByDisplayValue(/invite=/)).toHaveAccessibleName(
      'Invitation link to Synchrotron',
    );
  });

  it('lists the forms a chair may use, and says none once their committee has a call', async () => {
    const form = (id: number, display_name: string, type: 0 | 2) => ({
      id,
      name: id,
      display_name,
      type,
      version: '1',
      jsonSchema: {},
      uiSchema: {},
      initialData: null,
      options: null,
      isUsed: false,
    });
    stubDashboard(makeUser({ roles: [chairRole] }), {
      'GET /calls/': { body: [] },
      'GET /forms/': { body: [form(1, 'Project description', 0)] },
      'GET /committees/3/invitation/': { body: { token: TOKEN, committeeName: 'Synchrotron' } },
    });
    const first = renderApp('/', { token: 'k' });
    const panel = await screen.findByRole(
      'region',
      { name: 'Create your first call' },
      AFTER_NAVIGATION,
    );
    expect(await within(panel).findByText('Project description 1 (Proposal Form)')).toBeVisible();
    expect(panel).toHaveTextContent('There is no review form yet');
    first.unmount();

    stubDashboard(makeUser({ roles: [chairRole] }), {
      'GET /calls/': { body: [makeSummary({ id: 9, committeeId: 3 })] },
      'GET /committees/3/invitation/': { body: { token: TOKEN, committeeName: 'Synchrotron' } },
    });
    renderApp('/', { token: 'k' });
    await screen.findByRole(
      'region',
      { name: 'Invite people to your committee' },
      AFTER_NAVIGATION,
    );
    expect(
      screen.queryByRole('region', { name: 'Create your first call' }),
    ).not.toBeInTheDocument();
  });

  it('shows a person with no proposal the calls they may apply to', async () => {
    const canApply = makeSummary({ id: 1, name: 'Beamtime 2027' });
    const cannot = makeSummary({
      id: 2,
      name: 'Closed to me',
      abilities: { ...canApply.abilities, addProposal: false },
    });
    stubDashboard(makeUser(), {
      'GET /calls/open/': {
        body: [{ ...canApply, abilities: { ...canApply.abilities, addProposal: true } }, cannot],
      },
    });
    renderApp('/', { token: 'k' });
    const apply = await screen.findByRole(
      'link',
      { name: 'Apply to Beamtime 2027' },
      AFTER_NAVIGATION,
    );
    expect(apply).toHaveAttribute('href', '/calls/1/new');
    expect(
      screen.getByText('You have no proposals yet. These calls accept proposals now:'),
    ).toBeVisible();
    expect(screen.queryByText('Closed to me')).not.toBeInTheDocument();
    expect(
      screen.queryByRole('region', { name: 'Create your first call' }),
    ).not.toBeInTheDocument();
  });
});
