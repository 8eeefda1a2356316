import type { CallDetail, CallSummary, Extension, ProposalType } from '@merit/contract';
import {
  abilitiesOf,
  callPolicy,
  myCallRoles,
  type CallResource,
  type CommitteeActor,
  type TimeWindow,
  personName,
} from '@merit/domain';
import { and, asc, desc, eq, exists, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { reviewedSql } from '../proposals/reviewed.queries.js';
import { rowsOf, unsavedReviewSql } from '../reminders/reminders.queries.js';
import {
  calls,
  committees,
  extensions,
  formNames,
  forms,
  proposalCollaborators,
  proposalReviewers,
  proposalTypeForms,
  proposalTypes,
  proposals,
  reviews,
  users,
} from '../../db/schema.js';

export type CallRow = typeof calls.$inferSelect;

const callColumns = {
  call: calls,
  committeeName: committees.name,
};

export type CallFilter = 'all' | 'open' | 'closed';

/** The extension windows `userId` has, per call. */
async function extensionsOf(
  db: Tx,
  userId: number,
  callIds: number[],
): Promise<Map<number, TimeWindow[]>> {
  const byCall = new Map<number, TimeWindow[]>();
  if (callIds.length === 0) return byCall;
  const rows = await db
    .select({
      callId: extensions.callId,
      commencement: extensions.commencement,
      termination: extensions.termination,
    })
    .from(extensions)
    .where(and(eq(extensions.userId, userId), inArray(extensions.callId, callIds)));
  for (const row of rows) byCall.set(row.callId, [...(byCall.get(row.callId) ?? []), row]);
  return byCall;
}

/** The calls in which `userId` is an author or a collaborator. */
async function proposalRolesOf(db: Tx, userId: number, callIds: number[]) {
  if (callIds.length === 0)
    return { authored: new Set<number>(), collaborating: new Set<number>() };
  const authored = await db
    .selectDistinct({ callId: proposals.callId })
    .from(proposals)
    .where(and(eq(proposals.authorId, userId), inArray(proposals.callId, callIds)));
  const collaborating = await db
    .selectDistinct({ callId: proposals.callId })
    .from(proposals)
    .innerJoin(proposalCollaborators, eq(proposalCollaborators.proposalId, proposals.id))
    .where(and(eq(proposalCollaborators.userId, userId), inArray(proposals.callId, callIds)));
  return {
    authored: new Set(authored.map((r) => r.callId)),
    collaborating: new Set(collaborating.map((r) => r.callId)),
  };
}

/** The call as the policy reads it, for an actor with these extension windows. */
export const callResource = (
  call: CallRow,
  actorExtensions: readonly TimeWindow[],
): CallResource => ({
  committeeId: call.committeeId,
  closed: call.closed,
  commencement: call.commencement,
  termination: call.termination,
  reviewCommencement: call.reviewCommencement,
  reviewTermination: call.reviewTermination,
  actorExtensions,
  biddingOpen: call.biddingOpen,
  decisionsReleasedAt: call.decisionsReleasedAt,
});

function summarise(
  row: { call: CallRow; committeeName: string },
  actor: CommitteeActor,
  ownExtensions: TimeWindow[],
  roles: { authored: Set<number>; collaborating: Set<number> },
  now: Date,
): CallSummary {
  const { call } = row;
  const resource = callResource(call, ownExtensions);
  return {
    id: call.id,
    name: call.name,
    committeeId: call.committeeId,
    committeeName: row.committeeName,
    commencement: call.commencement.toISOString(),
    termination: call.termination.toISOString(),
    reviewCommencement: call.reviewCommencement.toISOString(),
    reviewTermination: call.reviewTermination.toISOString(),
    isReviewOpen: call.isReviewOpen,
    closed: call.closed,
    myRoles: myCallRoles(
      actor,
      resource,
      { authored: roles.authored.has(call.id), collaborating: roles.collaborating.has(call.id) },
      now,
    ),
    abilities: abilitiesOf(callPolicy, actor, resource, now),
  };
}

/**
 * Calls for the lists, newest opening first. Every logged-in user sees every call;
 * "open" means not closed, whatever the dates (a chair closes a call to end it).
 */
export async function listCalls(
  db: Tx,
  actor: CommitteeActor,
  filter: CallFilter,
  now: Date,
): Promise<CallSummary[]> {
  const where = filter === 'all' ? undefined : eq(calls.closed, filter === 'closed');
  const rows = await db
    .select(callColumns)
    .from(calls)
    .innerJoin(committees, eq(committees.id, calls.committeeId))
    .where(where)
    .orderBy(desc(calls.commencement), desc(calls.id));
  const ids = rows.map((r) => r.call.id);
  const [own, roles] = await Promise.all([
    extensionsOf(db, actor.id, ids),
    proposalRolesOf(db, actor.id, ids),
  ]);
  return rows.map((row) => summarise(row, actor, own.get(row.call.id) ?? [], roles, now));
}

export async function findCall(
  db: Tx,
  id: number,
): Promise<{ call: CallRow; committeeName: string } | undefined> {
  const [row] = await db
    .select(callColumns)
    .from(calls)
    .innerJoin(committees, eq(committees.id, calls.committeeId))
    .where(eq(calls.id, id));
  return row;
}

/**
 * The call row, locked until the transaction ends: every write that checks the call's
 * state first (edit, close, extensions) loads it so, and concurrent writers take turns.
 */
export async function lockCall(tx: Tx, id: number): Promise<CallRow | undefined> {
  const [row] = await tx.select().from(calls).where(eq(calls.id, id)).for('update');
  return row;
}

/** The actor's own extension windows on one call. */
export async function extensionsOfActor(
  db: Tx,
  actorId: number,
  callId: number,
): Promise<TimeWindow[]> {
  return (await extensionsOf(db, actorId, [callId])).get(callId) ?? [];
}

/** The call's proposal types in order, each with its ordered forms and whether saved work pins them. */
export async function loadProposalTypes(db: Tx, callId: number): Promise<ProposalType[]> {
  const types = await db
    .select({
      id: proposalTypes.id,
      name: proposalTypes.name,
      hasProposals: exists(
        db
          .select({ one: sql`1` })
          .from(proposals)
          .where(eq(proposals.proposalTypeId, proposalTypes.id)),
      ),
      hasReviews: exists(
        db
          .select({ one: sql`1` })
          .from(reviews)
          .innerJoin(proposals, eq(proposals.id, reviews.proposalId))
          .where(eq(proposals.proposalTypeId, proposalTypes.id)),
      ),
    })
    .from(proposalTypes)
    .where(eq(proposalTypes.callId, callId))
    .orderBy(asc(proposalTypes.position), asc(proposalTypes.id));
  if (types.length === 0) return [];
  const links = await db
    .select({
      proposalTypeId: proposalTypeForms.proposalTypeId,
      kind: proposalTypeForms.kind,
      id: forms.id,
      name: forms.formNameId,
      display_name: formNames.displayName,
      type: formNames.type,
      version: forms.version,
    })
    .from(proposalTypeForms)
    .innerJoin(forms, eq(forms.id, proposalTypeForms.formId))
    .innerJoin(formNames, eq(formNames.id, forms.formNameId))
    .where(
      inArray(
        proposalTypeForms.proposalTypeId,
        types.map((t) => t.id),
      ),
    )
    .orderBy(asc(proposalTypeForms.position));
  return types.map((t) => {
    const mine = links.filter((l) => l.proposalTypeId === t.id);
    const details = (kind: string) =>
      mine
        .filter((l) => l.kind === kind)
        .map(({ id, name, display_name, type, version }) => ({
          id,
          name,
          display_name,
          type,
          version,
        }));
    const proposalFormDetails = details('proposal');
    const reviewFormDetails = details('review');
    return {
      typeId: t.id,
      typeName: t.name,
      proposalForms: proposalFormDetails.map((f) => f.id),
      reviewForms: reviewFormDetails.map((f) => f.id),
      proposalFormDetails,
      reviewFormDetails,
      hasProposals: Boolean(t.hasProposals),
      hasReviews: Boolean(t.hasReviews),
    };
  });
}

export async function loadExtensions(
  db: Tx,
  callId: number,
  onlyUserId?: number,
): Promise<Extension[]> {
  const conditions = [eq(extensions.callId, callId)];
  if (onlyUserId !== undefined) conditions.push(eq(extensions.userId, onlyUserId));
  const rows = await db
    .select({
      id: extensions.id,
      userId: extensions.userId,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      commencement: extensions.commencement,
      termination: extensions.termination,
      reason: extensions.reason,
    })
    .from(extensions)
    .innerJoin(users, eq(users.id, extensions.userId))
    .where(and(...conditions))
    .orderBy(asc(extensions.commencement), asc(extensions.id));
  return rows.map((r) => ({
    id: r.id,
    userId: r.userId,
    userName: personName(r.firstName, r.lastName, r.username),
    commencement: r.commencement.toISOString(),
    termination: r.termination.toISOString(),
    reason: r.reason,
  }));
}

/** The call page: details, types and their forms, the extensions the actor may see. */
export async function callDetail(
  db: Tx,
  actor: CommitteeActor,
  row: { call: CallRow; committeeName: string },
  actorExtensions: readonly TimeWindow[],
  now: Date,
): Promise<CallDetail> {
  const callId = row.call.id;
  const [roles, types] = await Promise.all([
    proposalRolesOf(db, actor.id, [callId]),
    loadProposalTypes(db, callId),
  ]);
  const summary = summarise(row, actor, [...actorExtensions], roles, now);
  const visibleExtensions = await loadExtensions(
    db,
    callId,
    summary.abilities.manage ? undefined : actor.id,
  );
  return {
    ...summary,
    conflicts: {
      enabled: row.call.conflictsEnabled,
      declarationRequired: row.call.declarationRequired,
    },
    description: row.call.description,
    created: row.call.createdAt.toISOString(),
    lastModified: row.call.lastModified.toISOString(),
    version: row.call.version,
    proposalTypes: types,
    extensions: visibleExtensions,
  };
}

/**
 * The chair's numbers: submitted proposals, and those of them not yet reviewed. `reviewed`
 * is Reviewed as the caller's list shows it (`listScopeSql`): a proposal of their own, or
 * one they have a conflict of interest with, counts as awaiting review, as its row reads
 * Submitted, so the numbers tell them nothing of its reviews the list does not.
 */
export async function callManagement(db: Tx, callId: number, reviewed: SQL = reviewedSql) {
  const [row] = await db
    .select({
      submitted: sql<number>`count(*)::int`,
      awaiting: sql<number>`(count(*) filter (where not ${reviewed}))::int`,
    })
    .from(proposals)
    .where(and(eq(proposals.callId, callId), gte(proposals.stateVal, 1)));
  return { submitted: Number(row?.submitted ?? 0), awaitingReview: Number(row?.awaiting ?? 0) };
}

/** Per proposal type, its proposal or review forms in order, with their schemas. */
export async function formOrder(db: Tx, callId: number, kind: 'proposal' | 'review') {
  const types = await db
    .select({ id: proposalTypes.id, name: proposalTypes.name })
    .from(proposalTypes)
    .where(eq(proposalTypes.callId, callId))
    .orderBy(asc(proposalTypes.position), asc(proposalTypes.id));
  if (types.length === 0) return [];
  const rows = await db
    .select({
      typeId: proposalTypeForms.proposalTypeId,
      id: forms.id,
      name: forms.formNameId,
      display_name: formNames.displayName,
      type: formNames.type,
      version: forms.version,
      jsonSchema: forms.jsonSchema,
      uiSchema: forms.uiSchema,
      initialData: forms.initialData,
      options: forms.options,
    })
    .from(proposalTypeForms)
    .innerJoin(forms, eq(forms.id, proposalTypeForms.formId))
    .innerJoin(formNames, eq(formNames.id, forms.formNameId))
    .where(
      and(
        inArray(
          proposalTypeForms.proposalTypeId,
          types.map((t) => t.id),
        ),
        eq(proposalTypeForms.kind, kind),
      ),
    )
    .orderBy(asc(proposalTypeForms.position));
  return types.map((t) => ({
    typeId: t.id,
    typeName: t.name,
    forms: rows
      .filter((r) => r.typeId === t.id)
      .map(({ typeId: _typeId, ...form }) => ({ ...form, uiSchema: form.uiSchema ?? {} })),
  }));
}

// --- Moving a deadline (issue 30) ----------------------------------------------------

/**
 * The drafts of a call with their own submission close before and after the call's moves
 * from `before` to `after`: the call's, or the end of the author's latest extension when
 * later (as the reminders count it, `reminderItemsSql`), the same for the whole team. A
 * query with the columns id, proposal_name, type_name, old_close and new_close.
 */
function draftClosesSql(callId: number, before: Date, after: Date): SQL {
  const was = sql`${before.toISOString()}::timestamptz`;
  const will = sql`${after.toISOString()}::timestamptz`;
  return sql`
    select p."id", p."name" as "proposal_name", pt."name" as "type_name",
      greatest(${was}, coalesce(x."ends", ${was})) as "old_close",
      greatest(${will}, coalesce(x."ends", ${will})) as "new_close"
    from ${proposals} p
    join ${proposalTypes} pt on pt."id" = p."proposal_type_id"
    left join lateral (
      select max(e."termination") as "ends" from ${extensions} e
      where e."call_id" = p."call_id" and e."user_id" = p."author_id"
    ) x on true
    where p."call_id" = ${callId} and p."state_val" = 0`;
}

/** The active author and collaborators of the draft `d` of `draftClosesSql`. */
const draftTeamSql = sql`
  cross join lateral (
    select p."author_id" as "user_id", 0 as "collaborator" from ${proposals} p
    where p."id" = d."id"
    union
    select pc."user_id", 1 from ${proposalCollaborators} pc where pc."proposal_id" = d."id"
  ) t
  join ${users} u on u."id" = t."user_id" and u."is_active"`;

/**
 * Who a change of the call's deadlines to `termination` and `reviewTermination` reaches:
 * drafts whose own deadline moves (and the people mailed when it moves earlier), the
 * extensions it passes or overtakes, and the assigned reviews not saved yet. One statement,
 * cheap enough to ask before every save that changes a deadline.
 */
export async function deadlineImpact(
  db: Tx,
  call: CallRow,
  change: { termination: Date; reviewTermination: Date },
) {
  const was = sql`${call.termination.toISOString()}::timestamptz`;
  const will = sql`${change.termination.toISOString()}::timestamptz`;
  const [row] = rowsOf<Record<string, number>>(
    await db.execute(sql`
      with d as (${draftClosesSql(call.id, call.termination, change.termination)})
      select
        (select count(*) from d where d."new_close" < d."old_close")::int as "draftsEarlier",
        (select count(distinct t."user_id") from d ${draftTeamSql}
          where d."new_close" < d."old_close")::int as "peopleMailed",
        (select count(*) from d where d."new_close" > d."old_close")::int as "draftsLater",
        (select count(*) from ${extensions} e
          where e."call_id" = ${call.id} and e."termination" > ${will})::int as "extensionsPast",
        (select count(*) from ${extensions} e
          where e."call_id" = ${call.id} and e."termination" > ${was}
            and e."termination" <= ${will})::int as "extensionsOvertaken",
        (select count(*) from ${proposals} p
          join ${calls} k on k."id" = p."call_id"
          join ${proposalReviewers} pr on pr."proposal_id" = p."id"
          where p."call_id" = ${call.id} and p."state_val" >= 1
            and ${unsavedReviewSql(sql`pr."user_id"`)})::int as "reviewsNotSaved"`),
  );
  return {
    draftsEarlier: Number(row?.draftsEarlier ?? 0),
    peopleMailed: Number(row?.peopleMailed ?? 0),
    draftsLater: Number(row?.draftsLater ?? 0),
    extensionsPast: Number(row?.extensionsPast ?? 0),
    extensionsOvertaken: Number(row?.extensionsOvertaken ?? 0),
    reviewsNotSaved: Number(row?.reviewsNotSaved ?? 0),
  };
}

/** One person on a draft whose own submission deadline moved earlier, with that deadline. */
export interface MovedDraftRecipient {
  email: string;
  name: string;
  proposalId: number;
  proposalName: string;
  typeName: string;
  before: Date;
  after: Date;
}

/**
 * The author and collaborators (active accounts) of each draft whose own submission
 * deadline moves earlier when the call's moves from `before` to `after`, authors first.
 */
export async function draftTeamsMovedEarlier(
  db: Tx,
  callId: number,
  before: Date,
  after: Date,
): Promise<MovedDraftRecipient[]> {
  const rows = rowsOf<{
    email: string;
    name: string;
    id: number;
    proposal_name: string;
    type_name: string;
    old_ms: number;
    new_ms: number;
  }>(
    await db.execute(sql`
      with d as (${draftClosesSql(callId, before, after)})
      select u."email", coalesce(nullif(u."first_name", ''), u."username") as "name", d."id",
        d."proposal_name", d."type_name",
        (extract(epoch from d."old_close") * 1000)::float8 as "old_ms",
        (extract(epoch from d."new_close") * 1000)::float8 as "new_ms"
      from d ${draftTeamSql}
      where d."new_close" < d."old_close"
      order by d."id", t."collaborator", u."id"`),
  );
  return rows.map((row) => ({
    email: row.email,
    name: row.name,
    proposalId: Number(row.id),
    proposalName: row.proposal_name,
    typeName: row.type_name,
    before: new Date(Number(row.old_ms)),
    after: new Date(Number(row.new_ms)),
  }));
}
