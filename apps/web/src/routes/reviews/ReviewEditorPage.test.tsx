import 'fake-indexeddb/auto';
import type { ProposalDetail, ReviewResponseSave, StaleReview } from '@merit/contract';
import { reviewEditingMessages, reviewMessages, timeZoneLabel } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { atLocalTime } from '../../features/drafts/draft-time';
import { clearAllDrafts, draftKey, getDraft, putDraft } from '../../features/drafts/local-drafts';
import { answerTo } from '../../features/proposals/editor/editor.fixtures';
import { makeFormOrder, makeProposal } from '../../features/proposals/proposals.fixtures';
import {
  chairProposalAbilities,
  makeReviewDetail,
  makeReviewFormOrder,
  makeReviewList,
  makeReviewSummary,
  reviewerAbilities,
} from '../../features/reviews/reviews.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, renderApp, stubApi, type ApiHandler } from '../../test/render-app';

const NEW_REVIEW = '/calls/12/proposals/30/review/';

/** Grace Hopper, a current member of the call's committee. */
const grace = makeUser({
  id: 11,
  username: 'grace',
  first_name: 'Grace',
  last_name: 'Hopper',
  roles: [
    {
      id: 1,
      committeeId: 3,
      committeeName: 'Synchrotron',
      role: 'MEMBER',
      commencement: '2020-01-01T00:00:00.000Z',
      termination: '2099-12-31T23:59:59.999Z',
      current: true,
    },
  ],
});

const submitted: Partial<ProposalDetail> = {
  state: 'Submitted',
  stateVal: 1,
  responses: { '1': { title: 'Axions', summary: 'Look for them' } },
  abilities: reviewerAbilities,
};

/**
 * Saves as the server makes them: the first one makes review 90 at version 1, and each
 * raises its version by one.
 */
function savesOfReview(version = 0): ApiHandler {
  return ({ body }) => {
    const { formId } = body as ReviewResponseSave;
    version += 1;
    return {
      body: {
        reviewId: 90,
        proposalId: 30,
        formId,
        score: null,
        lastModified: '2026-04-10T09:00:00.000Z',
        version,
      },
    };
  };
}

function stubReview(answers: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /user_details/': { body: grace },
    'GET /proposals/30/': { body: makeProposal(submitted) },
    'GET /proposal_form_order/12/': { body: makeFormOrder() },
    'GET /review_form_order/12/': { body: makeReviewFormOrder() },
    'GET /calls/12/proposals/30/reviews/': { body: makeReviewList({ reviews: [] }) },
    'POST /review_responses/': savesOfReview(),
    ...answers,
  });
}

type FetchStub = ReturnType<typeof stubApi>;

function saves(fetchStub: FetchStub): ReviewResponseSave[] {
  return fetchStub.mock.calls
    .filter(
      ([input, init]) => init?.method === 'POST' && String(input).endsWith('/review_responses/'),
    )
    .map(([, init]) => JSON.parse(String(init!.body)) as ReviewResponseSave);
}

async function openReview(path = NEW_REVIEW) {
  const view = renderApp(path, { token: 'k' });
  await screen.findByRole(
    'heading',
    { level: 1, name: 'Review of Dark matter survey' },
    AFTER_NAVIGATION,
  );
  return view;
}

const tab = (name: string) => screen.getByRole('tab', { name: new RegExp(`^${name}`) });
const score = () => screen.getByRole('status', { name: 'Score' });
/** The radio buttons of the Scores form: Significance's five, then Feasibility's. */
const scoreChoice = (field: 'significance' | 'feasibility', value: number) =>
  screen.getAllByRole('radio', { name: String(value) })[field === 'significance' ? 0 : 1]!;

