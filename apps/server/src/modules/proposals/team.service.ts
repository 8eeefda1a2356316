import {
  proposalErrorCodes,
  type Collaborator,
  type CollaboratorAdd,
  type CollaboratorRemove,
  type LockState,
} from '@merit/contract';
import { decide, editorOf, lockedRefusal, proposalMessages } from '@merit/domain';
import { authorize, refusalError } from '../../platform/http/authorize.js';
import { conflict, HttpError, invalid, notFound } from '../../platform/http/http-errors.js';
import { enqueueMail } from '../../platform/io/mail-job.js';
import type { ReadWork, Work } from '../../platform/data/work.js';
import { queueDetection } from '../conflicts/conflicts.queries.js';
import { deleteReviewer, reviewOf } from '../reviews/reviews.queries.js';
import { collaboratorAddedMail, reviewerBecameCollaboratorMail } from './proposals.mails.js';
import { presentLock } from './proposals.presenter.js';
import { editingFactsOf, touchProposal } from './proposals.queries.js';
import {
  chairsOf,
  currentLock,
  deleteCollaborator,
  insertCollaborator,
  pollLock,
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

/**
 * POST /collaborators/: the author adds the person whose collaborator hash this is. One
 * of the proposal's reviewers who has saved a review of it is refused: they would read
 * the proposal as its own people while their review counts. One who has not is taken off
 * the reviewers in the same change, and the committee's chairs are told, so an author
 * never takes a reviewer off their proposal without the chairs knowing.
 */
export async function addCollaborator(
  work: Work,
  input: CollaboratorAdd,
  publicUrl: string,
): Promise<Collaborator> {
  const loaded = await loadFor(work, 'proposal.manageCollaborators', input.proposalId, true);
  const { proposal, collaborators, resource } = loaded;
  const person = await userByHash(work.tx, input.hash.trim());
  if (!person) throw invalid({ hash: [proposalMessages.hashUnknown] });
  if (person.id === proposal.authorId) throw invalid({ hash: [proposalMessages.hashOwn] });
  if (collaborators.some((c) => c.id === person.id))
    throw invalid({ hash: [proposalMessages.alreadyCollaborator] });
  if (await reviewOf(work.tx, proposal.id, person.id))
    throw conflict(proposalMessages.reviewerCollaborator);
  const facts = factsOf(loaded, publicUrl);
  if (resource.reviewerIds.includes(person.id)) {
    await deleteReviewer(work.tx, proposal.id, person.id);
    await work.audit({
      action: 'proposal.remove_reviewer',
      entityId: proposal.id,
      subjectUserId: person.id,
      before: { reviewerIds: resource.reviewerIds },
      after: { reviewerIds: resource.reviewerIds.filter((id) => id !== person.id) },
    });
    for (const chair of await chairsOf(work.tx, loaded.call.committeeId, work.now, proposal.id))
      await enqueueMail(
        work,
        reviewerBecameCollaboratorMail(chair, facts, person.name, loaded.author.name),
      );
  }
  await insertCollaborator(work.tx, proposal.id, person.id);
  await touchProposal(work.tx, proposal.id, work.now);
  const before = collaborators.map((c) => c.id);
  await work.audit({
    action: 'proposal.add_collaborator',
    entityId: proposal.id,
    subjectUserId: person.id,
    before: { collaboratorIds: before },
    after: { collaboratorIds: [...before, person.id] },
  });
  await queueDetection(work, { callId: proposal.callId });
  await enqueueMail(work, collaboratorAddedMail(person, facts, loaded.author.name));
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
  await touchProposal(work.tx, proposal.id, work.now);
  const before = collaborators.map((c) => c.id);
  await work.audit({
    action: 'proposal.remove_collaborator',
    entityId: proposal.id,
    subjectUserId: input.userId,
    before: { collaboratorIds: before },
    after: { collaboratorIds: before.filter((id) => id !== input.userId) },
  });
  await queueDetection(work, { callId: proposal.callId });
}

// --- The lock ----------------------------------------------------------------------------

/** The proposal's editing facts for the lock, when the caller may see it (else 404). */
async function lockFactsOf(work: ReadWork, id: number) {
  const facts = await editingFactsOf(work.tx, work.actor, id);
  if (!facts) throw notFound(proposalMessages.notFound);
  authorize(work.actor, 'proposal.view', facts, work.now);
  return facts;
}

/**
 * GET /lock/{id}/: takes or renews the lease for the caller's editor (session and tab)
 * when they may edit and no other editor holds a live lease, and tells everyone who sees
 * the proposal who holds it, whether it is theirs, and if not why. The editor asks every
 * few seconds, so this costs two statements: the facts the lock rule reads (one row with
 * its call, collaborators and extensions; the caller's roles came with their token), and
 * one on the lock table that takes or renews the lease and reads its holder. Not a
 * change to the proposal: no audit row, and lastModified stays.
 */
export async function lockProposal(work: ReadWork, id: number): Promise<LockState> {
  const facts = await lockFactsOf(work, id);
  const lock =
    decide('proposal.lock', work.actor, facts, work.now) === true
      ? await pollLock(work.tx, id, editorOf(work.actor), work.now)
      : await currentLock(work.tx, id, work.now);
  return presentLock(work.actor, { ...facts, lock: lock ?? null }, work.now);
}

/** DELETE /lock/{id}/: lets go of the caller's own lease (this tab's); any other stays. */
export async function unlockProposal(work: Work, id: number): Promise<void> {
  await lockFactsOf(work, id);
  await releaseLock(work.tx, id, editorOf(work.actor));
}

/**
 * A save or an entry's delete holds the lock for the editor making it: taken when
 * nobody holds it (as GET /lock/ would), renewed when theirs, so a busy editor keeps it
 * between polls. Another editor's live lease (another person's, or another tab of the
 * caller's) is 409 `locked`; the rule checked it as the proposal loaded, and this closes
 * the gap to a poll that took it since.
 */
export async function holdLock(work: Work, proposalId: number): Promise<void> {
  const editor = editorOf(work.actor);
  // A second try only when the lease that refused the first ran out in between.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (await takeLock(work.tx, proposalId, editor, work.now)) return;
    const held = await currentLock(work.tx, proposalId, work.now);
    if (held) throw refusalError(lockedRefusal(work.actor, held));
  }
  throw new HttpError(409, proposalErrorCodes.locked, proposalMessages.locked('Someone'));
}
