import type { ProposalDetail, ReviewResponseSave } from '@merit/contract';
import { reviewMessages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
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

/** Each save answers as the server would: the first one makes review 90. */
const saveAnswer: ApiHandler = ({ body }) => {
  const { formId } = body as ReviewResponseSave;
  return {
    body: {
      reviewId: 90,
      proposalId: 30,
      formId,
      score: null,
      lastModified: '2026-04-10T09:00:00.000Z',
    },
  };
};

function stubReview(answers: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /user_details/': { body: grace },
    'GET /proposals/30/': { body: makeProposal(submitted) },
    'GET /proposal_form_order/12/': { body: makeFormOrder() },
    'GET /review_form_order/12/': { body: makeReviewFormOrder() },
    'GET /calls/12/proposals/30/reviews/': { body: makeReviewList({ reviews: [] }) },
    'POST /review_responses/': saveAnswer,
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

// Each test walks through pages that load lazily: slow on a busy machine, not stuck.
describe('ReviewEditorPage', { timeout: 30_000 }, () => {
  it('shows the proposal read-only, works the score out as the reviewer scores, and saves', async () => {
    const user = userEvent.setup();
    const fetchStub = stubReview();
    const view = await openReview();

    // The proposal, read-only, each form folded away until opened.
    await user.click(screen.getByRole('button', { name: 'Project Details' }));
    const title = screen.getByRole('textbox', { name: /Project title/ });
    expect(title).toHaveValue('Axions');
    expect(title).toBeDisabled();

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
        formId: 5,
        hash: expect.any(Number),
        data: { strengths: 'A clear plan.' },
        validate: true,
      },
      {
        call: 12,
        proposal: 30,
        reviewId: 90,
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
      { formId: 5, reviewId: 90, data: { strengths: 'Bold.' } },
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
    const strengths = screen.getByRole('textbox', { name: /Strengths/ });
    expect(strengths).toHaveValue('A clear plan.');
    expect(strengths).toBeDisabled();
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
});
