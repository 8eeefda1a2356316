import { formatDateTime, messages } from '@merit/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';
import { chairAbilities, makeCall } from '../calls/calls.fixtures';
import { makeActivityEntry, makeActivityPage } from './activity.fixtures';

/** Carla (3), a chair of the call's committee. */
const carla = makeUser({ id: 3, username: 'carla', first_name: 'Carla', last_name: 'Chair' });

const ASSIGNED = makeActivityEntry({
  key: 'audit-120',
  at: '2026-03-04T08:00:00.000Z',
  action: 'proposal.add_reviewer',
  label: 'Assigned a reviewer',
  actor: { id: 3, name: 'Carla Chair' },
  subject: { id: 9, name: 'Grace Hopper' },
  changes: { reviewer: { after: 'Grace Hopper' } },
});

const FIRST_PAGE = 'GET /calls/12/activity/?page=1&pageSize=10';
const FILTERED =
  'GET /calls/12/activity/?user=3&action=proposal.add_reviewer&proposal=30' +
  '&from=2026-03-01T00%3A00%3A00.000Z&to=2026-03-31T23%3A59%3A59.999Z';

function stubPage(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /user_details/': { body: carla },
    'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
    [FIRST_PAGE]: { body: makeActivityPage({ items: [makeActivityEntry(), ASSIGNED] }) },
    ...extra,
  });
}

async function openPage(path = '/calls/12/activity') {
  const view = renderApp(path, { token: 'k' });
  await screen.findByRole('heading', { level: 1, name: 'Activity' }, AFTER_NAVIGATION);
  return view;
}

const field = (name: string) => screen.getByRole('combobox', { name });

describe('the Activity page of a call', () => {
  it('is in the call’s Manage menu for its chairs, and lists its rows with their proposals', async () => {
    const user = userEvent.setup();
    stubPage();
    const { location } = renderApp('/calls/12/', { token: 'k' });
    await user.click(await screen.findByRole('button', { name: 'Manage' }, AFTER_NAVIGATION));
    await user.click(
      within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Activity' }),
    );

    const table = await screen.findByRole(
      'table',
      { name: 'Activity of Beamtime 2026' },
      AFTER_NAVIGATION,
    );
    expect(location()).toBe('/calls/12/activity');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['When', 'Who', 'Action', 'Proposal', 'Changes']);
    const assigned = within(table).getByRole('row', { name: /Assigned a reviewer/ });
    expect(assigned).toHaveTextContent(formatDateTime(new Date('2026-03-04T08:00:00.000Z')));
    expect(assigned).toHaveTextContent('Carla Chair');
    expect(assigned).toHaveTextContent('Person: Grace Hopper');
    expect(within(assigned).getByRole('link', { name: 'Dark matter survey' })).toHaveAttribute(
      'href',
      '/calls/12/proposals/30/',
    );
    // Chairs see no request ids or addresses; nor is anything here a security event.
    expect(within(table).queryByText('Security')).not.toBeInTheDocument();
    expect(table).not.toHaveTextContent('Address:');
  });

  it('filters by person, action, proposal and days through the address, and downloads that filter as CSV', async () => {
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:activity';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    onTestFinished(() => click.mockRestore());
    const csv = 'at,actor,action\r\n2026-03-04T08:00:00.000Z,Carla Chair,proposal.add_reviewer\r\n';
    const only = { body: makeActivityPage({ items: [ASSIGNED] }) };
    const fetchStub = stubPage({
      'GET /calls/12/activity/?user=3&page=1&pageSize=10': only,
      'GET /calls/12/activity/?user=3&action=proposal.add_reviewer&page=1&pageSize=10': only,
      'GET /calls/12/activity/?user=3&action=proposal.add_reviewer&proposal=30&page=1&pageSize=10':
        only,
      'GET /calls/12/activity/?user=3&action=proposal.add_reviewer&proposal=30&from=2026-03-01T00%3A00%3A00.000Z&page=1&pageSize=10':
        only,
      [`${FILTERED}&page=1&pageSize=10`]: only,
      [`${FILTERED}&format=csv`]: { text: { content: csv, type: 'text/csv' } },
    });
    const { location } = await openPage();
    await screen.findByRole('table', { name: 'Activity of Beamtime 2026' });

    await user.selectOptions(field('Person'), 'Carla Chair');
    await user.selectOptions(field('Action'), 'Assigned a reviewer');
    await user.type(screen.getByRole('textbox', { name: 'Proposal ID' }), '30');
    // Asked for once typing pauses, and only then: the page has the number in its filters.
    await waitFor(() =>
      expect(apiCalls(fetchStub)).toContain(
        'GET /calls/12/activity/?user=3&action=proposal.add_reviewer&proposal=30&page=1&pageSize=10',
      ),
    );
    expect(apiCalls(fetchStub).some((call) => call.includes('proposal=3&'))).toBe(false);
    fireEvent.change(screen.getByLabelText('From (UTC)'), { target: { value: '2026-03-01' } });

    fireEvent.change(screen.getByLabelText('To (UTC)'), { target: { value: '2026-03-31' } });

    await waitFor(() => expect(apiCalls(fetchStub)).toContain(`${FILTERED}&page=1&pageSize=10`));
    expect(location()).toBe(
      '/calls/12/activity?user=3&action=proposal.add_reviewer&proposal=30&from=2026-03-01&to=2026-03-31',
    );

    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(apiCalls(fetchStub)).toContain(`${FILTERED}&format=csv`);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toMatch(
      /^activity-call-12-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    // Saved with the byte order mark, as every CSV download is.
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(`\uFEFF${csv}`);

    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(location()).toBe('/calls/12/activity');
    expect(screen.getByRole('textbox', { name: 'Proposal ID' })).toHaveValue('');
  });

  it('opens a shared filtered address with its filters in place', async () => {
    const fetchStub = stubPage({
      'GET /calls/12/activity/?user=3&from=2026-03-01T00%3A00%3A00.000Z&page=2&pageSize=10': {
        body: makeActivityPage({ items: [ASSIGNED], page: 2, total: 11 }),
      },
    });
    await openPage('/calls/12/activity?user=3&from=2026-03-01&page=2');
    expect(
      await screen.findByRole('row', { name: /Assigned a reviewer/ }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(field('Person')).toHaveValue('3');
    expect(screen.getByLabelText('From (UTC)')).toHaveValue('2026-03-01');
    expect(screen.getByText('11–11 of 11')).toBeInTheDocument();
    expect(apiCalls(fetchStub)).not.toContain(FIRST_PAGE);
  });

  it('says when nothing matches, and refuses a member who is not a chair', async () => {
    stubPage({
      'GET /calls/12/activity/?action=call.close&page=1&pageSize=10': {
        body: makeActivityPage({ items: [] }),
      },
    });
    await openPage('/calls/12/activity?action=call.close');
    expect(await screen.findByText('Nothing matches these filters.')).toBeVisible();

    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall() },
    });
    renderApp('/calls/12/activity', { token: 'k' });
    expect(
      await screen.findAllByText(messages.noPermission, {}, AFTER_NAVIGATION),
    ).not.toHaveLength(0);
    expect(apiCalls(fetchStub).filter((call) => call.includes('/activity/'))).toEqual([]);
  });
});
