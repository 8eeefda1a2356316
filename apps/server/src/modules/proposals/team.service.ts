import {
  type Collaborator,
  type CollaboratorAdd,
  type CollaboratorRemove,
  type LockState,
} from '@merit/contract';
import { decide, proposalMessages } from '@merit/domain';
import { invalid, notFound } from '../../platform/http/http-errors.js';
import { enqueueMail } from '../../platform/io/mail-job.js';
import type { Work } from '../../platform/data/work.js';
import { collaboratorAddedMail } from './proposals.mails.js';
import { presentLock } from './proposals.presenter.js';
import { touchProposal } from './proposals.queries.js';
import {
  currentLock,
  deleteCollaborator,
  insertCollaborator,
  releaseLock,
  takeLock,
  userByHash,
} from './team.queries.js';
import { loadFor } from './proposal-access.js';
import { factsOf } from './proposals.service.js';

/*
 * A proposal's people: its collaborators, and the lock that lets one editor at a time
 * save.
 */

/** POST /collaborators/: the author adds the person whose collaborator hash this is. */
export async function addCollaborator(
  work: Work,
  input: CollaboratorAdd,
  publicUrl: string,
): Promise<Collaborator> {
  const loaded = await loadFor(work, 'proposal.manageCollaborators', input.proposalId, true);
  const { proposal, collaborators } = loaded;
  const person = await userByHash(work.tx, input.hash.trim());
  if (!person) throw invalid({ hash: [proposalMessages.hashUnknown] });
  if (person.id === proposal.authorId) throw invalid({ hash: [proposalMessages.hashOwn] });
  if (collaborators.some((c) => c.id === person.id))
    throw invalid({ hash: [proposalMessages.alreadyCollaborator] });
  await insertCollaborator(work.tx, proposal.id, person.id);
  await touchProposal(work.tx, proposal.id, work.actor.id, work.now);
  const before = collaborators.map((c) => c.id);
  await work.audit({
    action: 'proposal.add_collaborator',
    entityId: proposal.id,
    before: { collaboratorIds: before },
    after: { collaboratorIds: [...before, person.id] },
  });
  await enqueueMail(
    work,
    collaboratorAddedMail(person, factsOf(loaded, publicUrl), loaded.author.name),
  );
  return { id: person.id, name: person.name, email: person.email };
}

/** DELETE /collaborators/: the author removes a collaborator (and any lock they hold). */
export async function removeCollaborator(work: Work, input: CollaboratorRemove): Promise<void> {
  const { proposal, collaborators } = await loadFor(
    work,
    'proposal.manageCollaborators',
    input.proposalId,
    true,
  );
  if (!(await deleteCollaborator(work.tx, proposal.id, input.userId)))
    throw notFound(proposalMessages.notCollaborator);
  await touchProposal(work.tx, proposal.id, work.actor.id, work.now);
  const before = collaborators.map((c) => c.id);
  await work.audit({
    action: 'proposal.remove_collaborator',
    entityId: proposal.id,
    before: { collaboratorIds: before },
    after: { collaboratorIds: before.filter((id) => id !== input.userId) },
  });
}

// --- The lock ----------------------------------------------------------------------------

/**
 * GET /lock/{id}/: takes or renews the lease for a caller who may edit (whoever holds it
 * now), and tells everyone who sees the proposal who holds it. Not a change to the
 * proposal: no audit row, and lastModified stays.
 */
export async function lockProposal(work: Work, id: number): Promise<LockState> {
  const { resource } = await loadFor(work, 'proposal.view', id);
  if (decide('proposal.lock', work.actor, resource, work.now) === true)
    await takeLock(work.tx, id, work.actor.id, work.now);
  return presentLock(await currentLock(work.tx, id, work.now));
}

/** DELETE /lock/{id}/: lets go of the caller's own lease; anyone else's stays. */
export async function unlockProposal(work: Work, id: number): Promise<void> {
  await loadFor(work, 'proposal.view', id);
  await releaseLock(work.tx, id, work.actor.id);
}
