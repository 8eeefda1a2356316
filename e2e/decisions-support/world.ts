/**
 * What the decisions journey needs, made through the server's public API as the people
 * would have made it before the meeting: a committee with a chair and a member; a call
 * whose proposals ask, on a resource form, for nights on one telescope; three proposals
 * by one author, submitted while submission was open; then an administrator moves the
 * call's dates so that submission closed and review is open (the app's clock cannot move
 * in a journey), and the member reviews all three, so the ranking has an order:
 *
 * | rank | proposal | score | nights asked | running total |
 * | 1    | Alpha    | 4.50  | 12           | 12            |
 * | 2    | Beta     | 3.50  | 10           | 22            |
 * | 3    | Gamma    | 2.00  | 8            | 30            |
 *
 * `endReview` later moves the review window into the past, so that the chair may close it.
 */
import { adminCredentials } from '../fixtures';
import {
  api,
  createCall,
  createCommittee,
  createFormFrom,
  daysFromNow,
  giveRole,
  logInApi,
  registerVerifiedUser,
  type CallDates,
  type FormDefinition,
  type TestUser,
} from '../calls-support/api';
import { createProposal, saveAnswers } from '../proposals-support/api';
import { OBSERVING_PROPOSAL } from '../proposals-support/forms';
import { SCIENCE_REVIEW, SCORES } from '../reviews-support/world';

/** The one facility the proposals ask of, and its one data field. */
export const FACILITY = 'Telescope A';
export const FIELD = 'nights';
/** Its title on the form, by which the pages name it. */
export const FIELD_TITLE = 'Nights';

/** A one-entry resource form (type 4): nights on a telescope, named by its own field. */
const TELESCOPE_NIGHTS: FormDefinition = {
  type: 4,
  jsonSchema: {
    type: 'object',
    required: ['telescope', 'nights'],
    properties: {
      telescope: { type: 'string', title: 'Telescope', enum: [FACILITY] },
      nights: { type: 'number', title: FIELD_TITLE, minimum: 0 },
    },
  },
  uiSchema: { 'ui:order': ['telescope', 'nights'] },
  options: { institution_field: 'telescope', data_fields: [FIELD] },
};

export interface DecisionsProposal {
  id: number;
  name: string;
  /** Nights asked of the telescope. */
  nights: number;
}

export interface DecisionsWorld {
  tag: string;
  committee: { id: number; name: string };
  call: { id: number; name: string };
  /** In rank order: Alpha, Beta, Gamma. */
  proposals: { alpha: DecisionsProposal; beta: DecisionsProposal; gamma: DecisionsProposal };
  chair: TestUser;
  member: TestUser;
  author: TestUser;
  /** Moves the review window into the past, so that the call may be closed now. */
  endReview: () => Promise<void>;
}

