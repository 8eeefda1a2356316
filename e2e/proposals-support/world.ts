/**
 * What the proposal journeys and the manual's screenshots share, made through the API:
 * a committee with a call that is open now, its forms, an author and a collaborator.
 */
import { adminCredentials } from '../fixtures';
import {
  api,
  createCall,
  createCommittee,
  createForm,
  createFormFrom,
  daysFromNow,
  logInApi,
  registerVerifiedUser,
  type CreatedForm,
  type TestUser,
} from '../calls-support/api';
import { OBSERVING_PROPOSAL, TEAM_MEMBERS } from './forms';

/** The call's proposal types: the first has both forms, the second the first form only. */
export const TYPE_NAMES = { standard: 'Standard', rapid: 'Rapid Response' } as const;

interface PersonName {
  firstName: string;
  lastName: string;
  /** As a person would choose it; by default the first name with a unique suffix. */
  username?: string;
  institution?: string;
}

export interface WorldNames {
  committee: string;
  call: string;
  /** The forms' display names: the editor's tabs. */
  forms: { observing: string; team: string; review: string };
  author: PersonName;
  collaborator: PersonName;
}

export interface ProposalsWorld {
  adminToken: string;
  committee: { id: number; name: string };
  call: { id: number; name: string; typeIds: Record<keyof typeof TYPE_NAMES, number> };
  forms: { observing: CreatedForm; team: CreatedForm; review: CreatedForm };
  author: TestUser;
  authorToken: string;
  collaborator: TestUser;
  collaboratorToken: string;
}

/** Lower-case letters only: names may hold them anywhere. */
function randomTag(): string {
  const letters = Array.from({ length: 6 }, () =>
    String.fromCharCode(97 + Math.floor(Math.random() * 26)),
  ).join('');
  return letters.charAt(0).toUpperCase() + letters.slice(1);
}

/** Names no other test or run uses, so the journeys can run again on the same server. */
function uniqueNames(): WorldNames {
  const tag = randomTag();
  return {
    committee: `Astronomy Committee ${tag}`,
    call: `Telescope Time ${tag}`,
    forms: {
      observing: `Observing Proposal ${tag}`,
      team: `Team Members ${tag}`,
      review: `Proposal Review ${tag}`,
    },
    author: { firstName: 'Ada', lastName: `Lovelace${tag}` },
    collaborator: { firstName: 'Charles', lastName: `Babbage${tag}` },
  };
}

export async function createProposalsWorld(
  names: WorldNames = uniqueNames(),
): Promise<ProposalsWorld> {
  const adminToken = await logInApi(adminCredentials());
  const register = ({ firstName, lastName, ...options }: PersonName) =>
    registerVerifiedUser(firstName, lastName, options);
  const [author, collaborator, committeeId, observing, team, review] = await Promise.all([
    register(names.author),
    register(names.collaborator),
    createCommittee(adminToken, names.committee),
    createFormFrom(adminToken, names.forms.observing, OBSERVING_PROPOSAL),
    createFormFrom(adminToken, names.forms.team, TEAM_MEMBERS),
    createForm(adminToken, 2, names.forms.review),
  ]);

  const callId = await createCall(adminToken, {
    committeeId,
    name: names.call,
    dates: {
      openDateTime: daysFromNow(-3, 9),
      closeDateTime: daysFromNow(30, 17),
      reviewOpenDateTime: daysFromNow(31, 9),
      reviewCloseDateTime: daysFromNow(60, 17),
    },
    proposalTypes: [
      {
        typeName: TYPE_NAMES.standard,
        proposalForms: [observing.id, team.id],
        reviewForms: [review.id],
      },
      { typeName: TYPE_NAMES.rapid, proposalForms: [observing.id], reviewForms: [review.id] },
    ],
  });
  const { proposalTypes } = await api<{ proposalTypes: { typeId: number; typeName: string }[] }>(
    'GET',
    `/calls/${callId}/`,
    { token: adminToken },
  );
  const typeId = (name: string) => {
    const type = proposalTypes.find((candidate) => candidate.typeName === name);
    if (!type) throw new Error(`The call has no proposal type ${name}.`);
    return type.typeId;
  };

  return {
    adminToken,
    committee: { id: committeeId, name: names.committee },
    call: {
      id: callId,
      name: names.call,
      typeIds: { standard: typeId(TYPE_NAMES.standard), rapid: typeId(TYPE_NAMES.rapid) },
    },
    forms: { observing, team, review },
    author,
    authorToken: await logInApi(author),
    collaborator,
    collaboratorToken: await logInApi(collaborator),
  };
}
