import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, renderApp, stubApi } from '../../test/render-app';
import { formatCallDate } from '../calls/call-dates';
import { makeMyReminders } from '../reminders/reminders.fixtures';

function openAccount(reminders = makeMyReminders()) {
  stubApi({
    'GET /user_details/': { body: makeUser() },
    'GET /auth/sessions/': { body: [] },
    'GET /recent_collaborators/': { body: { collaborators: [] } },
    'GET /my_reminders/': { body: reminders },
  });
  renderApp('/account/', { token: 'k' });
  return screen.findByRole('region', { name: 'Reminders you receive' }, AFTER_NAVIGATION);
}

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('Reminders you receive, on My Account', () => {
  it('lists the reminders coming and those sent lately, and says why they stay on', async () => {
    const section = await openAccount();
    expect(section).toHaveTextContent(
      'Reminders are part of the committee’s process, so they cannot be turned off. When several are due at once, they come as one mail.',
    );
    const coming = await within(section).findByRole('table', { name: 'Reminders coming' });
    expect(rowsOf(coming)).toEqual([
      ['Call', 'What', 'When'],
      ['Beamtime 2026', '2 reviews to write', formatCallDate('2026-04-24T00:00:00.000Z')],
      ['Rapid access 2026', '1 draft to submit', formatCallDate('2026-04-28T00:00:00.000Z')],
    ]);
    const sent = within(section).getByRole('table', { name: 'Sent lately' });
    expect(rowsOf(sent)).toEqual([
      ['Call', 'What', 'Sent'],
      [
        'Beamtime 2026',
        'Reminder sent by a chair (3 items)',
        formatCallDate('2026-04-20T08:00:00.000Z'),
      ],
    ]);
    expect(within(section).queryByText('You have no reminders coming.')).toBeNull();
  });

  it('says so when none are coming', async () => {
    const section = await openAccount(makeMyReminders({ upcoming: [], sent: [] }));
    expect(await within(section).findByText('You have no reminders coming.')).toBeVisible();
    expect(within(section).queryByRole('table')).toBeNull();
  });
});