export async function createDecisionsWorld(): Promise<DecisionsWorld> {
  const tag = Math.random().toString(36).slice(2, 8);
  const adminToken = await logInApi(adminCredentials());
  const committeeName = `Time Allocation Committee ${tag}`;
  const [chair, member, author, committeeId, observing, telescope, review, scores] =
    await Promise.all([
      // At different institutions: Merit suggests no conflict of interest among them.
      registerVerifiedUser('Carla', `Chair${tag}`, { institution: 'Lund Observatory' }),
      registerVerifiedUser('Rita', `Reviewer${tag}`, { institution: 'Onsala Observatory' }),
      registerVerifiedUser('Ada', `Author${tag}`, { institution: 'University of Uppsala' }),
      createCommittee(adminToken, committeeName),
      createFormFrom(adminToken, `Observing Proposal ${tag}`, OBSERVING_PROPOSAL),
      createFormFrom(adminToken, `Telescope Nights ${tag}`, TELESCOPE_NIGHTS),
      createFormFrom(adminToken, `Science Review ${tag}`, SCIENCE_REVIEW),
      createFormFrom(adminToken, `Scores ${tag}`, SCORES),
    ]);
  await giveRole(adminToken, chair.id, committeeId, 'CHAIR');
  await giveRole(adminToken, member.id, committeeId, 'MEMBER');

  const callName = `Telescope Time ${tag}`;
  const type = {
    typeName: 'Observing',
    proposalForms: [observing.id, telescope.id],
    reviewForms: [review.id, scores.id],
  };
  const openNow: CallDates = {
    openDateTime: daysFromNow(-3, 9),
    closeDateTime: daysFromNow(30, 17),
    reviewOpenDateTime: daysFromNow(31, 9),
    reviewCloseDateTime: daysFromNow(60, 17),
  };
  const callId = await createCall(adminToken, {
    committeeId,
    name: callName,
    dates: openNow,
    proposalTypes: [type],
  });
  const { proposalTypes } = await api<{ proposalTypes: { typeId: number }[] }>(
    'GET',
    `/calls/${callId}/`,
    { token: adminToken },
  );
  const typeId = proposalTypes[0]!.typeId;

  // The author writes three proposals and submits them while submission is open.
  const authorToken = await logInApi(author);
  const write = async (name: string, nights: number): Promise<DecisionsProposal> => {
    const target = { callId, typeId };
    const proposalId = await createProposal(authorToken, { ...target, name });
    await saveAnswers(
      authorToken,
      { ...target, proposalId, formId: observing.id },
      {
        title: name,
        abstract: 'We will map the dust between the two Magellanic Clouds in the infrared.',
        instrument: 'Infrared camera',
        nights: Math.min(14, Math.ceil(nights)),
      },
    );
    await saveAnswers(
      authorToken,
      { ...target, proposalId, formId: telescope.id },
      { telescope: FACILITY, nights },
    );
    await api('POST', '/proposal_state/', { token: authorToken, body: { proposalId, state: 1 } });
    return { id: proposalId, name, nights };
  };
  const alpha = await write(`Alpha Centauri survey ${tag}`, 12);
  const beta = await write(`Beta Pictoris disc ${tag}`, 10);
  const gamma = await write(`Gamma Cassiopeiae flares ${tag}`, 8);

  const minute = 60 * 1000;
  const moveDates = (dates: Omit<CallDates, 'openDateTime'>) =>
    api('POST', '/new_call/', {
      token: adminToken,
      body: {
        new: false,
        id: callId,
        committee: committeeId,
        name: callName,
        openDateTime: openNow.openDateTime.toISOString(),
        closeDateTime: dates.closeDateTime.toISOString(),
        reviewOpenDateTime: dates.reviewOpenDateTime.toISOString(),
        reviewCloseDateTime: dates.reviewCloseDateTime.toISOString(),
        isReviewOpen: false,
        description: '',
        proposalTypes: [{ ...type, typeId }],
      },
    });
  // Submission closes and review opens: now, as far as the app can tell.
  await moveDates({
    closeDateTime: new Date(Date.now() - 2 * minute),
    reviewOpenDateTime: new Date(Date.now() - minute),
    reviewCloseDateTime: daysFromNow(30, 17),
  });

  // The chair assigns Rita to all three, and she reviews them: Alpha best, Gamma last.
  const chairToken = await logInApi(chair);
  const memberToken = await logInApi(member);
  const reviewOf = async (
    proposal: DecisionsProposal,
    significance: number,
    feasibility: number,
    hash: number,
  ) => {
    await api('POST', '/reviewers/', {
      token: chairToken,
      body: { proposalId: proposal.id, userId: member.id },
    });
    const first = await api<{ reviewId: number; version: number }>('POST', '/review_responses/', {
      token: memberToken,
      body: {
        call: callId,
        proposal: proposal.id,
        formId: review.id,
        hash,
        data: { strengths: 'Clear aims', weaknesses: 'Costly' },
      },
    });
    await api('POST', '/review_responses/', {
      token: memberToken,
      body: {
        call: callId,
        proposal: proposal.id,
        reviewId: first.reviewId,
        version: first.version,
        formId: scores.id,
        hash: hash + 1,
        data: { significance, feasibility },
      },
    });
  };
  await reviewOf(alpha, 5, 4, 2901);
  await reviewOf(beta, 4, 3, 2903);
  await reviewOf(gamma, 2, 2, 2905);

  return {
    tag,
    committee: { id: committeeId, name: committeeName },
    call: { id: callId, name: callName },
    proposals: { alpha, beta, gamma },
    chair,
    member,
    author,
    endReview: async () => {
      const start = Date.now();
      await moveDates({
        closeDateTime: new Date(start - 3 * minute),
        reviewOpenDateTime: new Date(start - 2 * minute),
        reviewCloseDateTime: new Date(start - 1000),
      });
    },
  };
}
