import {
  type CommitteeActor,
  type ConflictFacts,
  type ProposalResource,
  type Score,
  type TimeWindow,
} from '@merit/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import {
  calls,
  conflictDeclarations,
  conflicts,
  extensions,
  proposalCollaborators,
  proposalLocks,
  proposalReviewers,
  proposalTypes,
  proposals,
  reviews,
  users,
} from '../../db/schema.js';
import type { CallRow } from '../calls/calls.queries.js';
import { personNameSql, runNamed } from '../../platform/data/sql.js';
import type { MailRows } from '../../platform/io/mail-job.js';
import { overriddenSql } from '../conflicts/conflicts.queries.js';
import {
  reviewersJsonSql,
  reviewScoresJsonSql,
  type ReviewerName,
} from '../reviews/reviews.queries.js';
import { ownSql } from './list-scope.queries.js';
import { reviewedSql } from './reviewed.queries.js';
import type { TypeForm, PageEntry } from './answers.queries.js';

/*
 * The proposals table: the one loader every proposal route goes through, creating and
 * touching a proposal, its state, deleting it, the caller's own proposals, and who a
 * call's decisions go to.
 */

export type ProposalRow = typeof proposals.$inferSelect;

/** Someone on a proposal, as it names them. */
export interface Person {
  id: number;
  name: string;
  email: string;
}

const nameOf = personNameSql;

const lockHolders = alias(users, 'lock_holders');
const collaboratorUsers = alias(users, 'collaborator_users');
/** Who saved each answer last, in the page's subquery. */
const savers = alias(users, 'savers');

/** Whether anyone has saved a review of the proposal in the FROM as `proposals`. */
const hasReviewsSql = sql<boolean>`exists (select 1 from "reviews" r where r."proposal_id" = "proposals"."id")`;

/** Everything the rules and the detail need about one proposal, as one caller sees it. */
export interface LoadedProposal {
  proposal: ProposalRow;
  call: CallRow;
  typeName: string;
  author: Person;
  collaborators: Person[];
  /** Submitted and fully reviewed (ARCHITECTURE.md "Reviewed"); who may know is the presenter's. */
  reviewed: boolean;
  /** The proposal as `proposalPolicy` reads it for this caller. */
  resource: ProposalResource;
}

/** What a proposal's page shows besides the proposal: see `loadProposal`'s `page`. */
export interface ProposalPage {
  forms: TypeForm[];
  entries: PageEntry[];
  reviewers: ReviewerName[];
  reviews: { score: number | null; scores: Score[] }[];
}

/**
 * The page's parts as JSON subqueries of the proposal in the FROM: its type's proposal
 * forms (as `proposalFormsOf`), its saved answers (as `responsesOf`), its reviewers and
 * review scores (whom they reach is the caller's to decide). Null unless asked for.
 */
function pageSql(wanted: boolean) {
  if (!wanted) {
    const none = sql<null>`null`;
    return { pageForms: none, pageEntries: none, pageReviewers: none, pageReviews: none };
  }
  return {
    pageForms: sql<TypeForm[]>`(
      select coalesce(json_agg(json_build_object('id', f."id", 'type', n."type")
        order by t."position"), '[]'::json)
      from "proposal_type_forms" t
      inner join "forms" f on f."id" = t."form_id"
      inner join "form_names" n on n."id" = f."form_name_id"
      where t."proposal_type_id" = ${proposals.proposalTypeId} and t."kind" = 'proposal')`,
    pageEntries: sql<PageEntry[]>`(
      select coalesce(json_agg(json_build_object('formId', e."form_id",
          'index', e."entry_index", 'data', e."data", 'entryId', e."entry_id",
          'version', e."version", 'savedAt', e."updated_at", 'savedBy', ${nameOf(savers)})
        order by e."form_id", e."entry_index"), '[]'::json)
      from "proposal_responses" e
      left join "users" "savers" on ${savers.id} = e."updated_by"
      where e."proposal_id" = ${proposals.id})`,
    pageReviewers: reviewersJsonSql(proposals.id),
    pageReviews: reviewScoresJsonSql(proposals.id),
  };
}

/**
 * The caller's conflict of interest with the proposal in the FROM (any state), and whether
 * they have answered its conflict declaration: what the conflict rules read of them.
 */
