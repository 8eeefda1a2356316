import 'fake-indexeddb/auto';
import type { DecisionSummarySave, ProposalDetail, StaleDecision } from '@merit/contract';
import {
  callMessages,
  decisionEditingMessages,
  proposalMessages,
  timeZoneLabel,
} from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../../test/fixtures';
import { apiCalls, sentBody, stubApi, type ApiHandler } from '../../../test/render-app';
import { renderInRouter } from '../../../test/render-in-router';
import { CurrentUserContext } from '../../auth/session-hooks';
import { atLocalTime } from '../../drafts/draft-time';
import { clearAllDrafts, draftKey, getDraft, putDraft } from '../../drafts/local-drafts';
import { makeProposal, readerAbilities } from '../proposals.fixtures';
import { DECISION_EMPTY, DECISION_SAVED, DecisionSummaryPanel } from './DecisionSummaryPanel';

// ProseMirror needs layout jsdom lacks; the panel's logic does not depend on the editor.
vi.mock('../../calls/RichTextEditor', () => ({
  default: ({
    label,
    value,
    onChange,
    error,
  }: {
    label: string;
    value: string;
    onChange: (html: string) => void;
    error?: string;
  }) => (
    <>
      <textarea
        aria-label={label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && <p role="alert">{error}</p>}
    </>
  ),
}));

const chairAbilities = { ...readerAbilities, viewDecision: true, editDecision: true };
const authorAfterClose = { ...readerAbilities, viewDecision: true };

/** Ada (user 7), a chair of the call's committee. */
const chair = makeUser();

/** The panel as a signed-in page shows it. */
function renderPanel(proposal: ProposalDetail) {
  return renderInRouter(
    <CurrentUserContext value={chair}>
      <DecisionSummaryPanel proposal={proposal} />
    </CurrentUserContext>,
  );
}

afterEach(() => clearAllDrafts());

