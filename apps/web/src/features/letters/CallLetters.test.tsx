import type { CallLetters as CallLettersBody, LetterTemplates } from '@merit/contract';
import { letterMessages } from '@merit/domain/letters';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';
import { scaled } from '../../test/timeouts';
import { chairAbilities, makeCall } from '../calls/calls.fixtures';
import {
  makeCallLetters,
  makeLetterTemplates,
  makePreview,
  makeReleasedLetters,
} from './letters.fixtures';

/** Carla (3), a chair of the call's committee. */
const carla = makeUser({ id: 3, username: 'carla', first_name: 'Carla', last_name: 'Chair' });

const TEMPLATES = 'GET /calls/12/letter_templates/';
const SAVE = 'PUT /calls/12/letter_templates/';
const LETTERS = 'GET /calls/12/letters/';
const RELEASE = 'POST /calls/12/release_decisions/';
const SEND = 'POST /calls/12/letters/send/';

const closedCall = (releaseDecisions: boolean) =>
  makeCall({ closed: true, abilities: { ...chairAbilities, releaseDecisions } });

function stubPage(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /user_details/': { body: carla },
    'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
    [TEMPLATES]: { body: makeLetterTemplates() },
    [LETTERS]: { body: makeCallLetters() },
    ...extra,
  });
}

async function openPage(tab = '') {
  const view = renderApp(`/calls/12/letters${tab}`, { token: 'k' });
  await screen.findByRole('heading', { level: 1, name: 'Letters' }, AFTER_NAVIGATION);
  await screen.findByRole('tab', { name: 'Templates' });
  return { ...view, user: userEvent.setup() };
}

const card = (label: string) => screen.getByRole('group', { name: label });
const field = (label: string, name: string) => within(card(label)).getByRole('textbox', { name });

/** Replaces a text field's value; pasted, so `{{` is typed as it is. */
async function replace(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.clear(input);
  await user.click(input);
  await user.paste(text);
}

