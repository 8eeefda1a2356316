/**
 * The people and forms the call journeys share: a committee with a (non-admin) chair,
 * a second user the chair can grant an extension to, a plain user with no role, and
 * two proposal forms and two review forms. Made once per worker through the API.
 */
import { adminCredentials } from '../fixtures';
import {
  createCommittee,
  createForm,
  giveRole,
  logInApi,
  registerVerifiedUser,
  type CreatedForm,
  type TestUser,
} from './api';

export interface CallsWorld {
  /** Letters unique to this set-up, to tell its names from any other test's. */
  tag: string;
  adminToken: string;
  committee: { id: number; name: string };
  chair: TestUser;
  chairToken: string;
  /** Holds no role; the chair grants them an extension. */
  applicant: TestUser;
  /** Holds no role; looks at calls only. */
  plainUser: TestUser;
  forms: {
    researchProposal: CreatedForm;
    researchReview: CreatedForm;
    fellowshipProposal: CreatedForm;
    fellowshipReview: CreatedForm;
  };
}

/** Lower-case letters only: names may hold them anywhere. */
function randomLetters(count: number): string {
  return Array.from({ length: count }, () =>
    String.fromCharCode(97 + Math.floor(Math.random() * 26)),
  ).join('');
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export async function createCallsWorld(): Promise<CallsWorld> {
  const tag = randomLetters(6);
  const adminToken = await logInApi(adminCredentials());
  const committeeName = `Astronomy Committee ${capitalised(tag)}`;
  const committeeId = await createCommittee(adminToken, committeeName);

  const [chair, applicant, plainUser] = await Promise.all([
    registerVerifiedUser('Carla', `Mendes${capitalised(tag)}`),
    registerVerifiedUser('Arjun', `Okafor${capitalised(tag)}`),
    registerVerifiedUser('Petra', `Lindqvist${capitalised(tag)}`),
  ]);
  await giveRole(adminToken, chair.id, committeeId, 'CHAIR');

  const title = capitalised(tag);
  const [researchProposal, researchReview, fellowshipProposal, fellowshipReview] =
    await Promise.all([
      createForm(adminToken, 0, `Research Plan ${title}`),
      createForm(adminToken, 2, `Research Review ${title}`),
      createForm(adminToken, 0, `Fellowship Application ${title}`),
      createForm(adminToken, 2, `Fellowship Review ${title}`),
    ]);

  return {
    tag,
    adminToken,
    committee: { id: committeeId, name: committeeName },
    chair,
    chairToken: await logInApi(chair),
    applicant,
    plainUser,
    forms: { researchProposal, researchReview, fellowshipProposal, fellowshipReview },
  };
}
