import type { AccountDeletionRequest } from '@merit/contract';
import {
  accountDeletionMessages,
  anonymisedAccount,
  deletionConfirmationOf,
  isDeletedAccountEmail,
  leavesNoActiveAdmin,
  PROPOSAL_STATE,
} from '@merit/domain';
import { and, eq, inArray, isNotNull, notExists, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  auditLog,
  authTokens,
  committeeRoles,
  downloadTickets,
  emailConfirmations,
  extensions,
  loginCodes,
  loginThrottle,
  oidcStates,
  passwordResets,
  proposalCollaborators,
  proposalFiles,
  proposalLocks,
  proposalReviewers,
  proposals,
  reviews,
  securityEvents,
  securityKeyChallenges,
  securityKeys,
  twoFactorRecoveryCodes,
  twoFactorTickets,
  userIdentities,
  users,
  userTwoFactor,
} from '../../db/schema.js';
import { DELETE_STORED_FILES_JOB, type DeleteStoredFiles } from '../../platform/io/file-storage.js';
import { conflict, invalid } from '../../platform/http/http-errors.js';
import {
  admitSecondStepAttempt,
  type LoginAttempt,
} from '../../platform/security/login-throttle.js';
import { enqueueMail } from '../../platform/io/mail-job.js';
import { verifyPassword } from '../../platform/security/passwords.js';
import type { Work } from '../../platform/data/work.js';
import { accountDeletedMail } from './accounts.mails.js';
import { renewUserHash } from './accounts.service.js';
import type { UserRow } from '../users/users.queries.js';

/**
 * Checks what the user typed to confirm before anything is locked: their password
 * (counted by the login throttle as a login of theirs from this address, so an open
 * session is no way round its limits) or, without a password, their username. Run
 * outside the deletion's transaction, so a wrong password stays counted.
 */
export async function checkDeletionConfirmation(
  db: Tx,
  user: UserRow,
  input: AccountDeletionRequest,
  address: string,
  now: Date,
  pepper: Uint8Array,
): Promise<void> {
  const confirmation = deletionConfirmationOf({
    isAaf: user.isAaf,
    hasPassword: user.passwordHash !== null,
  });
  if (confirmation === 'username') {
    const typed = input.username?.trim() ?? '';
    if (!typed) throw invalid({ username: [accountDeletionMessages.required] });
    if (typed.toLowerCase() !== user.username.toLowerCase())
      throw invalid({ username: [accountDeletionMessages.wrongUsername] });
    return;
  }
  if (!input.password) throw invalid({ password: [accountDeletionMessages.required] });
  const attempt: LoginAttempt = { username: user.username, address };
  await admitSecondStepAttempt(db, attempt, now);
  if (!(await verifyPassword(user.passwordHash, input.password, pepper)))
    throw invalid({ password: [accountDeletionMessages.wrongPassword] });
}

/** The user's drafts that only they have: no collaborators, no reviews. */
function ownDraftsOf(tx: Tx, userId: number) {
  return tx
    .select({ id: proposals.id })
    .from(proposals)
    .where(
      and(
        eq(proposals.authorId, userId),
        eq(proposals.stateVal, PROPOSAL_STATE.draft),
        notExists(
          tx
            .select({ one: sql`1` })
            .from(proposalCollaborators)
            .where(eq(proposalCollaborators.proposalId, proposals.id)),
        ),
        notExists(
          tx
            .select({ one: sql`1` })
            .from(reviews)
            .where(eq(reviews.proposalId, proposals.id)),
        ),
      ),
    )
    .for('update');
}

export interface AccountDeletion {
  /** The address the account had, for the notice; null when it had none to write to. */
  oldEmail: string | null;
  draftsDeleted: number;
}

/**
 * Deletes the caller's account by the rules of @merit/domain account-deletion.ts, in one
 * transaction: refused while they are the last active admin; their own drafts deleted
 * (their files' bytes by a job once this commits); everything that only served them to
 * log in, be reached or take part deleted; the account row anonymised, so the submitted
 * proposals, shared drafts and reviews committees depend on keep pointing at it.
 *
 * `checkedPasswordHash` is the hash the confirmation was checked against: a password changed
 * meanwhile (in another session) means the check no longer holds, and nothing happens.
 */
