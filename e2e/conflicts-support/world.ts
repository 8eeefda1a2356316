/**
 * What the conflicts journey needs, made through the server's public API: a committee
 * whose members work at different institutions, one of them at the applicant's (under
 * another spelling) and one on the applicant's list of recent collaborators, so that
 * Merit has two conflicts to suggest; a call that asks members to declare before they
 * read; and a draft the applicant has answered. Submitting it, and moving the call into
 * its review period, are the journey's: it declares on the draft first.
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

export interface ConflictsWorld {
  call: { id: number; name: string; committeeId: number; typeId: number; dates: CallDates };
  proposal: { id: number; name: string };
  chair: TestUser;
  author: TestUser;
  /** Meets the declaration gate and declares a conflict. */
  grace: TestUser;
  /** The applicant declares a conflict with her. */
  hedy: TestUser;
  /** At the applicant's institution, spelt another way: a suggestion the chair confirms. */
  ivan: TestUser;
  /** On the applicant's list of recent collaborators: a suggestion the chair dismisses. */
  jane: TestUser;
  forms: { observing: number; review: number; scores: number };
}

export async function createConflictsWorld(): Promise<ConflictsWorld> {
  const tag = Math.random().toString(36).slice(2, 8);
  const adminToken = await logInApi(adminCredentials());
  const person = (first: string, last: string, institution: string) =>
    registerVerifiedUser(first, `${last}${tag}`, { institution });
  const [chair, author, grace, hedy, ivan, jane, committeeId, observing, review, scores] =
    await Promise.all([
      person('Carla', 'Chair', 'Lund Observatory'),
      person('Ada', 'Lovelace', 'University of Uppsala'),
      person('Grace', 'Hopper', 'Onsala Space Observatory'),
      person('Hedy', 'Lamarr', 'Chalmers University of Technology'),
      person('Ivan', 'Sutherland', 'The University of Uppsala'),
      person('Jane', 'Goodall', 'Stockholm University'),
      createCommittee(adminToken, `Conflicts Committee ${tag}`),
      createFormFrom(adminToken, `Observing Proposal ${tag}`, OBSERVING_PROPOSAL),
      createFormFrom(adminToken, `Science Review ${tag}`, SCIENCE_REVIEW),
      createFormFrom(adminToken, `Scores ${tag}`, SCORES),
    ]);
  await giveRole(adminToken, chair.id, committeeId, 'CHAIR');
  for (const member of [grace, hedy, ivan, jane])
    await giveRole(adminToken, member.id, committeeId, 'MEMBER');

  const callName = `Telescope Time ${tag}`;
  const dates: CallDates = {
    openDateTime: daysFromNow(-3, 9),
    closeDateTime: daysFromNow(30, 17),
    reviewOpenDateTime: daysFromNow(31, 9),
    reviewCloseDateTime: daysFromNow(60, 17),
  };
  const callId = await createCall(adminToken, {
    committeeId,
    name: callName,
    dates,
    proposalTypes: [
      { typeName: 'Standard', proposalForms: [observing.id], reviewForms: [review.id, scores.id] },
    ],
    conflicts: { enabled: true, declarationRequired: true },
  });
  const { proposalTypes } = await api<{ proposalTypes: { typeId: number }[] }>(
    'GET',
    `/calls/${callId}/`,
    { token: adminToken },
  );
  const typeId = proposalTypes[0]!.typeId;

  // Ada keeps Jane on her list of recent collaborators, and writes her proposal.
  const authorToken = await logInApi(author);
  await api('PUT', '/recent_collaborators/', {
    token: authorToken,
    body: { collaborators: [{ name: jane.fullName, email: jane.email.toUpperCase() }] },
  });
  const proposalName = `Magellanic Bridge ${tag}`;
  const proposalId = await createProposal(authorToken, { callId, typeId, name: proposalName });
  await saveAnswers(
    authorToken,
    { callId, typeId, proposalId, formId: observing.id },
    {
      title: 'Dust in the Magellanic Bridge',
      abstract: 'We will map the dust between the two Magellanic Clouds in the infrared.',
      instrument: 'Infrared camera',
      nights: 3,
    },
  );

  return {
    call: { id: callId, name: callName, committeeId, typeId, dates },
    proposal: { id: proposalId, name: proposalName },
    chair,
    author,
    grace,
    hedy,
    ivan,
    jane,
    forms: { observing: observing.id, review: review.id, scores: scores.id },
  };
}

/**
 * Once the applicant has submitted, an administrator moves the call's dates so that, as
 * far as the app can tell, submission closed a minute ago and review is open (the app's
 * clock cannot move in a journey).
 */
export async function openReview(world: ConflictsWorld): Promise<void> {
  const { call, forms } = world;
  await openReviewNow(await logInApi(adminCredentials()), {
    id: call.id,
    committeeId: call.committeeId,
    name: call.name,
    openDateTime: call.dates.openDateTime,
    proposalTypes: [
      {
        typeId: call.typeId,
        typeName: 'Standard',
        proposalForms: [forms.observing],
        reviewForms: [forms.review, forms.scores],
      },
    ],
  });
}
