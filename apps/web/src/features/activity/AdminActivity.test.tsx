import { messages } from '@merit/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminUser } from '../../test/admin-fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';
import { makeActivityEntry, makeActivityPage } from './activity.fixtures';

const LOGIN = makeActivityEntry({
  key: 'security-5',
  at: '2026-03-05T07:30:00.000Z',
  action: 'login.succeeded',
  label: 'Logged in',
  actor: { id: 9, name: 'Grace Hopper' },
  callId: null,
  proposalId: null,
  proposalName: null,
  changes: {},
  requestId: 'req-7f3a',
  address: '192.0.2.7',
});

const SUBMITTED = makeActivityEntry({ requestId: 'req-1b2c', address: '198.51.100.4' });

const ACTIONS = [
  { action: 'proposal.submit', label: 'Submitted the proposal' },
  { action: 'login.succeeded', label: 'Logged in' },
];

describe('the administrators’ Activity page', () => {
  it('is in the side menu’s administration, and shows security events with their chip beside the audit rows', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'GET /user_details/': { body: adminUser },
      'GET /activity/?page=1&pageSize=10': {
        body: makeActivityPage({ items: [LOGIN, SUBMITTED], actions: ACTIONS }),
      },
      'GET /activity/?action=login.succeeded&page=1&pageSize=10': {
        body: makeActivityPage({ items: [LOGIN], actions: ACTIONS }),
      },
    });
    const { location } = renderApp('/admin/activity', { token: 'k' });
    await screen.findByRole('heading', { level: 1, name: 'Activity' }, AFTER_NAVIGATION);
    // Beside the other administration pages in the side menu.
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const link = within(nav).getByRole('link', { name: 'Activity' });
    expect(link).toHaveAttribute('href', '/admin/activity');
    expect(link).toHaveAttribute('aria-current', 'page');

    const table = await screen.findByRole('table', { name: 'Activity of the whole system' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['When', 'Who', 'Action', 'Proposal', 'Changes', 'Request']);
    const login = within(table).getByRole('row', { name: /Logged in/ });
    expect(within(login).getByText('Security')).toBeVisible();
    expect(login).toHaveTextContent('Grace Hopper');
    expect(login).toHaveTextContent('Address: 192.0.2.7');
    expect(login).toHaveTextContent('Request: req-7f3a');
    const submitted = within(table).getByRole('row', { name: /Submitted the proposal/ });
    expect(within(submitted).queryByText('Security')).not.toBeInTheDocument();
    expect(within(submitted).getByRole('link', { name: 'Dark matter survey' })).toHaveAttribute(
      'href',
      '/calls/12/proposals/30/',
    );

    // The whole system's filters: no proposal number, the security events among the actions.
    expect(screen.queryByRole('textbox', { name: 'Proposal ID' })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'Logged in');
    expect(await screen.findByText('1 entry, newest first')).toBeInTheDocument();
    expect(location()).toBe('/admin/activity?action=login.succeeded');
    expect(apiCalls(fetchStub)).toContain(
      'GET /activity/?action=login.succeeded&page=1&pageSize=10',
    );
  });

  it('is for administrators only', async () => {
    const fetchStub = stubApi({ 'GET /user_details/': { body: makeUser() } });
    renderApp('/admin/activity', { token: 'k' });
    expect(await screen.findByText(messages.noPermission, {}, AFTER_NAVIGATION)).toBeVisible();
    expect(apiCalls(fetchStub)).toEqual(['GET /user_details/']);
  });
});
