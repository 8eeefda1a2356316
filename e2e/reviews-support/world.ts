/**
 * What the review journey needs, made through the server's public API as the people
 * would have made it before the journey starts: a committee with a chair and a member,
 * a call with a review form and a score form, and a proposal its author submitted. The
 * app's clock cannot move in a journey, so the call is first open for submission, and
 * once the proposal is in, an administrator moves its dates: submission closed a minute
 * ago, review open since then.
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
  openReviewNow,
  registerVerifiedUser,
  type CallDates,
  type FormDefinition,
  type TestUser,
} from '../calls-support/api';
import { createProposal, saveAnswers } from '../proposals-support/api';
import { OBSERVING_PROPOSAL } from '../proposals-support/forms';

/** A review form (type 2): what the reviewer writes. */
export const SCIENCE_REVIEW: FormDefinition = {
  type: 2,
  jsonSchema: {
    type: 'object',
    required: ['strengths'],
    properties: {
      strengths: { type: 'string', title: 'Strengths', maxLength: 5000 },
      weaknesses: { type: 'string', title: 'Weaknesses', maxLength: 5000 },
    },
  },
  uiSchema: {
    'ui:order': ['strengths', 'weaknesses'],
    strengths: { 'ui:widget': 'textarea', 'ui:options': { rows: 4 } },
    weaknesses: { 'ui:widget': 'textarea', 'ui:options': { rows: 4 } },
  },
  options: null,
};

/** A Review Score Form (type 3): the review's score is the average of its two fields. */
export const SCORES: FormDefinition = {
  type: 3,
  jsonSchema: {
    type: 'object',
    required: ['significance', 'feasibility'],
    properties: {
      significance: { type: 'integer', title: 'Significance', enum: [1, 2, 3, 4, 5] },
      feasibility: { type: 'integer', title: 'Feasibility', enum: [1, 2, 3, 4, 5] },
    },
  },
  uiSchema: { 'ui:order': ['significance', 'feasibility'] },
  options: { method: 'average', fields: ['significance', 'feasibility'] },
};

/** Answers to the Observing Proposal form that pass its checks. */
const OBSERVING_ANSWERS = {
  title: 'Dust in the Magellanic Bridge',
  abstract: 'We will map the dust between the two Magellanic Clouds in the infrared.',
  instrument: 'Infrared camera',
  nights: 3,
};

export interface ReviewsWorld {
  call: { id: number; name: string };
  proposal: { id: number; name: string };
  forms: { observing: string; review: string; scores: string };
  chair: TestUser;
  member: TestUser;
  author: TestUser;
}

export async function createReviewsWorld(): Promise<ReviewsWorld> {
  const tag = Math.random().toString(36).slice(2, 8);
  const adminToken = await logInApi(adminCredentials());
  const names = {
    observing: `Observing Proposal ${tag}`,
    review: `Science Review ${tag}`,
    scores: `Scores ${tag}`,
  };
  const [chair, member, author, committeeId, observing, review, scores] = await Promise.all([
    registerVerifiedUser('Carla', `Chair${tag}`),
    registerVerifiedUser('Grace', `Hopper${tag}`),
    registerVerifiedUser('Ada', `Lovelace${tag}`),
    createCommittee(adminToken, `Review Committee ${tag}`),
    createFormFrom(adminToken, names.observing, OBSERVING_PROPOSAL),
    createFormFrom(adminToken, names.review, SCIENCE_REVIEW),
    createFormFrom(adminToken, names.scores, SCORES),
  ]);
  await giveRole(adminToken, chair.id, committeeId, 'CHAIR');
  await giveRole(adminToken, member.id, committeeId, 'MEMBER');

  const callName = `Telescope Time ${tag}`;
  const types = <T extends number | null>(typeId: T) => [
    {
      typeId,
      typeName: 'Standard',
      proposalForms: [observing.id],
      reviewForms: [review.id, scores.id],
    },
  ];
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
    proposalTypes: types(null).map(({ typeId: _none, ...type }) => type),
  });
  const { proposalTypes } = await api<{ proposalTypes: { typeId: number }[] }>(
    'GET',
    `/calls/${callId}/`,
    { token: adminToken },
  );
  const typeId = proposalTypes[0]!.typeId;

  // The author writes and submits while submission is open.
  const authorToken = await logInApi(author);
  const proposalName = `Magellanic Bridge ${tag}`;
  const proposalId = await createProposal(authorToken, { callId, typeId, name: proposalName });
  await saveAnswers(
    authorToken,
    { callId, typeId, proposalId, formId: observing.id },
    OBSERVING_ANSWERS,
  );
  await api('POST', '/proposal_state/', { token: authorToken, body: { proposalId, state: 1 } });

  // Then submission closes and review opens: now, as far as the app can tell.
  await openReviewNow(adminToken, {
    id: callId,
    committeeId,
    name: callName,
    openDateTime: openNow.openDateTime,
    proposalTypes: types(typeId),
  });

  return {
    call: { id: callId, name: callName },
    proposal: { id: proposalId, name: proposalName },
    forms: names,
    chair,
    member,
    author,
  };
}
