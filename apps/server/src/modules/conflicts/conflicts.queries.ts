import type {
  ConflictEvidence,
  ConflictFacts,
  ConflictSource,
  ConflictState,
  ConflictType,
} from '@merit/domain';
import { and, asc, eq, gte, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import {
  committeeRoles,
  conflictDeclarations,
  conflicts,
  jobs,
  proposalCollaborators,
  proposals,
  users,
} from '../../db/schema.js';
import { personNameSql } from '../../platform/data/sql.js';
import type { Work } from '../../platform/data/work.js';

/*
 * The conflicts module's face: one person's conflict with one proposal, and asking for
 * detection to run again after a change that could alter what it finds. Below it, the
 * module's own reads and plain writes of `conflicts` and `conflict_declarations`.
 */

/** The job that runs the detector again (conflicts.jobs.ts handles it). */
export const DETECT_CONFLICTS_JOB = 'conflicts.detect';

/**
 * What changed, so the job knows which calls to detect again: one call (a proposal of
 * it submitted, its collaborators changed), every call of a committee (its roles
 * changed), or every call a person is on (their institution, email or collaborators).
 */
export type DetectionScope = { callId: number } | { committeeId: number } | { userId: number };

/**
 * Queues detection after the caller's change commits: never in the request, so a save
 * stays fast, and a failed detection retries without undoing the change. A detection of
 * the same scope that is queued and not yet started will read this change too, so none
 * is added then: a call's last hour of submissions queues a few runs, not thousands.
 */
export async function queueDetection(
  work: Pick<Work, 'tx' | 'enqueue'>,
  scope: DetectionScope,
): Promise<void> {
  const [waiting] = await work.tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.kind, DETECT_CONFLICTS_JOB),
        sql`${jobs.payload} = ${JSON.stringify(scope)}::jsonb`,
        isNull(jobs.lockedUntil),
        eq(jobs.attempts, 0),
      ),
    )
    .limit(1);
  if (!waiting) await work.enqueue(DETECT_CONFLICTS_JOB, scope);
}

/**
 * The proposals `userId` has an enforced conflict of interest with, but for the call's
 * setting (which the caller adds): confirmed, and not overridden by a chair who assigned
 * them all the same (`ConflictFacts.overridden`). A subquery of proposal ids for
 * `"proposals"."id" in (...)`: one scan of the person's conflicts (`conflicts_user_idx`),
 * however many proposals the outer query reads. The one definition every list, count and
 * export that leaves conflicted proposals out uses, as the domain's `isEnforced` does for
 * one proposal.
 */
export const enforcedConflictProposalIdsSql = (userId: number) => sql`(
  select c."proposal_id" from "conflicts" c
  where c."user_id" = ${userId}::int and ${enforcedSql})`;

/**
 * Whether the conflict `c` in the FROM is overridden: a chair assigned its person to its
 * proposal all the same, with a reason (`ConflictFacts.overridden`).
 */
export const overriddenSql = sql<boolean>`exists (select 1 from "proposal_reviewers" pr
  where pr."proposal_id" = c."proposal_id" and pr."user_id" = c."user_id"
    and pr."override_reason" is not null)`;

/**
 * Whether the conflict `c` in the FROM is enforced (`isEnforced`, the call's setting
 * aside): confirmed, and not overridden.
 */
export const enforcedSql = sql<boolean>`(c."state" = 'confirmed' and not ${overriddenSql})`;

/** `userId`'s conflict with the proposal, of any state, or undefined when there is none. */
export async function conflictOfPerson(
  tx: Tx,
  proposalId: number,
  userId: number,
): Promise<(ConflictFacts & { id: number }) | undefined> {
  const [row] = await tx
    .select({
      id: conflicts.id,
      type: conflicts.type,
      source: conflicts.source,
      state: conflicts.state,
      pinned: conflicts.pinned,
    })
    .from(conflicts)
    .where(and(eq(conflicts.proposalId, proposalId), eq(conflicts.userId, userId)));
  return row;
}

// --- The module's own ------------------------------------------------------------------------

export type ConflictRow = typeof conflicts.$inferSelect;

/** A conflict with the names its answers show. */
export interface ConflictView extends ConflictRow {
  proposalName: string;
  userName: string;
  institution: string;
  changedByName: string | null;
}

const members = alias(users, 'conflict_members');
const changers = alias(users, 'conflict_changers');

