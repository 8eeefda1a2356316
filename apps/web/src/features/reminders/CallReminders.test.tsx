import type { ReminderRules, ReminderRulesSave } from '@merit/contract';
import {
  defaultReminderRules,
  formatDateTime,
  REMINDER_FIELD_HELP,
  reminderMessages,
} from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';
import { chairAbilities, makeCall } from '../calls/calls.fixtures';
import { makeProgress } from '../progress/progress.fixtures';
import { makeRule, makeRules } from './reminders.fixtures';

/** Carla (3), a chair of the call's committee. */
const carla = makeUser({ id: 3, username: 'carla', first_name: 'Carla', last_name: 'Chair' });

const RULES = 'GET /calls/12/reminders/';
const SAVE = 'PUT /calls/12/reminders/';
const [authors7, , reviewers7] = defaultReminderRules();

function stubPage(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /user_details/': { body: carla },
    'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
    [RULES]: { body: makeRules() },
    ...extra,
  });
}

async function openPage() {
  const view = renderApp('/calls/12/reminders', { token: 'k' });
  await screen.findByRole('heading', { level: 1, name: 'Reminders' }, AFTER_NAVIGATION);
  await screen.findByRole('group', { name: 'Reminder 1' });
  return { ...view, user: userEvent.setup() };
}

const card = (position: number) => screen.getByRole('group', { name: `Reminder ${position}` });
const cards = () => screen.queryAllByRole('group', { name: /^Reminder \d+$/ });
const field = (position: number, name: string) =>
  within(card(position)).getByRole('textbox', { name });

/** Replaces a text field's value; pasted, so `{{` is typed as it is. */
async function replace(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.clear(input);
  await user.click(input);
  await user.paste(text);
}

