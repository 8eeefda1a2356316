import type { UserDataExport } from '@merit/contract';
import type { CommitteeRoleName, Gender } from '@merit/domain';
import { asc, eq, inArray, or } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  authTokens,
  calls,
  formNames,
  forms,
  proposalCollaborators,
  proposalFiles,
  proposalResponses,
  proposals,
  reviewResponses,
  reviews,
  userIdentities,
  securityEvents,
} from '../../db/schema.js';
import type { ReadWork } from '../../platform/data/work.js';
import { pendingEmail } from '../accounts/accounts.queries.js';
import { rolesOfUser } from '../roles/roles.queries.js';
import { bidsOfUser, ownCapsOfUser } from '../assignment/assignment.queries.js';
import { loadSelf } from '../users/users.queries.js';

const iso = (date: Date) => date.toISOString();

/** What the file says it is, for whoever opens it later. */
const ABOUT =
  'The personal data Merit holds about you: your account, committee roles with your expertise, your bids and caps on reviewing, the proposals you wrote or collaborate on (their answers and the names of their files), the reviews you wrote, and your logins. Other people’s reviews of your proposals and who wrote them are not included.';

const SECURITY_EVENTS_NOTE =
  'Merit keeps security events (logins, failed logins, refused requests, password and email changes, reads of reviews, downloads) for 365 days: yours are listed here. It writes them to the server’s log too; ask the operator of this installation for that.';

const formName = { name: formNames.name, version: forms.version };

/** The caller's proposals (as author or collaborator) with their answers and file names. */
async function proposalsOf(tx: Tx, userId: number): Promise<UserDataExport['proposals']> {
  const collaborating = tx
    .select({ id: proposalCollaborators.proposalId })
    .from(proposalCollaborators)
    .where(eq(proposalCollaborators.userId, userId));
  const rows = await tx
    .select({
      id: proposals.id,
      name: proposals.name,
      authorId: proposals.authorId,
      stateVal: proposals.stateVal,
      createdAt: proposals.createdAt,
      updatedAt: proposals.updatedAt,
      decisionSummary: proposals.decisionSummary,
      callId: calls.id,
      callName: calls.name,
      callClosed: calls.closed,
    })
    .from(proposals)
    .innerJoin(calls, eq(calls.id, proposals.callId))
    .where(or(eq(proposals.authorId, userId), inArray(proposals.id, collaborating)))
    .orderBy(asc(proposals.id));
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [answers, files] = await Promise.all([
    tx
      .select({
        proposalId: proposalResponses.proposalId,
        ...formName,
        entryIndex: proposalResponses.entryIndex,
        data: proposalResponses.data,
        updatedAt: proposalResponses.updatedAt,
      })
      .from(proposalResponses)
      .innerJoin(forms, eq(forms.id, proposalResponses.formId))
      .innerJoin(formNames, eq(formNames.id, forms.formNameId))
      .where(inArray(proposalResponses.proposalId, ids))
      .orderBy(
        asc(proposalResponses.proposalId),
        asc(formNames.name),
        asc(proposalResponses.entryIndex),
      ),
    tx
      .select({
        proposalId: proposalFiles.proposalId,
        name: proposalFiles.name,
        size: proposalFiles.size,
        contentType: proposalFiles.contentType,
        uploadedAt: proposalFiles.uploadedAt,
      })
      .from(proposalFiles)
      .where(inArray(proposalFiles.proposalId, ids))
      .orderBy(asc(proposalFiles.id)),
  ]);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    call: { id: row.callId, name: row.callName },
    role: row.authorId === userId ? 'author' : 'collaborator',
    state: row.stateVal === 0 ? 'Draft' : 'Submitted',
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    // Authors read the decision once the call is closed, as on the proposal's page
    // (proposal.policy.ts, mayViewDecision), whatever else they are.
    decision_summary: row.callClosed ? row.decisionSummary : null,
    answers: answers
      .filter((answer) => answer.proposalId === row.id)
      .map((answer) => ({
        form: { name: answer.name, version: answer.version },
        entry_index: answer.entryIndex,
        data: answer.data,
        updated_at: iso(answer.updatedAt),
      })),
    files: files
      .filter((file) => file.proposalId === row.id)
      .map((file) => ({
        name: file.name,
        size: file.size,
        content_type: file.contentType,
        uploaded_at: iso(file.uploadedAt),
      })),
  }));
}