const viewColumns = {
  row: conflicts,
  proposalName: proposals.name,
  userName: personNameSql(members),
  institution: members.institution,
  changedByName: sql<string | null>`case when ${changers.id} is null then null
    else ${personNameSql(changers)} end`,
};

/** Conflicts with their names, chosen by `where` (over `conflicts`, `proposals`). */
function viewsWhere(tx: Tx, where: SQL | undefined) {
  return tx
    .select(viewColumns)
    .from(conflicts)
    .innerJoin(proposals, eq(proposals.id, conflicts.proposalId))
    .innerJoin(members, eq(members.id, conflicts.userId))
    .leftJoin(changers, eq(changers.id, conflicts.changedBy))
    .where(where);
}

const asView = (r: {
  row: ConflictRow;
  proposalName: string;
  userName: string;
  institution: string;
  changedByName: string | null;
}): ConflictView => ({
  ...r.row,
  proposalName: r.proposalName,
  userName: r.userName,
  institution: r.institution,
  changedByName: r.changedByName,
});

/** One conflict with its names, locked for a change when asked; undefined when there is none. */
export async function conflictById(
  tx: Tx,
  id: number,
  forUpdate = false,
): Promise<ConflictView | undefined> {
  const query = viewsWhere(tx, eq(conflicts.id, id));
  const [row] = await (forUpdate ? query.for('update', { of: conflicts }) : query);
  return row && asView(row);
}

/** `userId`'s conflict with the proposal with its names, locked for a change; undefined when none. */
export async function conflictOfPair(
  tx: Tx,
  proposalId: number,
  userId: number,
): Promise<ConflictView | undefined> {
  const [row] = await viewsWhere(
    tx,
    and(eq(conflicts.proposalId, proposalId), eq(conflicts.userId, userId)),
  ).for('update', { of: conflicts });
  return row && asView(row);
}

/** Several conflicts with their names, by id; those that do not exist are left out. */
export async function conflictsByIds(tx: Tx, ids: readonly number[]): Promise<ConflictView[]> {
  if (ids.length === 0) return [];
  const rows = await viewsWhere(tx, inArray(conflicts.id, [...ids]))
    .orderBy(asc(conflicts.id))
    .for('update', { of: conflicts });
  return rows.map(asView);
}

/** A proposal's conflicts, by member name; only those of `source` when given. */
export async function conflictsOfProposal(
  tx: Tx,
  proposalId: number,
  source?: ConflictSource,
): Promise<ConflictView[]> {
  const rows = await viewsWhere(
    tx,
    and(
      eq(conflicts.proposalId, proposalId),
      source === undefined ? undefined : eq(conflicts.source, source),
    ),
  ).orderBy(asc(members.lastName), asc(members.firstName), asc(conflicts.id));
  return rows.map(asView);
}

/** A committee member as the conflict screens list them: name and institution only. */
export interface Candidate {
  userId: number;
  name: string;
  institution: string;
}

/** The condition "the role in the FROM is current at `now`". */
const roleCurrent = (now: Date) =>
  and(lte(committeeRoles.commencement, now), gte(committeeRoles.termination, now));

/** The committee's current members (chairs too), active accounts, by name. */
export async function currentMembers(tx: Tx, committeeId: number, now: Date): Promise<Candidate[]> {
  const rows = await tx
    .selectDistinct({
      userId: users.id,
      name: personNameSql(users),
      institution: users.institution,
    })
    .from(committeeRoles)
    .innerJoin(users, eq(users.id, committeeRoles.userId))
    .where(
      and(eq(committeeRoles.committeeId, committeeId), roleCurrent(now), eq(users.isActive, true)),
    );
  return rows.sort((a, b) => a.name.localeCompare(b.name) || a.userId - b.userId);
}