describe('the Letters page', () => {
  it('refuses a field the letters do not know as it is typed, then saves the templates', async () => {
    const fetchStub = stubPage({
      [SAVE]: ({ body }) => ({
        body: { ...(body as LetterTemplates), version: (body as LetterTemplates).version + 1 },
      }),
    });
    const { user } = await openPage();
    expect(document.title).toBe('Letters · Merit');
    expect(field('Approved', 'The call’s word for it (optional)')).toHaveValue('Granted');

    await replace(user, field('Declined', 'Body'), 'Dear {{ applicant.nme }},');
    // Checked as the chair types, with the server's own message.
    expect(field('Declined', 'Body')).toHaveAccessibleDescription(
      letterMessages.unknownField('applicant.nme'),
    );
    expect(screen.getByText('Your changes to the letters are not saved yet.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Save templates' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Some templates need changes: see the fields marked below.',
    );
    expect(apiCalls(fetchStub)).not.toContain(SAVE);

    await replace(user, field('Declined', 'Body'), 'Dear {{ applicant.name }}, we are sorry.');
    expect(field('Declined', 'Body')).not.toHaveAccessibleDescription();
    await replace(user, field('Waitlisted', 'The call’s word for it (optional)'), 'Reserve list');
    await user.click(screen.getByRole('button', { name: 'Save templates' }));

    expect(await screen.findByText('The letter templates have been saved.')).toBeVisible();
    const sent = sentBody(fetchStub, SAVE) as LetterTemplates;
    expect(sent).toMatchObject({
      version: 2,
      signature: 'Carla Chair, for the committee',
      outcomeLabels: {
        approved: 'Granted',
        partly_approved: '',
        waitlisted: 'Reserve list',
        declined: '',
      },
    });
    expect(sent.templates.map((t) => t.outcome)).toEqual([
      'approved',
      'partly_approved',
      'waitlisted',
      'declined',
    ]);
    expect(sent.templates[3]!.body).toBe('Dear {{ applicant.name }}, we are sorry.');
    expect(screen.queryByText('Your changes to the letters are not saved yet.')).toBeNull();
  });

  it('inserts a field where the cursor was, by click or by keyboard', async () => {
    stubPage();
    const { user } = await openPage();
    const body = field('Approved', 'Body') as HTMLTextAreaElement;
    await replace(user, body, 'Dear , welcome.');
    body.setSelectionRange(5, 5);
    const fields = within(card('Approved')).getByRole('group', {
      name: 'Fields for the Approved letter',
    });
    const applicant = within(fields).getByRole('button', { name: 'Insert {{ applicant.name }}' });
    expect(applicant).toHaveAccessibleDescription('The name of the proposal’s author');
    await user.click(applicant);
    expect(body).toHaveValue('Dear {{ applicant.name }}, welcome.');
    // The cursor is after the field, in the body, ready for the next word.
    expect(body).toHaveFocus();
    expect(body.selectionStart).toBe('Dear {{ applicant.name }}'.length);

    // Into the subject, the text last written in, from the keyboard.
    const subject = field('Approved', 'Subject') as HTMLInputElement;
    await replace(user, subject, 'Decision: ');
    within(fields).getByRole('button', { name: 'Insert {{ proposal.name }}' }).focus();
    await user.keyboard('{Enter}');
    expect(subject).toHaveValue('Decision: {{ proposal.name }}');
    expect(body).toHaveValue('Dear {{ applicant.name }}, welcome.');
  });

  it('keeps the chair’s text when someone else saved first, until Reload', async () => {
    const theirs = makeLetterTemplates({ version: 5, signature: 'Alan, for the committee' });
    const fetchStub = stubPage({
      [SAVE]: {
        status: 409,
        body: { detail: letterMessages.stale, code: 'stale', current: theirs },
      },
    });
    const { user } = await openPage();
    await replace(user, field('Approved', 'Subject'), 'My own subject');
    await user.click(screen.getByRole('button', { name: 'Save templates' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(letterMessages.stale);
    expect(field('Approved', 'Subject')).toHaveValue('My own subject');
    expect(screen.getByRole('button', { name: 'Save templates' })).toBeDisabled();
    expect(sentBody(fetchStub, SAVE)).toMatchObject({ version: 2 });

    await user.click(within(alert).getByRole('button', { name: 'Reload' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Signature' })).toHaveValue(
        'Alan, for the committee',
      ),
    );
    expect(field('Approved', 'Subject')).toHaveValue(theirs.templates[0]!.subject);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Save templates' })).toBeEnabled();
  });

  it('previews a proposal’s letter in a sandboxed frame, where nothing can run', async () => {
    const fetchStub = stubPage({ 'GET /proposals/30/letter/preview/': { body: makePreview() } });
    const { user } = await openPage('?tab=preview');
    const choice = screen.getByRole('combobox', { name: 'Proposal' });
    // Only proposals with an outcome get a letter.
    expect(within(choice).queryByRole('option', { name: /Undecided optics/ })).toBeNull();
    await user.selectOptions(choice, 'Crystal growth (Approved)');

    const letter = await screen.findByRole('region', { name: 'The letter' });
    expect(letter).toHaveTextContent('Toada@example.org, grace@example.org');
    expect(letter).toHaveTextContent('SubjectBeamtime 2026: decision on Crystal growth');
    const frame = within(letter).getByTitle('Letter: Beamtime 2026: decision on Crystal growth');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame).toHaveAttribute('srcdoc', makePreview().html);
    expect(apiCalls(fetchStub)).toContain('GET /proposals/30/letter/preview/');
  });

  it('releases the decisions after a confirmation with the counts, and follows the letters out', async () => {
    let released = false;
    let asked = 0;
    const queued: CallLettersBody = makeReleasedLetters({
      proposals: makeReleasedLetters()
        .proposals.slice(0, 2)
        .map((row) => ({
          ...row,
          letter: row.letter && { ...row.letter, state: 'queued', sentAt: null },
        })),
    });
    const fetchStub = stubPage({
      'GET /calls/12/': () => ({ body: closedCall(!released) }),
      [LETTERS]: () => {
        if (!released) return { body: makeCallLetters() };
        asked += 1;
        return { body: asked === 1 ? queued : makeReleasedLetters() };
      },
      [RELEASE]: () => {
        released = true;
        return { body: { queued: 2, withoutOutcome: 1 } };
      },
    });
    const { user } = await openPage('?tab=release');
    const table = await screen.findByRole('table', { name: 'Letters' });
    // The proposals with no outcome come first: they get no letter.
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Undecided optics');
    expect(rows[0]).toHaveTextContent('No outcome: no letter');
    expect(rows[1]).toHaveTextContent('Not written yet');

    await user.click(screen.getByRole('button', { name: 'Release decisions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release decisions?' });
    expect(dialog).toHaveTextContent('Merit writes 2 letters now');
    expect(dialog).toHaveTextContent('1 proposal has no outcome and gets no letter.');
    expect(apiCalls(fetchStub)).not.toContain(RELEASE);
    await user.click(within(dialog).getByRole('button', { name: 'Release decisions' }));

    expect(
      await screen.findByText(
        '2 letters were queued. 1 proposal has no outcome and got no letter.',
      ),
    ).toBeVisible();
    expect(apiCalls(fetchStub).filter((call) => call === RELEASE)).toHaveLength(1);
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Release decisions' })).toBeNull(),
    );
    expect(screen.getByText(/^Decisions were released on/)).toBeVisible();
    expect(screen.getByText('Updated every few seconds while letters are queued.')).toBeVisible();
    // Asked again while letters are queued: the chair sees them go out.
    await waitFor(
      () =>
        expect(screen.getByRole('row', { name: /Crystal growth/ })).not.toHaveTextContent('Queued'),
      { timeout: scaled(10_000) },
    );
    expect(screen.getByRole('row', { name: /Crystal growth/ })).toHaveTextContent('Sent');
    expect(screen.getByRole('row', { name: /Muon lifetimes/ })).toHaveTextContent('Failed');
    expect(screen.queryByText('Updated every few seconds while letters are queued.')).toBeNull();
  });

  it('sends a failed letter again, and offers a corrected one where the outcome changed', async () => {
    const fetchStub = stubPage({
      'GET /calls/12/': { body: closedCall(false) },
      [LETTERS]: { body: makeReleasedLetters() },
      [SEND]: { body: { queued: 1, withoutOutcome: 0 } },
    });
    const { user } = await openPage('?tab=release');
    await screen.findByRole('table', { name: 'Letters' });
    expect(screen.queryByRole('button', { name: 'Release decisions' })).toBeNull();

    const failed = screen.getByRole('row', { name: /Muon lifetimes/ });
    expect(failed).toHaveTextContent('The mail server refused the message.');
    const sent = screen.getByRole('row', { name: /Crystal growth/ });
    expect(within(sent).queryByRole('button')).toBeNull();
    const changed = screen.getByRole('row', { name: /Neutron optics/ });
    expect(within(changed).getByRole('button', { name: 'Send corrected letter' })).toBeVisible();
    expect(within(changed).queryByRole('button', { name: 'Send again' })).toBeNull();

    await user.click(within(failed).getByRole('button', { name: 'Send again' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this letter again?' });
    expect(dialog).toHaveTextContent('Muon lifetimes');
    await user.click(within(dialog).getByRole('button', { name: 'Send again' }));
    expect(
      await screen.findByText('The letter was queued: it goes out in a moment.'),
    ).toBeVisible();
    expect(sentBody(fetchStub, SEND)).toEqual({ proposalIds: [31] });
  });

  it('is for the chairs only', async () => {
    stubPage({ 'GET /calls/12/': { body: makeCall() } });
    renderApp('/calls/12/letters', { token: 'k' });
    expect(
      await screen.findByRole('heading', { name: 'Access denied' }, AFTER_NAVIGATION),
    ).toBeVisible();
  });
});