/** The reviews the caller wrote, with their answers; never anyone else's. */
async function reviewsBy(tx: Tx, userId: number): Promise<UserDataExport['reviews']> {
  const rows = await tx
    .select({
      id: reviews.id,
      score: reviews.score,
      scores: reviews.scores,
      createdAt: reviews.createdAt,
      updatedAt: reviews.updatedAt,
      proposalId: proposals.id,
      proposalName: proposals.name,
      callId: calls.id,
      callName: calls.name,
    })
    .from(reviews)
    .innerJoin(proposals, eq(proposals.id, reviews.proposalId))
    .innerJoin(calls, eq(calls.id, proposals.callId))
    .where(eq(reviews.reviewerId, userId))
    .orderBy(asc(reviews.id));
  if (rows.length === 0) return [];
  const answers = await tx
    .select({
      reviewId: reviewResponses.reviewId,
      ...formName,
      data: reviewResponses.data,
      updatedAt: reviewResponses.updatedAt,
    })
    .from(reviewResponses)
    .innerJoin(forms, eq(forms.id, reviewResponses.formId))
    .innerJoin(formNames, eq(formNames.id, forms.formNameId))
    .where(
      inArray(
        reviewResponses.reviewId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(reviewResponses.reviewId), asc(formNames.name));
  return rows.map((row) => ({
    id: row.id,
    proposal: { id: row.proposalId, name: row.proposalName },
    call: { id: row.callId, name: row.callName },
    score: row.score,
    scores: row.scores,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    answers: answers
      .filter((answer) => answer.reviewId === row.id)
      .map((answer) => ({
        form: { name: answer.name, version: answer.version },
        data: answer.data,
        updated_at: iso(answer.updatedAt),
      })),
  }));
}

/**
 * Everything Merit's database holds about the caller (ASVS V8.3.2), read in one
 * transaction so the file is one consistent picture.
 */
export async function userDataOf({ tx, actor, now }: ReadWork): Promise<UserDataExport> {
  const user = await loadSelf(tx, actor.id);
  const [pending, identities, roles, ownProposals, ownReviews, sessions, bids, caps, events] =
    await Promise.all([
      pendingEmail(tx, user, now),
      tx
        .select({
          issuer: userIdentities.issuer,
          subject: userIdentities.subject,
          createdAt: userIdentities.createdAt,
        })
        .from(userIdentities)
        .where(eq(userIdentities.userId, user.id))
        .orderBy(asc(userIdentities.id)),
      rolesOfUser(tx, user.id),
      proposalsOf(tx, user.id),
      reviewsBy(tx, user.id),
      tx
        .select({
          createdAt: authTokens.createdAt,
          lastUsedAt: authTokens.lastUsedAt,
          revokedAt: authTokens.revokedAt,
        })
        .from(authTokens)
        .where(eq(authTokens.userId, user.id))
        .orderBy(asc(authTokens.id)),
      bidsOfUser(tx, user.id),
      ownCapsOfUser(tx, user.id),
      tx
        .select({
          at: securityEvents.at,
          event: securityEvents.event,
          address: securityEvents.address,
          details: securityEvents.details,
        })
        .from(securityEvents)
        .where(eq(securityEvents.userId, user.id))
        .orderBy(asc(securityEvents.at), asc(securityEvents.id)),
    ]);
  return {
    exported_at: iso(now),
    about: ABOUT,
    profile: {
      id: user.id,
      username: user.username,
      email: user.email,
      pending_email: pending,
      first_name: user.firstName,
      last_name: user.lastName,
      institution: user.institution,
      gender: user.gender as Gender | null,
      phone_number: user.phoneNumber,
      is_student: user.isStudent,
      is_admin: user.isAdmin,
      is_active: user.isActive,
      email_verified: user.emailVerified,
      registration_complete: user.registrationComplete,
      is_aaf: user.isAaf,
      hash: user.hash,
      privacy_consent_at: user.privacyConsentAt ? iso(user.privacyConsentAt) : null,
      recent_collaborators: user.recentCollaborators,
      created_at: iso(user.createdAt),
      updated_at: iso(user.updatedAt),
    },
    federated_logins: identities.map((identity) => ({
      issuer: identity.issuer,
      subject: identity.subject,
      linked_at: iso(identity.createdAt),
    })),
    roles: roles.map((role) => ({
      committee: { id: role.committeeId, name: role.committeeName },
      role: role.role as CommitteeRoleName,
      commencement: iso(role.commencement),
      termination: iso(role.termination),
      facilities: role.facilities,
      keywords: role.keywords,
    })),
    bids: bids.map((bid) => ({
      proposal: { id: bid.proposalId, name: bid.proposalName },
      call: { id: bid.callId, name: bid.callName },
      preference: bid.preference,
      at: iso(bid.at),
    })),
    caps: caps.map((cap) => ({ call: { id: cap.callId, name: cap.callName }, cap: cap.cap! })),
    proposals: ownProposals,
    reviews: ownReviews,
    sessions: sessions.map((session) => ({
      created_at: iso(session.createdAt),
      last_used_at: iso(session.lastUsedAt),
      ended_at: session.revokedAt ? iso(session.revokedAt) : null,
    })),
    security_events: {
      stored_here: true,
      note: SECURITY_EVENTS_NOTE,
      events: events.map((e) => ({
        at: iso(e.at),
        event: e.event,
        address: e.address,
        details: e.details,
      })),
    },
  };
}

/** `merit-data-<username>-<date>.json`, with anything a file name or header should not hold replaced. */
export function userDataFileName(username: string, now: Date): string {
  const safe = username.replace(/[^A-Za-z0-9._+@-]/g, '_');
  return `merit-data-${safe}-${iso(now).slice(0, 10)}.json`;
}