const actorConflictSql = (actor: CommitteeActor) => ({
  actorConflict: sql<ConflictFacts | null>`(
    select json_build_object('type', c."type", 'source', c."source", 'state', c."state",
      'pinned', c."pinned", 'overridden', ${overriddenSql})
    from ${conflicts} c
    where c."proposal_id" = ${proposals.id} and c."user_id" = ${actor.id}::int)`,
  actorDeclared: sql<boolean>`exists (
    select 1 from ${conflictDeclarations} d
    where d."proposal_id" = ${proposals.id} and d."user_id" = ${actor.id}::int)`,
});

type WindowRow = { userId: number; commencement: string; termination: string };

/** The extension windows on its call of the author and the actor, for the proposal in the FROM. */
const windowsSql = (actor: CommitteeActor) => sql<WindowRow[]>`(
  select coalesce(json_agg(json_build_object('userId', ${extensions.userId},
      'commencement', ${extensions.commencement},
      'termination', ${extensions.termination})), '[]'::json)
  from ${extensions}
  where ${extensions.callId} = ${proposals.callId}
    and ${extensions.userId} in (${proposals.authorId}, ${actor.id}::int))`;

/** Each person's windows of `windowsSql`'s rows. */
function windowsOfRows(rows: readonly WindowRow[]) {
  const windows = rows.map((w) => ({
    userId: w.userId,
    commencement: new Date(w.commencement),
    termination: new Date(w.termination),
  }));
  return (userId: number): TimeWindow[] => windows.filter((w) => w.userId === userId);
}

/**
 * The one loader every proposal route goes through: the proposal with its call, type,
 * author, collaborators, lock (its editor and holder's name), the author's and the
 * caller's extensions, and whether reviews exist. With `forUpdate`, the proposal row stays
 * locked until the transaction ends, so the checks made on it hold for the change that
 * follows (two saves, a save and a submit, take turns). NO KEY UPDATE, not UPDATE: it
 * still makes writers take turns, but lets a lock poll's insert into `proposal_locks`
 * take its foreign key's share lock meanwhile, instead of the poll and a save in another
 * process waiting on each other's rows (a deadlock, seen in the spike benchmark). With `page`, the same query also reads what the
 * proposal's page shows (`ProposalPage`). Undefined when there is no such proposal.
 */
export async function loadProposal(
  tx: Tx,
  actor: CommitteeActor,
  id: number,
  options: { forUpdate?: boolean; page?: boolean } = {},
): Promise<(LoadedProposal & { page?: ProposalPage }) | undefined> {
  // One query, its people and windows as JSON: every proposal read and change starts
  // here, and under load each round trip to the database costs more than the SQL in it.
  const query = tx
    .select({
      proposal: proposals,
      call: calls,
      typeName: proposalTypes.name,
      authorName: nameOf(users),
      authorEmail: users.email,
      lockHolderId: proposalLocks.holderId,
      lockTokenId: proposalLocks.tokenId,
      lockTabId: proposalLocks.tabId,
      lockExpiresAt: proposalLocks.expiresAt,
      lockHolderName: nameOf(lockHolders),
      hasReviews: hasReviewsSql,
      reviewed: reviewedSql,
      collaborators: sql<Person[]>`(
        select coalesce(json_agg(json_build_object('id', ${collaboratorUsers.id},
            'name', ${nameOf(collaboratorUsers)}, 'email', ${collaboratorUsers.email})
          order by ${collaboratorUsers.lastName}, ${collaboratorUsers.firstName},
            ${collaboratorUsers.id}), '[]'::json)
        from ${proposalCollaborators}
        inner join "users" "collaborator_users"
          on ${collaboratorUsers.id} = ${proposalCollaborators.userId}
        where ${proposalCollaborators.proposalId} = ${proposals.id})`,
      windows: windowsSql(actor),
      reviewerIds: sql<number[]>`(
        select coalesce(json_agg(${proposalReviewers.userId} order by ${proposalReviewers.userId}),
          '[]'::json)
        from ${proposalReviewers}
        where ${proposalReviewers.proposalId} = ${proposals.id})`,
      actorHasReview: sql<boolean>`exists (
        select 1 from ${reviews}
        where ${reviews.proposalId} = ${proposals.id} and ${reviews.reviewerId} = ${actor.id}::int)`,
      ...actorConflictSql(actor),
      ...pageSql(options.page ?? false),
    })
    .from(proposals)
    .innerJoin(calls, eq(calls.id, proposals.callId))
    .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
    .innerJoin(users, eq(users.id, proposals.authorId))
    .leftJoin(proposalLocks, eq(proposalLocks.proposalId, proposals.id))
    .leftJoin(lockHolders, eq(lockHolders.id, proposalLocks.holderId))
    .where(eq(proposals.id, id));
  const shape = `${options.forUpdate ? '_for_update' : ''}${options.page ? '_page' : ''}`;
  const [row] = await runNamed(
    `load_proposal${shape}`,
    options.forUpdate ? query.for('no key update', { of: proposals }) : query,
  );
  if (!row) return undefined;
  const { proposal, call, collaborators } = row;
  const windowsOf = windowsOfRows(row.windows);
  const { lockHolderId, lockTokenId, lockTabId, lockExpiresAt } = row;
  return {
    proposal,
    call,
    typeName: row.typeName,
    author: { id: proposal.authorId, name: row.authorName, email: row.authorEmail },
    collaborators,
    reviewed: Boolean(row.reviewed),
    resource: {
      call,
      authorId: proposal.authorId,
      collaboratorIds: collaborators.map((c) => c.id),
      stateVal: proposal.stateVal,
      authorExtensions: windowsOf(proposal.authorId),
      actorExtensions: windowsOf(actor.id),
      lock:
        lockHolderId !== null && lockExpiresAt !== null
          ? {
              editor: { userId: lockHolderId, tokenId: lockTokenId ?? 0, tabId: lockTabId ?? '' },
              holderName: row.lockHolderName ?? '',
              expiresAt: lockExpiresAt,
            }
          : null,
      hasReviews: Boolean(row.hasReviews),
      reviewerIds: row.reviewerIds,
      actorHasReview: Boolean(row.actorHasReview),
      actorConflict: row.actorConflict,
      actorDeclared: Boolean(row.actorDeclared),
    },
    ...(options.page
      ? {
          page: {
            forms: row.pageForms ?? [],
            entries: row.pageEntries ?? [],
            reviewers: row.pageReviewers ?? [],
            reviews: row.pageReviews ?? [],
          },
        }
      : {}),
  };
}