describe('DecisionSummaryPanel', () => {
  it('lets a chair write the summary and Save it', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'POST /update_decision_summary/': {
        body: makeProposal({ abilities: chairAbilities, decisionSummary: '<p>Accepted</p>' }),
      },
    });
    renderPanel(makeProposal({ abilities: chairAbilities, decisionSummary: null }));
    expect(screen.getByRole('heading', { name: 'Decision Summary' })).toBeVisible();
    expect(screen.getByText(DECISION_EMPTY)).toBeVisible();
    await user.type(await screen.findByRole('textbox', { name: 'Decision summary' }), 'Accepted');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(DECISION_SAVED)).toBeVisible();
    expect(sentBody(fetchStub, 'POST /update_decision_summary/')).toEqual({
      proposalId: 30,
      summary: 'Accepted',
      // Nothing was saved before: version 0.
      version: 0,
    });
  });

  it('shows the server’s image message under the editor', async () => {
    const user = userEvent.setup();
    stubApi({
      'POST /update_decision_summary/': {
        status: 400,
        body: {
          detail: 'The request is not valid.',
          code: 'invalid',
          fields: { summary: [callMessages.imageTooLarge] },
        },
      },
    });
    renderPanel(makeProposal({ abilities: chairAbilities, decisionSummary: '<p>x</p>' }));
    await screen.findByRole('textbox', { name: 'Decision summary' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The image cannot be larger than 500KB.',
    );
  });

  it('shows the summary read-only to those who may read it', () => {
    renderPanel(
      makeProposal({
        abilities: authorAfterClose,
        decisionSummary: '<p>Accepted with <strong>3 nights</strong></p>',
      }),
    );
    expect(screen.getByText('3 nights')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('says when there is none yet, read-only', () => {
    renderPanel(makeProposal({ abilities: authorAfterClose, decisionSummary: null }));
    expect(screen.getByText(DECISION_EMPTY)).toBeVisible();
  });

  it('is not there for those the server does not let read it', () => {
    renderPanel(makeProposal());
    expect(screen.queryByRole('heading', { name: 'Decision Summary' })).not.toBeInTheDocument();
  });
});

/** Proposal 30 with the summary as the chair opened it: version 2. */
const opened = makeProposal({
  abilities: chairAbilities,
  decisionSummary: '<p>Accepted</p>',
  decisionSummaryVersion: 2,
});

/** What Grace Hopper saved meanwhile: version 3. */
const theirs: StaleDecision = {
  summary: '<p>Accepted, 3 nights</p>',
  version: 3,
  savedBy: 'Grace Hopper',
  savedAt: '2026-04-10T10:00:00.000Z',
};

/** Saves as the server makes them, each raising the version; the first is stale when told. */
function decisionSaves(version: number, stale?: StaleDecision): ApiHandler {
  let first = true;
  return ({ body }) => {
    if (stale && first) {
      first = false;
      return {
        status: 409,
        body: {
          detail: proposalMessages.decisionStale(stale.savedBy, new Date(stale.savedAt!)),
          code: 'stale',
          current: stale,
        },
      };
    }
    version += 1;
    const { summary } = body as DecisionSummarySave;
    return {
      body: makeProposal({
        abilities: chairAbilities,
        decisionSummary: summary,
        decisionSummaryVersion: version,
      }),
    };
  };
}

type FetchStub = ReturnType<typeof stubApi>;
const sent = (fetchStub: FetchStub): DecisionSummarySave[] =>
  fetchStub.mock.calls
    .filter(([input]) => String(input).endsWith('/update_decision_summary/'))
    .map(([, init]) => JSON.parse(String(init!.body)) as DecisionSummarySave);

const editor = () => screen.findByRole('textbox', { name: 'Decision summary' });
const decisionDraft = draftKey(7, { kind: 'decision', proposalId: 30 });

/** Replaces the text and selects Save. */
async function writeAndSave(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.clear(await editor());
  await user.type(await editor(), text);
  await user.click(screen.getByRole('button', { name: 'Save' }));
}

/** 14:32 today, in the browser's time. */
function todayAt1432(): number {
  const at = new Date();
  at.setHours(14, 32, 0, 0);
  return at.getTime();
}

describe('DecisionSummaryPanel: saved by another chair first, and kept on this computer', () => {
  it('sends the version it started from, and the next save the version that answered', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({ 'POST /update_decision_summary/': decisionSaves(2) });
    renderPanel(opened);
    await writeAndSave(user, 'Accepted.');
    expect(await screen.findByText(DECISION_SAVED)).toBeVisible();
    await user.type(await editor(), ' Well done.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent(fetchStub)).toHaveLength(2));
    expect(sent(fetchStub).map(({ version }) => version)).toEqual([2, 3]);
  });

  it('says who saved first and when, and Keep mine saves the chair’s text from their version', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({ 'POST /update_decision_summary/': decisionSaves(3, theirs) });
    renderPanel(opened);
    await writeAndSave(user, 'Rejected.');

    const dialog = await screen.findByRole('dialog', {
      name: decisionEditingMessages.conflictTitle,
    });
    expect(dialog).toHaveTextContent(
      decisionEditingMessages.savedBy('Grace Hopper', atLocalTime(theirs.savedAt!)),
    );
    const row = within(dialog).getByRole('row', { name: /Decision summary/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Rejected.', 'Accepted, 3 nights']);
    // The choice says it; the refusal is not listed as an error too.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Keep mine' }));

    expect(await screen.findByText(DECISION_SAVED)).toBeVisible();
    expect(sent(fetchStub)).toEqual([
      { proposalId: 30, summary: 'Rejected.', version: 2 },
      { proposalId: 30, summary: 'Rejected.', version: 3 },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await editor()).toHaveValue('Rejected.');
  });

  it('Take theirs shows the saved summary; Copy mine puts the chair’s text on the clipboard first', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({ 'POST /update_decision_summary/': decisionSaves(3, theirs) });
    renderPanel(opened);
    await writeAndSave(user, 'Rejected.');
    const dialog = await screen.findByRole('dialog', {
      name: decisionEditingMessages.conflictTitle,
    });
    await user.click(within(dialog).getByRole('button', { name: 'Copy mine' }));

    expect(await screen.findByText(decisionEditingMessages.copied)).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await navigator.clipboard.readText()).toBe('Rejected.');
    expect(await editor()).toHaveValue(theirs.summary);
    expect(sent(fetchStub)).toHaveLength(1);

    // The next save starts from theirs.
    await user.type(await editor(), ' More.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent(fetchStub)).toHaveLength(2));
    expect(sent(fetchStub)[1]!.version).toBe(3);
  });

  it('keeps the unsaved text on this computer as the chair types, until it is saved', async () => {
    const user = userEvent.setup();
    stubApi({ 'POST /update_decision_summary/': decisionSaves(2) });
    renderPanel(opened);
    await user.clear(await editor());
    await user.type(await editor(), 'Rejected.');
    await waitFor(async () =>
      expect(await getDraft(decisionDraft)).toEqual({
        data: 'Rejected.',
        baseVersion: 2,
        typedAt: expect.any(Number),
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(DECISION_SAVED)).toBeVisible();
    await waitFor(async () => expect(await getDraft(decisionDraft)).toBeUndefined());
  });

  it('offers the kept text back: Restore puts it in the editor, Discard forgets it', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({ 'POST /update_decision_summary/': decisionSaves(2) });
    await putDraft(decisionDraft, {
      data: 'Typed before.',
      baseVersion: 2,
      typedAt: todayAt1432(),
    });
    const view = renderPanel(opened);

    expect(
      await screen.findByText(
        `You have an unsaved decision summary from 14:32 ${timeZoneLabel(new Date(todayAt1432()))} on this computer.`,
      ),
    ).toBeVisible();
    expect(await editor()).toHaveValue('<p>Accepted</p>');
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    expect(await editor()).toHaveValue('Typed before.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(DECISION_SAVED)).toBeVisible();
    expect(sent(fetchStub)).toEqual([{ proposalId: 30, summary: 'Typed before.', version: 2 }]);
    view.unmount();

    await putDraft(decisionDraft, { data: 'Typed again.', baseVersion: 2, typedAt: todayAt1432() });
    renderPanel(opened);
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(screen.queryByText(/unsaved decision summary/)).not.toBeInTheDocument();
    expect(await editor()).toHaveValue('<p>Accepted</p>');
    await waitFor(async () => expect(await getDraft(decisionDraft)).toBeUndefined());
  });

  it('offers the choice for kept text typed before the summary was saved again', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({ 'POST /update_decision_summary/': decisionSaves(2) });
    await putDraft(decisionDraft, {
      data: 'From version 1.',
      baseVersion: 1,
      typedAt: todayAt1432(),
    });
    renderPanel(opened);
    await user.click(await screen.findByRole('button', { name: 'Restore' }));

    const dialog = await screen.findByRole('dialog', {
      name: decisionEditingMessages.conflictTitle,
    });
    expect(dialog).toHaveTextContent(decisionEditingMessages.restoredStale);
    expect(within(dialog).getByRole('row', { name: /Decision summary/ })).toHaveTextContent(
      'From version 1.Accepted',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Keep mine' }));
    expect(await screen.findByText(DECISION_SAVED)).toBeVisible();
    expect(sent(fetchStub)).toEqual([{ proposalId: 30, summary: 'From version 1.', version: 2 }]);
    expect(apiCalls(fetchStub)).toEqual(['POST /update_decision_summary/']);
  });
});
