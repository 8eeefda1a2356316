/**
 * What the assignment journey needs, made through the server's public API: a committee
 * with a chair and three members, a call with a review form and a score form, and three
 * proposals by three applicants, submitted while submission was open. Then an
 * administrator moves the call's dates so that submission closed a minute ago and review
 * is open (the app's clock cannot move in a journey).
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
  type TestUser,
} from '../calls-support/api';
import { createProposal, saveAnswers } from '../proposals-support/api';
import { OBSERVING_PROPOSAL } from '../proposals-support/forms';
import { SCIENCE_REVIEW, SCORES } from '../reviews-support/world';

export interface AssignmentWorld {
  call: { id: number; name: string };
  /** By name: Bridge, Stream and Nebula. */
  proposals: { bridge: Proposal; stream: Proposal; nebula: Proposal };
  chair: TestUser;
  /** Bids Eager on the Bridge and Not me on the Stream. */
  grace: TestUser;
  /** Bids Eager on the Stream. */
  hedy: TestUser;
  /** Does not bid. */
  ivan: TestUser;
  /** The applicants of the Bridge, the Stream and the Nebula. */
  applicants: { ada: TestUser; bea: TestUser; cleo: TestUser };
  /** The review form and the score form, for journeys that write reviews. */
  forms: { review: number; scores: number };
}

interface Proposal {
  id: number;
  name: string;
}

export async function createAssignmentWorld(): Promise<AssignmentWorld> {
  const tag = Math.random().toString(36).slice(2, 8);
  const adminToken = await logInApi(adminCredentials());
  const person = (first: string, last: string, institution: string) =>
    registerVerifiedUser(first, `${last}${tag}`, { institution });
  const [chair, grace, hedy, ivan, ada, bea, cleo, committeeId, observing, review, scores] =
    await Promise.all([
      person('Carla', 'Chair', 'Lund Observatory'),
      person('Grace', 'Hopper', 'Onsala Space Observatory'),
      person('Hedy', 'Lamarr', 'Chalmers University of Technology'),
      person('Ivan', 'Sutherland', 'Stockholm University'),
      person('Ada', 'Lovelace', 'University of Uppsala'),
      person('Bea', 'Tinsley', 'University of Auckland'),
      person('Cleo', 'Payne', 'University of Cambridge'),
      createCommittee(adminToken, `Assignment Committee ${tag}`),
      createFormFrom(adminToken, `Observing Proposal ${tag}`, OBSERVING_PROPOSAL),
      createFormFrom(adminToken, `Science Review ${tag}`, SCIENCE_REVIEW),
      createFormFrom(adminToken, `Scores ${tag}`, SCORES),
    ]);
  await giveRole(adminToken, chair.id, committeeId, 'CHAIR');
  for (const member of [grace, hedy, ivan])
    await giveRole(adminToken, member.id, committeeId, 'MEMBER');

  const callName = `Telescope Time ${tag}`;
  const dates: CallDates = {
    openDateTime: daysFromNow(-3, 9),
    closeDateTime: daysFromNow(30, 17),
    reviewOpenDateTime: daysFromNow(31, 9),
    reviewCloseDateTime: daysFromNow(60, 17),
  };
  const types = <T extends number | null>(typeId: T) => [
    {
      typeId,
      typeName: 'Standard',
      proposalForms: [observing.id],
      reviewForms: [review.id, scores.id],
    },
  ];
  const callId = await createCall(adminToken, {
    committeeId,
    name: callName,
    dates,
    proposalTypes: types(null).map(({ typeId: _none, ...type }) => type),
  });
  const { proposalTypes } = await api<{ proposalTypes: { typeId: number }[] }>(
    'GET',
    `/calls/${callId}/`,
    { token: adminToken },
  );
  const typeId = proposalTypes[0]!.typeId;

  // Each applicant writes and submits one proposal while submission is open.
  const submit = async (author: TestUser, name: string, title: string): Promise<Proposal> => {
    const token = await logInApi(author);
    const proposalId = await createProposal(token, { callId, typeId, name });
    await saveAnswers(
      token,
      { callId, typeId, proposalId, formId: observing.id },
      {
        title,
        abstract: `${title}, observed in the infrared.`,
        instrument: 'Infrared camera',
        nights: 2,
      },
    );
    await api('POST', '/proposal_state/', { token, body: { proposalId, state: 1 } });
    return { id: proposalId, name };
  };
  const [bridge, stream, nebula] = await Promise.all([
    submit(ada, `Magellanic Bridge ${tag}`, 'Dust in the Magellanic Bridge'),
    submit(bea, `Sagittarius Stream ${tag}`, 'Stars of the Sagittarius Stream'),
    submit(cleo, `Crab Nebula ${tag}`, 'The pulsar wind of the Crab Nebula'),
  ]);

  // Submission closes and review opens: now, as far as the app can tell.
  await openReviewNow(adminToken, {
    id: callId,
    committeeId,
    name: callName,
    openDateTime: dates.openDateTime,
    proposalTypes: types(typeId),
  });

  return {
    call: { id: callId, name: callName },
    proposals: { bridge, stream, nebula },
    chair,
    grace,
    hedy,
    ivan,
    applicants: { ada, bea, cleo },
    forms: { review: review.id, scores: scores.id },
  };
}