/** Whether `userId` is a current member (or chair) of the committee, with an active account. */
export async function isCurrentMember(
  tx: Tx,
  committeeId: number,
  userId: number,
  now: Date,
): Promise<boolean> {
  const [row] = await tx
    .select({ id: committeeRoles.id })
    .from(committeeRoles)
    .innerJoin(users, eq(users.id, committeeRoles.userId))
    .where(
      and(
        eq(committeeRoles.committeeId, committeeId),
        eq(committeeRoles.userId, userId),
        roleCurrent(now),
        eq(users.isActive, true),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * The committee's current chairs whom a mail about the proposal may reach: active, not
 * on its team, and without a confirmed conflict with it.
 */
export async function unconflictedChairs(
  tx: Tx,
  committeeId: number,
  proposalId: number,
  now: Date,
) {
  return tx
    .selectDistinct({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      username: users.username,
    })
    .from(committeeRoles)
    .innerJoin(users, eq(users.id, committeeRoles.userId))
    .innerJoin(proposals, eq(proposals.id, proposalId))
    .where(
      and(
        eq(committeeRoles.committeeId, committeeId),
        eq(committeeRoles.role, 'CHAIR'),
        roleCurrent(now),
        eq(users.isActive, true),
        sql`${proposals.authorId} <> ${users.id}`,
        sql`not exists (select 1 from ${proposalCollaborators} pc
          where pc."proposal_id" = ${proposals.id} and pc."user_id" = ${users.id})`,
        sql`not exists (select 1 from ${conflicts} c
          where c."proposal_id" = ${proposals.id} and c."user_id" = ${users.id}
            and c."state" = 'confirmed')`,
      ),
    );
}

/** The applicants' institutions (author and collaborators), each once, none empty. */
export async function applicantInstitutions(tx: Tx, proposalId: number): Promise<string[]> {
  const rows = await tx.execute(sql`
    select distinct trim(u."institution") as "institution"
    from ${users} u
    where u."id" in (
      select p."author_id" from ${proposals} p where p."id" = ${proposalId}
      union
      select pc."user_id" from ${proposalCollaborators} pc where pc."proposal_id" = ${proposalId})
      and trim(u."institution") <> ''
    order by 1`);
  return (rows as unknown as { rows: { institution: string }[] }).rows.map((r) => r.institution);
}

/** A member's answer to a proposal's declaration, or undefined before they answer. */
export async function declarationOf(tx: Tx, proposalId: number, userId: number) {
  const [row] = await tx
    .select()
    .from(conflictDeclarations)
    .where(
      and(eq(conflictDeclarations.proposalId, proposalId), eq(conflictDeclarations.userId, userId)),
    );
  return row;
}

/** Records a member's answer, once: false when they had answered already. */
export async function insertDeclaration(
  tx: Tx,
  values: { proposalId: number; userId: number; conflict: boolean; type: ConflictType | null },
  at: Date,
): Promise<boolean> {
  const rows = await tx
    .insert(conflictDeclarations)
    .values({ ...values, at })
    .onConflictDoNothing()
    .returning({ userId: conflictDeclarations.userId });
  return rows.length > 0;
}

/** What a declared conflict is made of. */
export interface DeclaredConflict {
  proposalId: number;
  userId: number;
  type: ConflictType;
  source: ConflictSource;
  state: ConflictState;
  pinned: boolean;
  reason: string;
  evidence?: ConflictEvidence[];
}

/** Inserts a conflict, changed by `changedBy` at `at`; its id. */
export async function insertConflict(
  tx: Tx,
  values: DeclaredConflict,
  changedBy: number | null,
  at: Date,
): Promise<number> {
  const [row] = await tx
    .insert(conflicts)
    .values({ ...values, changedBy, changedAt: at })
    .returning({ id: conflicts.id });
  return row!.id;
}

/** Changes one conflict, as `changedBy` at `at`. */
export async function updateConflict(
  tx: Tx,
  id: number,
  values: Partial<Pick<ConflictRow, 'type' | 'source' | 'state' | 'pinned' | 'reason'>>,
  changedBy: number | null,
  at: Date,
): Promise<void> {
  await tx
    .update(conflicts)
    .set({ ...values, changedBy, changedAt: at })
    .where(eq(conflicts.id, id));
}

export async function deleteConflict(tx: Tx, id: number): Promise<void> {
  await tx.delete(conflicts).where(eq(conflicts.id, id));
}

/** Sets the state of many conflicts at once, as `changedBy` at `at`. */
export async function setConflictStates(
  tx: Tx,
  ids: readonly number[],
  state: ConflictState,
  changedBy: number,
  at: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(conflicts)
    .set({ state, changedBy, changedAt: at })
    .where(inArray(conflicts.id, [...ids]));
}

/**
 * Raises the proposal's conflicts version when it is still `version` (the applicants'
 * Conflicts panel saved from it): the new version, or undefined when another save came first.
 */
export async function raiseConflictsVersion(
  tx: Tx,
  proposalId: number,
  version?: number,
): Promise<number | undefined> {
  const [row] = await tx
    .update(proposals)
    .set({ conflictsVersion: sql`${proposals.conflictsVersion} + 1` })
    .where(
      and(
        eq(proposals.id, proposalId),
        version === undefined ? undefined : eq(proposals.conflictsVersion, version),
      ),
    )
    .returning({ version: proposals.conflictsVersion });
  return row?.version;
}

// --- A call's conflicts, for its chairs ----------------------------------------------------

export interface CallConflictFilter {
  state?: ConflictState;
  type?: ConflictType;
  user?: number;
  proposal?: number;
}

/**
 * The proposals of the call a chair sees the conflicts of: all but those they are conflicted
 * on (a confirmed conflict of their own) or on the team of, whose other conflicts they must
 * not learn. Over `proposals` in the FROM.
 */
const visibleToChair = (callId: number, viewerId: number) =>
  and(
    eq(proposals.callId, callId),
    sql`${proposals.authorId} <> ${viewerId}::int`,
    sql`not exists (select 1 from ${proposalCollaborators} pc
      where pc."proposal_id" = ${proposals.id} and pc."user_id" = ${viewerId}::int)`,
    sql`not exists (select 1 from ${conflicts} own
      where own."proposal_id" = ${proposals.id} and own."user_id" = ${viewerId}::int
        and own."state" = 'confirmed')`,
  );

/** One page of the call's conflicts a chair sees, filtered, and the call's counts. */
export async function callConflictPage(
  tx: Tx,
  callId: number,
  viewerId: number,
  filter: CallConflictFilter,
  page: { page: number; pageSize: number },
) {
  const visible = visibleToChair(callId, viewerId);
  const filtered = and(
    visible,
    filter.state === undefined ? undefined : eq(conflicts.state, filter.state),
    filter.type === undefined ? undefined : eq(conflicts.type, filter.type),
    filter.user === undefined ? undefined : eq(conflicts.userId, filter.user),
    filter.proposal === undefined ? undefined : eq(conflicts.proposalId, filter.proposal),
  );
  const [rows, [total], counts, [undeclared]] = await Promise.all([
    viewsWhere(tx, filtered)
      .orderBy(
        sql`lower(${proposals.name})`,
        asc(proposals.id),
        asc(members.lastName),
        asc(members.firstName),
        asc(conflicts.id),
      )
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    tx
      .select({ total: sql<number>`count(*)::int` })
      .from(conflicts)
      .innerJoin(proposals, eq(proposals.id, conflicts.proposalId))
      .where(filtered),
    tx
      .select({ state: conflicts.state, count: sql<number>`count(*)::int` })
      .from(conflicts)
      .innerJoin(proposals, eq(proposals.id, conflicts.proposalId))
      .where(visible)
      .groupBy(conflicts.state),
    tx
      .select({ count: sql<number>`count(*)::int` })
      .from(proposals)
      .where(
        and(
          visible,
          sql`${proposals.stateVal} >= 1`,
          sql`not exists (select 1 from ${conflicts} d
            where d."proposal_id" = ${proposals.id} and d."source" = 'applicant')`,
        ),
      ),
  ]);
  const byState = { suggested: 0, confirmed: 0, dismissed: 0 };
  for (const row of counts) byState[row.state] = row.count;
  return {
    rows: rows.map(asView),
    total: total?.total ?? 0,
    counts: byState,
    undeclared: undeclared?.count ?? 0,
  };
}

// --- One's recent collaborators ----------------------------------------------------------------

/** The person's list of recent collaborators, locked for a change when asked. */
export async function recentCollaboratorsOf(
  tx: Tx,
  userId: number,
  forUpdate = false,
): Promise<{ name: string; email: string }[]> {
  const query = tx
    .select({ list: users.recentCollaborators })
    .from(users)
    .where(eq(users.id, userId));
  const [row] = await (forUpdate ? query.for('no key update') : query);
  return (row?.list ?? []).map((c) => ({ name: c.name, email: c.email }));
}

export async function setRecentCollaborators(
  tx: Tx,
  userId: number,
  list: readonly { name: string; email: string }[],
  now: Date,
): Promise<void> {
  await tx
    .update(users)
    .set({ recentCollaborators: [...list], updatedAt: now })
    .where(eq(users.id, userId));
}