describe('the Reminders page', () => {
  it('shows each rule: to whom, when, on or off, its text and when it is next due', async () => {
    stubPage();
    await openPage();
    expect(document.title).toBe('Reminders · Merit');
    expect(cards()).toHaveLength(3);

    const first = card(1);
    expect(within(first).getByRole('heading')).toHaveTextContent(
      'Reminder 1: 7 days before submission closes',
    );
    expect(within(first).getByRole('combobox', { name: 'Who is reminded' })).toHaveDisplayValue(
      'Applicants with a draft',
    );
    expect(within(first).getByRole('spinbutton', { name: 'Days' })).toHaveValue(7);
    expect(within(first).getByRole('combobox', { name: 'Unit' })).toHaveDisplayValue('days');
    expect(within(first).getByRole('combobox', { name: 'Before or after' })).toHaveDisplayValue(
      'before',
    );
    expect(within(first).getByRole('combobox', { name: 'Deadline' })).toHaveDisplayValue(
      'submission closes',
    );
    expect(within(first).getByRole('switch', { name: 'On' })).toBeChecked();
    expect(field(1, 'Subject')).toHaveValue(authors7!.subject);
    expect(field(1, 'Body')).toHaveValue(authors7!.body);
    expect(first).toHaveTextContent(
      `Next due: ${formatDateTime(new Date('2026-03-25T00:00:00.000Z'))}.`,
    );

    // Not a whole number of days: in hours.
    const third = card(3);
    expect(within(third).getByRole('spinbutton', { name: 'Hours' })).toHaveValue(36);
    expect(within(third).getByRole('combobox', { name: 'Before or after' })).toHaveDisplayValue(
      'after',
    );
    expect(within(third).getByRole('switch', { name: 'On' })).not.toBeChecked();
    expect(third).toHaveTextContent('Next due: not again.');

    const help = screen.getByRole('complementary', {
      name: 'Fields you can use in a subject or body',
    });
    expect(help).toHaveTextContent(`{{ deadline }}${REMINDER_FIELD_HELP.deadline}`);
    expect(help).toHaveTextContent(`{{ items }}${REMINDER_FIELD_HELP.items}`);
    expect(screen.getByRole('link', { name: 'Review Progress' })).toHaveAttribute(
      'href',
      '/calls/12/progress',
    );
  });

  it('refuses a field Merit does not know before sending, then saves the list as edited', async () => {
    let saved = makeRules();
    const fetchStub = stubPage({
      [RULES]: () => ({ body: saved }),
      [SAVE]: ({ body }) => {
        const { version, rules } = body as ReminderRulesSave;
        saved = {
          version: version + 1,
          rules: rules.map((rule, index) => ({
            ...rule,
            id: rule.id ?? 600 + index,
            nextDueAt: null,
          })),
        };
        return { body: saved };
      },
    });
    const { user } = await openPage();
    await replace(user, field(2, 'Subject'), 'Reviews due {{ dedline }}');
    expect(screen.getByText('Your changes to the reminders are not saved yet.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Save reminders' }));
    expect(field(2, 'Subject')).toHaveAccessibleDescription(
      reminderMessages.unknownField('dedline'),
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Some reminders need changes: see the fields marked below.',
    );
    expect(apiCalls(fetchStub)).not.toContain(SAVE);

    await replace(user, field(2, 'Subject'), 'Reviews for {{ call }} are due soon');
    const days = within(card(2)).getByRole('spinbutton', { name: 'Days' });
    await user.clear(days);
    await user.type(days, '3');
    expect(within(card(2)).getByRole('heading')).toHaveTextContent(
      'Reminder 2: 3 days before review closes',
    );
    await user.click(within(card(1)).getByRole('switch', { name: 'On' }));
    await user.click(screen.getByRole('button', { name: 'Save reminders' }));

    expect(await screen.findByText('The reminders have been saved.')).toBeVisible();
    expect(sentBody(fetchStub, SAVE)).toEqual({
      version: 3,
      rules: [
        { id: 501, ...authors7!, enabled: false },
        {
          id: 502,
          ...reviewers7!,
          offsetHours: -72,
          subject: 'Reviews for {{ call }} are due soon',
        },
        {
          id: 503,
          ...reviewers7!,
          offsetHours: 36,
          enabled: false,
          subject: 'Overdue: your reviews for {{ call }}',
        },
      ],
    });
    expect(screen.queryByText('Your changes to the reminders are not saved yet.')).toBeNull();
    expect(screen.queryByText(/Some reminders need changes/)).toBeNull();
  });

  it('shows the server’s refusal on the field it names', async () => {
    stubPage({
      [SAVE]: {
        status: 400,
        body: {
          detail: 'Some reminders cannot be saved.',
          code: 'validation_error',
          fields: { 'rules.2.body': [reminderMessages.unknownField('link2')] },
        },
      },
    });
    const { user } = await openPage();
    await user.click(within(card(3)).getByRole('switch', { name: 'On' }));
    await user.click(screen.getByRole('button', { name: 'Save reminders' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Some reminders cannot be saved.');
    expect(field(3, 'Body')).toHaveAccessibleDescription(reminderMessages.unknownField('link2'));
    expect(field(2, 'Body')).not.toHaveAccessibleDescription();
  });

  it('keeps the edits when someone else saved first, until Reload', async () => {
    const theirs: ReminderRules = {
      version: 4,
      rules: [makeRule({ id: 507, subject: 'Changed by Alan' })],
    };
    let refuse = true;
    const fetchStub = stubPage({
      [SAVE]: ({ body }) => {
        if (refuse) {
          refuse = false;
          return {
            status: 409,
            body: { detail: reminderMessages.stale, code: 'stale', current: theirs },
          };
        }
        return { body: { ...theirs, version: (body as ReminderRulesSave).version + 1 } };
      },
    });
    const { user } = await openPage();
    await replace(user, field(1, 'Subject'), 'My own subject');
    await user.click(screen.getByRole('button', { name: 'Save reminders' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(reminderMessages.stale);
    expect(field(1, 'Subject')).toHaveValue('My own subject');
    expect(cards()).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Save reminders' })).toBeDisabled();

    await user.click(within(alert).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(field(1, 'Subject')).toHaveValue('Changed by Alan');
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(within(card(1)).getByRole('switch', { name: 'On' }));
    await user.click(screen.getByRole('button', { name: 'Save reminders' }));
    await screen.findByText('The reminders have been saved.');
    const saves = fetchStub.mock.calls.filter((_c, i) => apiCalls(fetchStub)[i] === SAVE);
    expect(JSON.parse(saves.at(-1)![1]!.body as string)).toMatchObject({
      version: 4,
      rules: [{ id: 507, enabled: false }],
    });
  });

  it('adds a rule, deletes one after asking, and restores the defaults unsaved', async () => {
    const fetchStub = stubPage({
      [SAVE]: ({ body }) => ({
        body: {
          version: 4,
          rules: (body as ReminderRulesSave).rules.map((r, i) => ({
            ...r,
            id: r.id ?? 700 + i,
            nextDueAt: null,
          })),
        },
      }),
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Add reminder' }));
    expect(cards()).toHaveLength(4);
    expect(card(4)).toHaveTextContent('Next due: once saved.');
    await replace(user, field(4, 'Subject'), 'Last call for {{ call }}');
    await replace(user, field(4, 'Body'), 'Dear {{ name }}, {{ items }}');

    await user.click(within(card(1)).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this reminder?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(field(1, 'Subject')).toHaveValue(reviewers7!.subject);

    await user.click(screen.getByRole('button', { name: 'Save reminders' }));
    await screen.findByText('The reminders have been saved.');
    expect(sentBody(fetchStub, SAVE)).toMatchObject({
      version: 3,
      rules: [
        { id: 502 },
        { id: 503 },
        {
          audience: 'reviewers_pending',
          anchor: 'review_close',
          offsetHours: -72,
          enabled: true,
          subject: 'Last call for {{ call }}',
          body: 'Dear {{ name }}, {{ items }}',
        },
      ],
    });
    expect((sentBody(fetchStub, SAVE) as ReminderRulesSave).rules[2]).not.toHaveProperty('id');

    await user.click(screen.getByRole('button', { name: 'Restore defaults' }));
    await user.click(
      within(
        await screen.findByRole('dialog', { name: 'Restore the default reminders?' }),
      ).getByRole('button', { name: 'Restore defaults' }),
    );
    await waitFor(() => expect(cards()).toHaveLength(5));
    expect(card(5)).toHaveTextContent('Next due: once saved.');
    expect(screen.getByText('Your changes to the reminders are not saved yet.')).toBeVisible();
    expect(apiCalls(fetchStub).filter((call) => call === SAVE)).toHaveLength(1);
  });

  it('reads but does not change the reminders of a closed call', async () => {
    stubPage({
      'GET /calls/12/': {
        body: makeCall({ closed: true, abilities: { ...chairAbilities, remind: false } }),
      },
    });
    await openPage();
    expect(screen.getByText(/This call is closed/)).toBeVisible();
    expect(field(1, 'Subject')).toBeDisabled();
    expect(within(card(1)).getByRole('switch', { name: 'On' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save reminders' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add reminder' })).toBeNull();
    expect(within(card(1)).queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('asks before leaving with changes not saved', async () => {
    stubPage({ 'GET /calls/12/progress/': { body: makeProgress() } });
    const { user, location } = await openPage();
    await replace(user, field(1, 'Subject'), 'Not saved');
    await user.click(screen.getByRole('link', { name: 'Review Progress' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location()).toBe('/calls/12/reminders');
    expect(field(1, 'Subject')).toHaveValue('Not saved');

    await user.click(screen.getByRole('link', { name: 'Review Progress' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole(
        'button',
        { name: 'Leave' },
      ),
    );
    await waitFor(() => expect(location()).toBe('/calls/12/progress'));
  });
});
