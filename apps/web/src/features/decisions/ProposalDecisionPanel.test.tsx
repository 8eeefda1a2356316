import type { DecisionSave, LetterSummary, ProposalDetail } from '@merit/contract';
import { decisionMessages, formatDateTime } from '@merit/domain';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiCalls, sentBody, stubApi } from '../../test/render-app';
import { renderInRouter } from '../../test/render-in-router';
import { lettersTexts } from '../letters/letters-texts';
import { makeProposal, readerAbilities } from '../proposals/proposals.fixtures';
import { letterDueTexts } from './LetterDueDialog';
import { makeDecision } from './decisions.fixtures';
import { ProposalDecisionPanel } from './ProposalDecisionPanel';

const chairAbilities = { ...readerAbilities, decide: true, viewOutcome: true };
const applicantAbilities = { ...readerAbilities, viewOutcome: true };

/** A submitted proposal asking for 6 nights of Telescope A and 40 hours of Instrument B. */
const submitted = (overrides: Partial<ProposalDetail>) =>
  makeProposal({ state: 'Submitted', stateVal: 1, ...overrides });

const renderPanel = (proposal: ProposalDetail) =>
  renderInRouter(<ProposalDecisionPanel proposal={proposal} />);

describe('the Decision section of a proposal', () => {
  it('shows its applicants the outcome, the awards and the letter once released', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'POST /download_tickets/': {
        body: { url: '/api/v1/letters/9/?ticket=t', expires: '2026-06-01T00:01:00.000Z' },
      },
    });
    // What an applicant's detail carries: their request, but no notes and no one who decided.
    renderPanel(
      submitted({
        abilities: applicantAbilities,
        decision: {
          outcome: 'partly_approved',
          awards: { 'Telescope A': { nights: 4 } },
          requested: { 'Telescope A': { nights: 6 } },
          version: 3,
          letter: {
            id: 9,
            state: 'sent',
            outcome: 'partly_approved',
            createdAt: '2026-06-01T00:00:00.000Z',
            sentAt: '2026-06-01T08:00:00.000Z',
            hasPdf: true,
          },
        },
      }),
    );
    const section = screen.getByRole('region', { name: 'Decision' });
    expect(section).toHaveTextContent('Outcome: Partly approved');
    const awards = within(section).getByRole('table', { name: 'Awards' });
    expect(
      within(awards)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['FacilityFieldAsked forAwarded', 'Telescope Anights64']);
    expect(section).toHaveTextContent(
      `Decision letter: Sent on ${formatDateTime(new Date('2026-06-01T08:00:00.000Z'))}.`,
    );
    // Nothing to change: no fields at all.
    expect(within(section).queryByRole('combobox')).toBeNull();
    expect(within(section).queryByRole('spinbutton')).toBeNull();

    await user.click(within(section).getByRole('button', { name: /Download letter \(PDF\)/ }));
    await waitFor(() =>
      expect(sentBody(fetchStub, 'POST /download_tickets/')).toEqual({ letterId: 9 }),
    );
  });

  it('shows what was asked for beside the awards when the request is known, and no PDF before it is made', () => {
    stubApi({});
    renderPanel(
      submitted({
        abilities: applicantAbilities,
        decision: makeDecision({
          requested: { 'Telescope A': { nights: 6 }, 'Instrument B': { hours: 40 } },
          awards: { 'Telescope A': { nights: 6 } },
          letter: {
            id: 9,
            state: 'queued',
            outcome: 'approved',
            createdAt: '2026-06-01T00:00:00.000Z',
            sentAt: null,
            hasPdf: false,
          },
        }),
      }),
    );
    const awards = screen.getByRole('table', { name: 'Awards' });
    expect(
      within(awards)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['FacilityFieldAsked forAwarded', 'Telescope Anights66', 'Instrument Bhours400']);
    expect(screen.getByText(/Being sent\./)).toBeVisible();
    expect(screen.queryByRole('button', { name: /Download letter/ })).toBeNull();
  });

  it('shows nothing to those who may not read it', () => {
    stubApi({});
    renderPanel(submitted({ abilities: readerAbilities }));
    expect(screen.queryByRole('region', { name: 'Decision' })).toBeNull();
  });

  it('gives a chair the Ranking’s editor, with the domain’s checks', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'POST /proposals/30/decision/': ({ body }) => ({
        body: makeDecision({ ...(body as DecisionSave), version: 3 }),
      }),
    });
    renderPanel(
      submitted({
        abilities: chairAbilities,
        decision: makeDecision({ outcome: null, awards: {}, version: 2 }),
      }),
    );
    const section = screen.getByRole('region', { name: 'Decision' });
    const outcome = within(section).getByRole('combobox', {
      name: 'Outcome of Dark matter survey',
    });
    expect(outcome).toHaveDisplayValue('No outcome');

    // Approved starts from what was asked for, and is saved at once.
    await user.selectOptions(outcome, 'Approved');
    await screen.findByText('The decision on Dark matter survey has been saved.');
    expect(sentBody(fetchStub, 'POST /proposals/30/decision/')).toEqual({
      outcome: 'approved',
      awards: { 'Telescope A': { nights: 6 } },
      awardNotes: {},
      version: 2,
    });

    const award = within(section).getByRole('spinbutton', { name: 'Telescope A: nights' });
    expect(award).toHaveValue(6);
    expect(award).toHaveAccessibleDescription('Asked for: 6');
    await user.clear(award);
    await user.type(award, '9');
    expect(award).toHaveAccessibleDescription(decisionMessages.aboveRequest(6));
    expect(
      within(section).getByRole('textbox', { name: /Why more of Telescope A/ }),
    ).toBeRequired();
    expect(within(section).getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  describe('after the decisions were released', () => {
    const sentLetter: LetterSummary = {
      id: 9,
      state: 'sent',
      outcome: 'approved',
      createdAt: '2026-06-01T00:00:00.000Z',
      sentAt: '2026-06-01T08:00:00.000Z',
      hasPdf: true,
    };
    const DECIDE = 'POST /proposals/30/decision/';
    const SEND = 'POST /calls/12/letters/send/';
    /** The chair's proposal, approved with a letter sent (or none: before release). */
    const renderReleased = (letter: LetterSummary | null) =>
      renderPanel(
        submitted({ abilities: chairAbilities, decision: makeDecision({ version: 2, letter }) }),
      );
    /**
     * The server keeps the letter until a corrected one is sent; after the release a save
     * with an outcome owes a letter.
     */
    const decided = (letter: LetterSummary | null, released = letter !== null) => ({
      [DECIDE]: ({ body }: { body: unknown }) => {
        const saved = body as DecisionSave;
        return {
          body: {
            ...makeDecision({ ...saved, version: 3, letter }),
            awarded: {},
            letterDue: released && saved.outcome !== null,
          },
        };
      },
    });
    const changeOutcome = async (user: ReturnType<typeof userEvent.setup>, label: string) =>
      user.selectOptions(
        screen.getByRole('combobox', { name: 'Outcome of Dark matter survey' }),
        label,
      );

    it('asks whether to send the corrected letter, and sends it to the proposal', async () => {
      const user = userEvent.setup();
      const fetchStub = stubApi({
        ...decided(sentLetter),
        [SEND]: { body: { queued: 1, withoutOutcome: 0 } },
      });
      renderReleased(sentLetter);
      await changeOutcome(user, 'Waitlisted');

      const dialog = await screen.findByRole('dialog', { name: lettersTexts.correctTitle });
      expect(dialog).toHaveAccessibleDescription(letterDueTexts.corrected('Dark matter survey'));
      expect(dialog).toHaveTextContent(/author, with its collaborators in copy/);
      expect(dialog).toHaveTextContent(/old letter is kept in the proposal’s history/);
      // The save came first; nothing is sent before the chair says so.
      expect(sentBody(fetchStub, DECIDE)).toMatchObject({ outcome: 'waitlisted', version: 2 });
      expect(apiCalls(fetchStub)).not.toContain(SEND);

      await user.click(within(dialog).getByRole('button', { name: 'Send corrected letter' }));
      await screen.findByText(lettersTexts.sent);
      expect(sentBody(fetchStub, SEND)).toEqual({ proposalIds: [30] });
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    });

    it('sends nothing with Not now, and asks again after the next change', async () => {
      const user = userEvent.setup();
      const fetchStub = stubApi(decided(sentLetter));
      renderReleased(sentLetter);
      await changeOutcome(user, 'Declined');
      const dialog = await screen.findByRole('dialog', { name: lettersTexts.correctTitle });
      // The safe choice has the focus: a reflexive Enter sends no mail.
      expect(within(dialog).getByRole('button', { name: 'Not now' })).toHaveFocus();
      await user.click(within(dialog).getByRole('button', { name: 'Not now' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(apiCalls(fetchStub)).not.toContain(SEND);

      await changeOutcome(user, 'Approved');
      expect(await screen.findByRole('dialog', { name: lettersTexts.correctTitle })).toBeVisible();
      expect(apiCalls(fetchStub).filter((call) => call === DECIDE)).toHaveLength(2);
      expect(apiCalls(fetchStub)).not.toContain(SEND);
    });

    it('shows the server’s refusal in the dialog, which stays open', async () => {
      const user = userEvent.setup();
      const refusal = 'Decisions are not released yet.';
      stubApi({
        ...decided(sentLetter),
        [SEND]: { status: 409, body: { detail: refusal, code: 'conflict' } },
      });
      renderReleased(sentLetter);
      await changeOutcome(user, 'Declined');
      const dialog = await screen.findByRole('dialog', { name: lettersTexts.correctTitle });
      await user.click(within(dialog).getByRole('button', { name: 'Send corrected letter' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
      expect(dialog).toBeVisible();
    });

    it('offers the first letter of an outcome given after the release', async () => {
      const user = userEvent.setup();
      const fetchStub = stubApi({
        ...decided(null, true),
        [SEND]: { body: { queued: 1, withoutOutcome: 0 } },
      });
      renderReleased(null);
      await changeOutcome(user, 'Declined');
      const dialog = await screen.findByRole('dialog', { name: lettersTexts.firstTitle });
      expect(dialog).toHaveAccessibleDescription(letterDueTexts.first('Dark matter survey'));
      await user.click(within(dialog).getByRole('button', { name: 'Send letter' }));
      await screen.findByText(lettersTexts.sent);
      expect(sentBody(fetchStub, SEND)).toEqual({ proposalIds: [30] });
    });

    it('asks nothing before the release, nor when the outcome is taken away', async () => {
      const user = userEvent.setup();
      stubApi(decided(null));
      renderReleased(null);
      await changeOutcome(user, 'Declined');
      await screen.findByText('The decision on Dark matter survey has been saved.');
      expect(screen.queryByRole('dialog')).toBeNull();

      cleanup();
      stubApi(decided(sentLetter));
      renderReleased(sentLetter);
      await changeOutcome(user, 'No outcome');
      await screen.findByText('The decision on Dark matter survey has been saved.');
      expect(screen.queryByRole('dialog')).toBeNull();
    });
  });
});