/**
 * What the editing lock's rule (`proposal.lock`, and `proposal.view` before it) reads of a
 * proposal, and nothing more: the editor's poll asks every few seconds, so it reads one
 * row with its call, its collaborators' ids and two people's extensions, not the whole
 * proposal. Its lock and reviews are left empty: the lock rule reads neither.
 */
export async function editingFactsOf(
  tx: Tx,
  actor: CommitteeActor,
  id: number,
): Promise<ProposalResource | undefined> {
  const [row] = await runNamed(
    'editing_facts',
    tx
      .select({
        authorId: proposals.authorId,
        stateVal: proposals.stateVal,
        call: calls,
        collaboratorIds: sql<number[]>`(
          select coalesce(json_agg(${proposalCollaborators.userId}), '[]'::json)
          from ${proposalCollaborators}
          where ${proposalCollaborators.proposalId} = ${proposals.id})`,
        windows: windowsSql(actor),
        ...actorConflictSql(actor),
      })
      .from(proposals)
      .innerJoin(calls, eq(calls.id, proposals.callId))
      .where(eq(proposals.id, id)),
  );
  if (!row) return undefined;
  const windowsOf = windowsOfRows(row.windows);
  return {
    call: row.call,
    authorId: row.authorId,
    collaboratorIds: row.collaboratorIds,
    stateVal: row.stateVal,
    authorExtensions: windowsOf(row.authorId),
    actorExtensions: windowsOf(actor.id),
    lock: null,
    hasReviews: false,
    reviewerIds: [],
    actorHasReview: false,
    actorConflict: row.actorConflict,
    actorDeclared: Boolean(row.actorDeclared),
  };
}

/**
 * The call row, shared-locked until the transaction ends: a proposal created under it
 * sees the call's types and forms as they are, and a chair's edit of the call (which
 * locks it FOR UPDATE) waits until the proposal exists, then finds its type pinned.
 */
export async function shareCall(tx: Tx, id: number): Promise<CallRow | undefined> {
  const [row] = await tx.select().from(calls).where(eq(calls.id, id)).for('share');
  return row;
}

export async function typeOfCall(tx: Tx, callId: number, typeId: number) {
  const [row] = await tx
    .select({ id: proposalTypes.id })
    .from(proposalTypes)
    .where(and(eq(proposalTypes.id, typeId), eq(proposalTypes.callId, callId)));
  return row;
}