describe('ReviewEditorPage', () => {
  it('shows the proposal read-only, works the score out as the reviewer scores, and saves', async () => {
    const user = userEvent.setup();
    const fetchStub = stubReview();
    const view = await openReview();

    // The proposal, read-only, each form folded away until opened.
    await user.click(screen.getByRole('button', { name: 'Project Details' }));
    // As a page to read, not as greyed-out fields (issue 30).
    expect(answerTo('Project title')).toHaveTextContent('Axions');
    expect(answerTo('Summary')).toHaveTextContent('Look for them');
    expect(screen.queryByRole('textbox', { name: /Project title/ })).not.toBeInTheDocument();

    expect(screen.getAllByRole('tab').map((item) => item.textContent)).toEqual([
      'Science Review',
      'Scores',
    ]);
    expect(score()).toHaveTextContent('N/A');
    await user.click(tab('Scores'));
    await user.click(scoreChoice('significance', 4));
    expect(score()).toHaveTextContent('4.00');
    await user.click(scoreChoice('feasibility', 3));
    // The average of the two, to 2 decimals, before anything is saved.
    expect(score()).toHaveTextContent('3.50');

    await user.click(tab('Science Review'));
    await user.type(screen.getByRole('textbox', { name: /Strengths/ }), 'A clear plan.');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    const sent = saves(fetchStub);
    // The first save makes the review; the second goes into it, under the same hash.
    expect(sent).toEqual([
      {
        call: 12,
        proposal: 30,
        reviewId: null,
        version: null,
        formId: 5,
        hash: expect.any(Number),
        data: { strengths: 'A clear plan.' },
        validate: true,
      },
      {
        call: 12,
        proposal: 30,
        reviewId: 90,
        // The version the first save answered.
        version: 1,
        formId: 6,
        hash: sent[0]!.hash,
        data: { significance: 4, feasibility: 3 },
        validate: true,
      },
    ]);
    // The review has its own address now, and the answers on screen stay.
    await waitFor(() => expect(view.location()).toBe('/calls/12/proposals/30/reviews/90/'));
    expect(screen.getByRole('textbox', { name: /Strengths/ })).toHaveValue('A clear plan.');
    expect(tab('Science Review')).toHaveAccessibleName('Science Review');
    expect(score()).toHaveTextContent('3.50');
  });

  it('shows the failing form’s tab with the spec’s message, and saves the others', async () => {
    const user = userEvent.setup();
    const fetchStub = stubReview();
    const view = await openReview(`${NEW_REVIEW}?tab=6`);
    await user.click(scoreChoice('significance', 5));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    // Strengths is required: its form is not sent, and its tab is shown with the message.
    await waitFor(() => expect(tab('Science Review')).toHaveAttribute('aria-selected', 'true'));
    expect(tab('Science Review')).toHaveAccessibleName('Science Review Has errors');
    const problems = screen.getByText(reviewMessages.saveFailed).closest('[role="alert"]')!;
    expect(problems).toHaveTextContent('Strengths is required.');
    expect(saves(fetchStub).map(({ formId }) => formId)).toEqual([6]);
    expect(screen.queryByText('Saved successfully.')).not.toBeInTheDocument();

    // The scores were saved, which made the review: it moves to its address, errors and all.
    await waitFor(() => expect(view.location()).toBe('/calls/12/proposals/30/reviews/90/'));
    expect(tab('Science Review')).toHaveAccessibleName('Science Review Has errors');
    await user.type(screen.getByRole('textbox', { name: /Strengths/ }), 'Bold.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    expect(saves(fetchStub).slice(1)).toMatchObject([
      { formId: 5, reviewId: 90, version: 1, data: { strengths: 'Bold.' } },
    ]);
  });

  it('shows the server’s field messages when it refuses a form', async () => {
    const user = userEvent.setup();
    stubReview({
      'POST /review_responses/': {
        status: 400,
        body: {
          detail: reviewMessages.saveFailed,
          code: 'validation_error',
          fields: { strengths: ['Strengths must be at least 3 characters long.'] },
        },
      },
    });
    await openReview(`${NEW_REVIEW}?tab=6`);
    await user.click(tab('Science Review'));
    await user.type(screen.getByRole('textbox', { name: /Strengths/ }), 'Ok');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(reviewMessages.saveFailed)).toBeInTheDocument();
    expect(tab('Science Review')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('textbox', { name: /Strengths/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(screen.getAllByText('Strengths must be at least 3 characters long.')).not.toHaveLength(
      0,
    );
  });

  it('says why a save was refused when it is not the answers', async () => {
    const user = userEvent.setup();
    const closed = reviewMessages.windowClosed;
    stubReview({
      'POST /review_responses/': { status: 409, body: { detail: closed, code: 'conflict' } },
    });
    await openReview();
    await user.type(screen.getByRole('textbox', { name: /Strengths/ }), 'A clear plan.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const problems = (await screen.findByText(closed)).closest('[role="alert"]')!;
    expect(problems).toHaveTextContent(reviewMessages.saveFailed);
  });

  it('shows someone else’s review read-only, with its score, and Save not offered', async () => {
    stubReview({
      'GET /user_details/': { body: makeUser() },
      'GET /proposals/30/': {
        body: makeProposal({ ...submitted, abilities: chairProposalAbilities }),
      },
      'GET /reviews/30/90/': { body: makeReviewDetail() },
    });
    await openReview('/calls/12/proposals/30/reviews/90/');
    expect(screen.getByText(/Review by Grace Hopper/)).toBeInTheDocument();
    expect(score()).toHaveTextContent('3.50');
    expect(answerTo('Strengths', screen.getByRole('tabpanel'))).toHaveTextContent('A clear plan.');
    expect(screen.queryByRole('textbox', { name: /Strengths/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reviews' })).toHaveAttribute(
      'href',
      '/calls/12/proposals/30/reviews/',
    );
  });

  it('opens the reviewer’s own review at the new review’s address, ready to change', async () => {
    stubReview({
      'GET /calls/12/proposals/30/reviews/': {
        body: makeReviewList({ reviews: [makeReviewSummary({ authorId: 11 })] }),
      },
      'GET /reviews/30/90/': {
        body: makeReviewDetail({ authorId: 11, abilities: { edit: true } }),
      },
    });
    const view = await openReview();
    await waitFor(() => expect(view.location()).toBe('/calls/12/proposals/30/reviews/90/'));
    expect(await screen.findByRole('textbox', { name: /Strengths/ })).toHaveValue('A clear plan.');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('offers no Save to someone who may not review the proposal', async () => {
    stubReview({
      'GET /proposals/30/': {
        body: makeProposal({ ...submitted, abilities: chairProposalAbilities }),
      },
    });
    await openReview();
    expect(screen.getByText(/You cannot review this proposal now/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(
      within(screen.getByRole('tabpanel')).getByRole('textbox', { name: /Strengths/ }),
    ).toBeDisabled();
  });

  it.each([
    ['its author', { authorId: 11 }],
    ['a collaborator', { collaboratorIds: [11] }],
  ])(
    'tells %s they cannot review their own proposal, not that they may later',
    async (_who, people) => {
      stubReview({
        'GET /proposals/30/': {
          body: makeProposal({ ...submitted, ...people, abilities: chairProposalAbilities }),
        },
      });
      await openReview();
      expect(screen.getByText(reviewMessages.ownProposal)).toBeInTheDocument();
      expect(screen.queryByText(/You cannot review this proposal now/)).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    },
  );
});

afterEach(() => clearAllDrafts());

/** Grace's own review 90, at version 3, hers to change. */
const ownReview = makeReviewDetail({ authorId: 11, abilities: { edit: true }, version: 3 });
const OWN_REVIEW = '/calls/12/proposals/30/reviews/90/';
/** Where Grace's unsaved answers of the Science Review form are kept. */
const scienceDraft = draftKey(11, { kind: 'review', proposalId: 30, formId: 5 });

/** The review as saved in another tab meanwhile, at version 5. */
const savedElsewhere: StaleReview = {
  reviewId: 90,
  version: 5,
  responses: {
    '5': { strengths: 'Sharper plan.', weaknesses: 'Few nights.' },
    '6': { significance: 4, feasibility: 3 },
  },
  savedAt: '2026-04-10T10:00:00.000Z',
};

/** The first save is refused as stale with `current`; the next ones are saved. */
function staleThenSaved(current: StaleReview): ApiHandler {
  const saved = savesOfReview(current.version);
  let first = true;
  return (request) => {
    if (!first) return saved(request);
    first = false;
    return {
      status: 409,
      body: { detail: reviewMessages.stale(new Date(current.savedAt)), code: 'stale', current },
    };
  };
}

function stubOwnReview(answers: Parameters<typeof stubApi>[0] = {}) {
  return stubReview({ 'GET /reviews/30/90/': { body: ownReview }, ...answers });
}

const strengths = () => screen.getByRole('textbox', { name: /Strengths/ });

/** Makes Strengths say `text` and selects Save. */
async function typeAndSave(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.clear(strengths());
  await user.type(strengths(), text);
  await user.click(screen.getByRole('button', { name: 'Save' }));
}

/** 14:32 today, in the browser's time. */
function todayAt1432(): number {
  const at = new Date();
  at.setHours(14, 32, 0, 0);
  return at.getTime();
}

describe('ReviewEditorPage: a review saved elsewhere, and answers kept on this computer', () => {
  it('saves the changed forms one after another, each from the version the last one answered', async () => {
    const user = userEvent.setup();
    const fetchStub = stubOwnReview({ 'POST /review_responses/': savesOfReview(3) });
    await openReview(OWN_REVIEW);
    await user.type(strengths(), ' Bold.');
    await user.click(tab('Scores'));
    await user.click(scoreChoice('significance', 5));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();

    const sent = saves(fetchStub);
    expect(sent.map(({ reviewId, version, formId }) => ({ reviewId, version, formId }))).toEqual([
      { reviewId: 90, version: 3, formId: 5 },
      { reviewId: 90, version: 4, formId: 6 },
    ]);
    expect(sent[1]!.hash).toBe(sent[0]!.hash);

    // The next Save starts from the version the last save answered.
    await user.click(scoreChoice('feasibility', 5));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(fetchStub)).toHaveLength(3));
    expect(saves(fetchStub)[2]).toMatchObject({ reviewId: 90, version: 5, formId: 6 });
  });

  it('shows what was saved elsewhere, and Keep mine saves the person’s answers over it', async () => {
    const user = userEvent.setup();
    const fetchStub = stubOwnReview({
      'POST /review_responses/': staleThenSaved(savedElsewhere),
    });
    await openReview(OWN_REVIEW);
    await typeAndSave(user, 'Mine.');

    const dialog = await screen.findByRole('dialog', {
      name: reviewEditingMessages.conflictTitle,
    });
    expect(dialog).toHaveTextContent(
      reviewEditingMessages.savedElsewhere(atLocalTime(savedElsewhere.savedAt)),
    );
    const row = within(dialog).getByRole('row', { name: /Science Review: Strengths/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Mine.', 'Sharper plan.']);
    await user.click(within(dialog).getByRole('button', { name: 'Keep mine' }));

    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(saves(fetchStub).map(({ version, data }) => ({ version, data }))).toEqual([
      { version: 3, data: { strengths: 'Mine.', weaknesses: 'Few nights.' } },
      // Again, from the version saved elsewhere.
      { version: 5, data: { strengths: 'Mine.', weaknesses: 'Few nights.' } },
    ]);
    expect(strengths()).toHaveValue('Mine.');
    await waitFor(async () => expect(await getDraft(scienceDraft)).toBeUndefined());
  });

  it('Take theirs shows the saved answers, and the next save starts from their version', async () => {
    const user = userEvent.setup();
    const fetchStub = stubOwnReview({
      'POST /review_responses/': staleThenSaved(savedElsewhere),
    });
    await openReview(OWN_REVIEW);
    await typeAndSave(user, 'Mine.');
    const dialog = await screen.findByRole('dialog', {
      name: reviewEditingMessages.conflictTitle,
    });
    await user.click(within(dialog).getByRole('button', { name: 'Take theirs' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(strengths()).toHaveValue('Sharper plan.');
    expect(tab('Science Review')).toHaveAccessibleName('Science Review');
    expect(saves(fetchStub)).toHaveLength(1);
    await waitFor(async () => expect(await getDraft(scienceDraft)).toBeUndefined());

    await user.type(strengths(), ' Agreed.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    expect(saves(fetchStub)[1]).toMatchObject({
      version: 5,
      data: { strengths: 'Sharper plan. Agreed.' },
    });
  });

  it('Copy mine puts the person’s answers on the clipboard, then takes theirs', async () => {
    const user = userEvent.setup();
    stubOwnReview({ 'POST /review_responses/': staleThenSaved(savedElsewhere) });
    await openReview(OWN_REVIEW);
    await typeAndSave(user, 'Mine.');
    const dialog = await screen.findByRole('dialog', {
      name: reviewEditingMessages.conflictTitle,
    });
    await user.click(within(dialog).getByRole('button', { name: 'Copy mine' }));

    expect(await screen.findByText(reviewEditingMessages.copied)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await navigator.clipboard.readText()).toBe(
      'Science Review: Strengths\nMine.\n\nScience Review: Weaknesses\nFew nights.',
    );
    expect(strengths()).toHaveValue('Sharper plan.');
  });

  it('in a second tab of the new review, offers the saved review instead of writing over it', async () => {
    const user = userEvent.setup();
    const fetchStub = stubReview({
      'POST /review_responses/': staleThenSaved({
        reviewId: 90,
        version: 3,
        responses: ownReview.responses,
        savedAt: ownReview.lastModified,
      }),
      'GET /reviews/30/90/': { body: ownReview },
    });
    const view = await openReview();
    await typeAndSave(user, 'Second tab.');

    const refusal = await screen.findByText(
      new RegExp(reviewEditingMessages.keptForSaved.slice(0, 40)),
    );
    expect(refusal).toHaveTextContent(
      reviewEditingMessages.exists(atLocalTime(ownReview.lastModified)),
    );
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(view.location()).toBe(NEW_REVIEW);
    await user.click(screen.getByRole('button', { name: reviewEditingMessages.openSaved }));

    // The saved review, with what was typed in the other tab offered back to compare.
    await waitFor(() => expect(view.location()).toBe(OWN_REVIEW));
    const offer = await screen.findByText(
      /You have unsaved answers from \d\d:\d\d \S+ on this computer\./,
    );
    expect(strengths()).toHaveValue('A clear plan.');
    await user.click(
      within(offer.closest('[role="status"]')!).getByRole('button', { name: 'Restore' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: reviewEditingMessages.conflictTitle,
    });
    expect(dialog).toHaveTextContent(
      reviewEditingMessages.restoredStale(atLocalTime(ownReview.lastModified)),
    );
    expect(within(dialog).getByRole('row', { name: /Strengths/ })).toHaveTextContent(
      'Second tab.A clear plan.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Keep mine' }));

    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    expect(
      saves(fetchStub).map(({ reviewId, version, data }) => ({ reviewId, version, data })),
    ).toEqual([
      // Refused: nothing written over the saved review.
      { reviewId: null, version: null, data: { strengths: 'Second tab.' } },
      { reviewId: 90, version: 3, data: { strengths: 'Second tab.' } },
    ]);
  });

  it('keeps the answers on this computer as they are typed, until they are saved', async () => {
    const user = userEvent.setup();
    stubOwnReview({ 'POST /review_responses/': savesOfReview(3) });
    await openReview(OWN_REVIEW);
    await user.type(strengths(), ' More.');

    await waitFor(async () =>
      expect(await getDraft(scienceDraft)).toEqual({
        data: { strengths: 'A clear plan. More.', weaknesses: 'Few nights.' },
        baseVersion: 3,
        typedAt: expect.any(Number),
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    await waitFor(async () => expect(await getDraft(scienceDraft)).toBeUndefined());
  });

  it('offers the answers kept on this computer back, and Restore puts them in the form', async () => {
    const user = userEvent.setup();
    const fetchStub = stubOwnReview({ 'POST /review_responses/': savesOfReview(3) });
    await putDraft(scienceDraft, {
      data: { strengths: 'Typed before.', weaknesses: 'Few nights.' },
      baseVersion: 3,
      typedAt: todayAt1432(),
    });
    await openReview(OWN_REVIEW);

    expect(
      await screen.findByText(
        `You have unsaved answers from 14:32 ${timeZoneLabel(new Date(todayAt1432()))} on this computer.`,
      ),
    ).toBeInTheDocument();
    expect(strengths()).toHaveValue('A clear plan.');
    await user.click(screen.getByRole('button', { name: 'Restore' }));

    expect(strengths()).toHaveValue('Typed before.');
    expect(tab('Science Review')).toHaveAccessibleName('Science Review Unsaved changes');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    expect(saves(fetchStub)).toMatchObject([{ version: 3, data: { strengths: 'Typed before.' } }]);
    await waitFor(async () => expect(await getDraft(scienceDraft)).toBeUndefined());
  });

  it('Discard forgets the answers kept on this computer', async () => {
    const user = userEvent.setup();
    stubOwnReview();
    await putDraft(scienceDraft, {
      data: { strengths: 'Typed before.' },
      baseVersion: 3,
      typedAt: todayAt1432(),
    });
    await openReview(OWN_REVIEW);
    await user.click(await screen.findByRole('button', { name: 'Discard' }));

    expect(screen.queryByText(/unsaved answers/)).not.toBeInTheDocument();
    expect(strengths()).toHaveValue('A clear plan.');
    await waitFor(async () => expect(await getDraft(scienceDraft)).toBeUndefined());
  });

  it('offers the choice for restored answers typed before the review was saved again', async () => {
    const user = userEvent.setup();
    const fetchStub = stubOwnReview();
    await putDraft(scienceDraft, {
      data: { strengths: 'From version 2.' },
      baseVersion: 2,
      typedAt: todayAt1432(),
    });
    await openReview(OWN_REVIEW);
    await user.click(await screen.findByRole('button', { name: 'Restore' }));

    const dialog = await screen.findByRole('dialog', {
      name: reviewEditingMessages.conflictTitle,
    });
    expect(dialog).toHaveTextContent(
      reviewEditingMessages.restoredStale(atLocalTime(ownReview.lastModified)),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Take theirs' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(strengths()).toHaveValue('A clear plan.');
    expect(saves(fetchStub)).toEqual([]);
    await waitFor(async () => expect(await getDraft(scienceDraft)).toBeUndefined());
  });
});
