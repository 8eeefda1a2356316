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
import {
  calls,
  committees,
  extensions,
  formNames,
  forms,
  proposalCollaborators,
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
