/**
 * What the chair's journey needs, made through the server's public API as the people
 * would have made it: a committee with a chair and a member; a call with two proposal
 * types whose resource forms name two facilities (ATCA and Parkes); three submitted
 * proposals and a draft; and one review with scores. As in the review journey, the call
 * is open for submission first, then an administrator moves its dates so that review is
 * open now; `endReview` later moves them again so that the chair may close it.
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

/** A multi-entry resource form (type 5): each entry asks one telescope for hours and nights. */
const TELESCOPE_TIME: FormDefinition = {
  type: 5,
  jsonSchema: {
    type: 'object',
    required: ['facility'],
    properties: {
      facility: { type: 'string', title: 'Telescope', enum: ['ATCA', 'Parkes'] },
      hours: { type: 'number', title: 'Hours' },
      nights: { type: 'integer', title: 'Nights' },
    },
  },
  uiSchema: {},
  options: { institution_field: 'facility', data_fields: ['hours', 'nights'] },
};

/** A one-entry resource form (type 4): computing hours at one site. */
const COMPUTE_TIME: FormDefinition = {
  type: 4,
  jsonSchema: {
    type: 'object',
    required: ['facility'],
    properties: {
      facility: { type: 'string', title: 'Site', enum: ['ATCA', 'Parkes'] },
      hours: { type: 'number', title: 'Hours' },
    },
  },
  uiSchema: {},
  options: { institution_field: 'facility', data_fields: ['hours'] },
};

const answers = (title: string) => ({
  title,
  abstract: 'We will map the dust between the two Magellanic Clouds in the infrared.',
  instrument: 'Infrared camera',
  nights: 3,
});

export interface ChairWorld {
  tag: string;
  call: { id: number; name: string };
  proposals: { galaxy: string; pulsar: string; simulation: string; draft: string };
  galaxyId: number;
  chair: TestUser;
  member: TestUser;
  author: TestUser;
  /** Moves the review window into the past, so that the call may be closed now. */
  endReview: () => Promise<void>;
}

export async function createChairWorld(): Promise<ChairWorld> {
  const tag = Math.random().toString(36).slice(2, 8);
  const adminToken = await logInApi(adminCredentials());
  const [chair, member, author, committeeId, observing, telescope, compute, review, scores] =
    await Promise.all([
      // At different institutions: Merit suggests no conflict of interest among them.
      registerVerifiedUser('Carla', `Chair${tag}`, { institution: 'Lund Observatory' }),
      registerVerifiedUser('Rita', `Reviewer${tag}`, { institution: 'Onsala Observatory' }),
      registerVerifiedUser('Ada', `Author${tag}`, { institution: 'University of Uppsala' }),
      createCommittee(adminToken, `Time Committee ${tag}`),
      createFormFrom(adminToken, `Observing Proposal ${tag}`, OBSERVING_PROPOSAL),
      createFormFrom(adminToken, `Telescope Time ${tag}`, TELESCOPE_TIME),
      createFormFrom(adminToken, `Compute Time ${tag}`, COMPUTE_TIME),
      createFormFrom(adminToken, `Science Review ${tag}`, SCIENCE_REVIEW),
      createFormFrom(adminToken, `Scores ${tag}`, SCORES),
    ]);
  await giveRole(adminToken, chair.id, committeeId, 'CHAIR');
  await giveRole(adminToken, member.id, committeeId, 'MEMBER');

  const callName = `Decisions ${tag}`;
  const types = [
    {
      typeName: 'Observing',
      proposalForms: [observing.id, telescope.id],
      reviewForms: [review.id, scores.id],
    },
    {
      typeName: 'Computing',
      proposalForms: [observing.id, compute.id],
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
    proposalTypes: types,
  });
  const { proposalTypes } = await api<{ proposalTypes: { typeId: number; typeName: string }[] }>(
    'GET',
    `/calls/${callId}/`,
    { token: adminToken },
  );
  const typeId = (name: string) => proposalTypes.find((type) => type.typeName === name)!.typeId;
  const withIds = types.map((type) => ({ ...type, typeId: typeId(type.typeName) }));

  // The author writes three proposals and submits them, and leaves a fourth a draft.
  const authorToken = await logInApi(author);
  const names = {
    galaxy: `Galaxy survey ${tag}`,
    pulsar: `Pulsar timing ${tag}`,
    simulation: `Simulation ${tag}`,
    draft: `Unfinished ${tag}`,
  };
  const write = async (
    name: string,
    type: 'Observing' | 'Computing',
    resources: Record<string, unknown> | Record<string, unknown>[],
    submit: boolean,
  ) => {
    const target = { callId, typeId: typeId(type) };
    const proposalId = await createProposal(authorToken, { ...target, name });
    await saveAnswers(authorToken, { ...target, proposalId, formId: observing.id }, answers(name));
    const formId = type === 'Observing' ? telescope.id : compute.id;
    await saveAnswers(authorToken, { ...target, proposalId, formId }, resources);
    if (submit)
      await api('POST', '/proposal_state/', { token: authorToken, body: { proposalId, state: 1 } });
    return proposalId;
  };
  const galaxyId = await write(
    names.galaxy,
    'Observing',
    [
      { facility: 'ATCA', hours: 12.5, nights: 3 },
      { facility: 'Parkes', hours: 4 },
    ],
    true,
  );
  await write(names.pulsar, 'Observing', [{ facility: 'Parkes', hours: 6, nights: 3 }], true);
  await write(names.simulation, 'Computing', { facility: 'ATCA', hours: 100 }, true);
  await write(names.draft, 'Observing', [{ facility: 'ATCA', hours: 50 }], false);

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
        proposalTypes: withIds,
      },
    });
  // Submission closes and review opens: now, as far as the app can tell.
  await moveDates({
    closeDateTime: new Date(Date.now() - 2 * minute),
    reviewOpenDateTime: new Date(Date.now() - minute),
    reviewCloseDateTime: daysFromNow(30, 17),
  });

  // The chair assigns Rita to the galaxy survey, and she reviews it.
  const chairToken = await logInApi(chair);
  await api('POST', '/reviewers/', {
    token: chairToken,
    body: { proposalId: galaxyId, userId: member.id },
  });
  const memberToken = await logInApi(member);
  const first = await api<{ reviewId: number; version: number }>('POST', '/review_responses/', {
    token: memberToken,
    body: {
      call: callId,
      proposal: galaxyId,
      formId: review.id,
      hash: 1001,
      data: { strengths: 'Clear aims', weaknesses: 'Costly' },
    },
  });
  await api('POST', '/review_responses/', {
    token: memberToken,
    body: {
      call: callId,
      proposal: galaxyId,
      reviewId: first.reviewId,
      version: first.version,
      formId: scores.id,
      hash: 1002,
      data: { significance: 4, feasibility: 3 },
    },
  });

  return {
    tag,
    call: { id: callId, name: callName },
    proposals: names,
    galaxyId,
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