export async function deleteAccount(
  work: Work,
  checkedPasswordHash: string | null,
  publicUrl: string,
): Promise<AccountDeletion> {
  const { tx, now } = work;
  const userId = work.actor.id;
  // Locking every active admin's row, as the admin flags do (user-admin.service.ts), makes
  // two last admins deleting themselves at once take turns: the second sees the first gone.
  const activeAdmins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isAdmin, true), eq(users.isActive, true)))
    .for('update');
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!user || user.passwordHash !== checkedPasswordHash)
    throw invalid({ password: [accountDeletionMessages.wrongPassword] });
  if (leavesNoActiveAdmin(user, { isActive: false, isAdmin: false }, activeAdmins.length))
    throw conflict(accountDeletionMessages.lastActiveAdmin);

  // Drafts only the user works on go with their answers, saves and file rows (ON DELETE
  // CASCADE); the stored bytes are forgotten by the files job after the commit.
  const drafts = (await ownDraftsOf(tx, userId)).map((row) => row.id);
  if (drafts.length > 0) {
    const keys = await tx
      .select({ key: proposalFiles.storageKey })
      .from(proposalFiles)
      .where(inArray(proposalFiles.proposalId, drafts));
    await tx.delete(proposals).where(inArray(proposals.id, drafts));
    if (keys.length > 0)
      await work.enqueue(DELETE_STORED_FILES_JOB, {
        keys: keys.map((row) => row.key),
      } satisfies DeleteStoredFiles);
  }

  // Taking part: collaborations, committee roles, extensions, and assignments not yet
  // reviewed. An assignment with the user's review stays beside that review.
  await tx.delete(proposalCollaborators).where(eq(proposalCollaborators.userId, userId));
  await tx.delete(committeeRoles).where(eq(committeeRoles.userId, userId));
  await tx.delete(extensions).where(eq(extensions.userId, userId));
  await tx.delete(proposalReviewers).where(
    and(
      eq(proposalReviewers.userId, userId),
      notExists(
        tx
          .select({ one: sql`1` })
          .from(reviews)
          .where(
            and(
              eq(reviews.proposalId, proposalReviewers.proposalId),
              eq(reviews.reviewerId, userId),
            ),
          ),
      ),
    ),
  );
  await tx.delete(proposalLocks).where(eq(proposalLocks.holderId, userId));

  // Logging in and being reached: sessions, federated logins, two-step keys and codes,
  // security keys, pending links, tickets and requests of every kind.
  for (const [table, column] of [
    [authTokens, authTokens.userId],
    [userIdentities, userIdentities.userId],
    [securityKeyChallenges, securityKeyChallenges.userId],
    [securityKeys, securityKeys.userId],
    [twoFactorRecoveryCodes, twoFactorRecoveryCodes.userId],
    [twoFactorTickets, twoFactorTickets.userId],
    [userTwoFactor, userTwoFactor.userId],
    [emailConfirmations, emailConfirmations.userId],
    [passwordResets, passwordResets.userId],
    [loginCodes, loginCodes.userId],
    [downloadTickets, downloadTickets.userId],
    [oidcStates, oidcStates.linkUserId],
  ] as const) {
    await tx.delete(table).where(eq(column, userId));
  }
  // The login counters are keyed by the username (login-throttle.ts); it is personal data
  // and about to be free for someone else, who should not inherit its count.
  const name = user.username.toLowerCase();
  await tx
    .delete(loginThrottle)
    .where(
      or(
        eq(loginThrottle.bucket, `user:${name}`),
        sql`starts_with(${loginThrottle.bucket}, ${`pair:${name} `})`,
      ),
    );

  await tx
    .update(users)
    .set({ ...anonymisedAccount(userId), updatedAt: now })
    .where(eq(users.id, userId));
  // A new collaborator hash, so the old one (which people were given) names nobody.
  await renewUserHash(work);

  // No personal data in the log: the id, and how much went.
  await work.audit({
    action: 'user.delete',
    entityId: userId,
    after: { draftsDeleted: drafts.length },
  });
  // No address of a deleted person stays (issue 28): their audit rows (this one too) and
  // security events forget where they came from; the append-only audit log allows that.
  await tx
    .update(auditLog)
    .set({ address: null })
    .where(and(eq(auditLog.actorId, userId), isNotNull(auditLog.address)));
  await tx
    .update(securityEvents)
    .set({ address: null })
    .where(and(eq(securityEvents.userId, userId), isNotNull(securityEvents.address)));
  const oldEmail = isDeletedAccountEmail(user.email) ? null : user.email;
  if (oldEmail)
    await enqueueMail(
      work,
      accountDeletedMail(oldEmail, user.firstName || user.username, `${publicUrl}/`),
    );
  return { oldEmail, draftsDeleted: drafts.length };
}
