/**
 * Proposals made through the server's public API, as their authors would have made them
 * before a journey starts: created, answered, and shared with collaborators.
 */
import { api } from '../calls-support/api';

export type Answers = Record<string, unknown>;

/** Creates a draft of the call's proposal type `typeId` for the user of `token`; its id. */
export async function createProposal(
  token: string,
  proposal: { callId: number; typeId: number; name: string },
): Promise<number> {
  const { id } = await api<{ id: number }>('POST', '/update_proposal_name/', {
    token,
    body: {
      callId: proposal.callId,
      isNew: true,
      proposalId: null,
      name: proposal.name,
      type: proposal.typeId,
    },
  });
  return id;
}

/**
 * Saves the answers of one form of a proposal, checked against the form's schema as the
 * editor's Save checks them: one object for a one-entry form, or the entries of a
 * multi-entry form in order (each a new entry: the form's first answers).
 */
export async function saveAnswers(
  token: string,
  target: { callId: number; typeId: number; proposalId: number; formId: number },
  answers: Answers | Answers[],
): Promise<void> {
  // One save hash per form, as a Save of that form in the editor would use.
  const hash = Math.floor(Math.random() * 2 ** 31);
  const entries = Array.isArray(answers) ? answers : [answers];
  for (const [index, data] of entries.entries()) {
    await api('POST', '/proposal_responses/', {
      token,
      body: {
        call: target.callId,
        proposalTypeId: target.typeId,
        proposal: target.proposalId,
        new: false,
        hash,
        formId: target.formId,
        index,
        singleSave: true,
        validate: true,
        data,
      },
    });
  }
  // A save takes the editing lock for its session when nobody holds it: let it go, as an
  // editor does when it is left, so that the journey's own editor can take it.
  await api('DELETE', `/lock/${target.proposalId}/`, { token });
}

/** The collaborator hash of the user of `token`, as their My Account page shows it. */
export async function collaboratorHash(token: string): Promise<string> {
  const { hash } = await api<{ hash: string }>('GET', '/user_details/', { token });
  return hash;
}

/** The author (`authorToken`) adds the holder of `hash` as a collaborator. */
export async function addCollaborator(
  authorToken: string,
  proposalId: number,
  hash: string,
): Promise<void> {
  await api('POST', '/collaborators/', { token: authorToken, body: { proposalId, hash } });
}