export async function insertProposal(
  tx: Tx,
  values: { callId: number; proposalTypeId: number; authorId: number; name: string; now: Date },
): Promise<ProposalRow> {
  const { now, ...rest } = values;
  const [row] = await tx
    .insert(proposals)
    .values({ ...rest, stateVal: 0, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

/**
 * Marks a change to the proposal (lastModified): every change to the proposal, its
 * answers or its people moves it. (A save renews the editing lock's lease itself, in the
 * lock's table: `takeLock`.)
 */
export async function touchProposal(
  tx: Tx,
  id: number,
  now: Date,
  changes: { name?: string } = {},
) {
  await runNamed(
    changes.name === undefined ? 'touch_proposal' : 'touch_proposal_name',
    tx
      .update(proposals)
      .set({ ...changes, updatedAt: now })
      .where(eq(proposals.id, id)),
  );
}

// --- State ------------------------------------------------------------------------------

/**
 * Moves the proposal from state `from` to `to`, only if it is still in `from`: of two
 * submits at the same moment one moves it and the other finds nothing to move.
 */
export async function changeStateVal(
  tx: Tx,
  id: number,
  from: number,
  to: number,
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .update(proposals)
    .set({ stateVal: to, updatedAt: now })
    .where(and(eq(proposals.id, id), eq(proposals.stateVal, from)))
    .returning({ id: proposals.id });
  return rows.length > 0;
}

export async function deleteProposalRow(tx: Tx, id: number) {
  await tx.delete(proposals).where(eq(proposals.id, id));
}

/** The caller's own proposals, as author or collaborator, across calls, newest change first. */
export async function myProposals(tx: Tx, actorId: number) {
  return tx
    .select({
      id: proposals.id,
      callId: proposals.callId,
      callName: calls.name,
      name: proposals.name,
      proposalTypeName: proposalTypes.name,
      stateVal: proposals.stateVal,
      updatedAt: proposals.updatedAt,
      authorId: proposals.authorId,
    })
    .from(proposals)
    .innerJoin(calls, eq(calls.id, proposals.callId))
    .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
    .where(ownSql(actorId))
    .orderBy(desc(proposals.updatedAt), desc(proposals.id));
}

/**
 * Everyone a call's decisions go to when it closes: the author and each active
 * collaborator of every submitted proposal, one row per person and proposal (authors
 * first, by proposal; then collaborators), as the text columns of the mail to them:
 * their address, the name they are greeted by (first name, else username), and the
 * proposal's name, type and id. A query, so the mails are queued in one statement.
 */
export function submittedTeamsMailRows(
  callId: number,
): MailRows<'email' | 'name' | 'proposalName' | 'typeName' | 'proposalId'> {
  const submitted = sql`p."call_id" = ${callId} and p."state_val" >= 1`;
  return {
    columns: ['email', 'name', 'proposalName', 'typeName', 'proposalId'],
    query: sql`
      select u."email" as "email",
        coalesce(nullif(u."first_name", ''), u."username") as "name",
        p."name" as "proposalName", pt."name" as "typeName", p."id"::text as "proposalId"
      from (
        select p."id" as "proposal_id", p."author_id" as "user_id", 0 as "collaborator"
        from ${proposals} p where ${submitted}
        union all
        select pc."proposal_id", pc."user_id", 1
        from ${proposalCollaborators} pc join ${proposals} p on p."id" = pc."proposal_id"
        where ${submitted}
      ) as team
      join ${proposals} p on p."id" = team."proposal_id"
      join ${proposalTypes} pt on pt."id" = p."proposal_type_id"
      join ${users} u on u."id" = team."user_id"
      where u."is_active"
      order by team."collaborator", p."id", u."id"`,
  };
}

/**
 * The proposals of a call, or of one of its types with `typeId` (the chair's export of
 * one type): every read of the export chooses its rows by this.
 */
export const ofCall = (callId: number, typeId?: number) =>
  and(
    eq(proposals.callId, callId),
    typeId === undefined ? undefined : eq(proposals.proposalTypeId, typeId),
  );

/** The ids of the proposals of a call (of one of its types), as a subquery. */
export const idsOfCall = (tx: Tx, callId: number, typeId?: number) =>
  tx.select({ id: proposals.id }).from(proposals).where(ofCall(callId, typeId));
