import {
  coversReview,
  defaultCap,
  effectiveCap,
  type CommitteeActor,
  type CommitteeRoleName,
} from '@merit/domain';
import { and, asc, eq, gte, inArray, lte, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  assignmentBids,
  assignmentCaps,
  calls,
  committeeRoles,
  proposalReviewers,
  proposals,
  users,
} from '../../db/schema.js';
import { personNameSql } from '../../platform/data/sql.js';
import type { CallRow } from '../calls/calls.queries.js';
import { conflictedSql, ownSql } from '../proposals/list-scope.queries.js';

/*
 * The assignment module's face (issue 27): a member's cap in a call and their load there,
 * which POST /reviewers/ holds single assignments to. Below it, the module's own reads of
 * a call's members, caps, loads and slots, shared by its pages, Propose and the CSV.
 */

/** The job that works a proposed assignment out (assignment.jobs.ts handles it). */
export const PROPOSE_ASSIGNMENT_JOB = 'assignment.propose';

/** A submitted proposal of a call: the only ones assignment works with (state 1 and on). */
export const submittedOfCall = (callId: number) =>
  and(eq(proposals.callId, callId), gte(proposals.stateVal, 1));

/** The condition "the role in the FROM is current at `now`". */
const roleCurrent = (now: Date) =>
  and(lte(committeeRoles.commencement, now), gte(committeeRoles.termination, now));

/** How many current members (chairs too, active accounts) the committee has. */
async function memberCount(tx: Tx, committeeId: number, now: Date): Promise<number> {
  const [row] = await tx
    .select({ count: sql<number>`count(distinct ${committeeRoles.userId})::int` })
    .from(committeeRoles)
    .innerJoin(users, eq(users.id, committeeRoles.userId))
    .where(
      and(eq(committeeRoles.committeeId, committeeId), roleCurrent(now), eq(users.isActive, true)),
    );
  return Number(row?.count ?? 0);
}

/** A call's submitted proposals and the reviews they want in all (each its own k, or the call's). */
export async function slotsOf(
  tx: Tx,
  call: Pick<CallRow, 'id' | 'reviewsPerProposal'>,
): Promise<{ proposals: number; slots: number }> {
  const [row] = await tx
    .select({
      proposals: sql<number>`count(*)::int`,
      slots: sql<number>`coalesce(sum(coalesce(${proposals.reviewsWanted}, ${call.reviewsPerProposal}::int)), 0)::int`,
    })
    .from(proposals)
    .where(submittedOfCall(call.id));
  return { proposals: Number(row?.proposals ?? 0), slots: Number(row?.slots ?? 0) };
}

/**
 * The cap of a member the chairs set none for: the even share of the call's slots over
 * its current members, plus 10 % (`defaultCap`).
 */
export async function defaultCapOf(
  tx: Tx,
  call: Pick<CallRow, 'id' | 'committeeId' | 'reviewsPerProposal'>,
  now: Date,
): Promise<number> {
  // One after another: this runs inside transactions too, whose one connection takes one
  // query at a time.
  const { slots } = await slotsOf(tx, call);
  return defaultCap(slots, await memberCount(tx, call.committeeId, now));
}

/**
 * `userId`'s cap in the call (`effectiveCap`: the chair's or the default, or the lower one
 * they set themselves) and how many of its proposals they review now. POST /reviewers/
 * refuses an assignment that would take them past it, unless the chair insists.
 */
export async function capAndLoadOf(
  tx: Tx,
  call: Pick<CallRow, 'id' | 'committeeId' | 'reviewsPerProposal'>,
  userId: number,
  now: Date,
): Promise<{ cap: number; load: number }> {
  const fallback = await defaultCapOf(tx, call, now);
  const [caps] = await tx
    .select({ chairCap: assignmentCaps.chairCap, memberCap: assignmentCaps.memberCap })
    .from(assignmentCaps)
    .where(and(eq(assignmentCaps.callId, call.id), eq(assignmentCaps.userId, userId)));
  const [load] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(proposalReviewers)
    .innerJoin(proposals, eq(proposals.id, proposalReviewers.proposalId))
    .where(and(eq(proposals.callId, call.id), eq(proposalReviewers.userId, userId)));
  return {
    cap: effectiveCap(caps?.chairCap, caps?.memberCap, fallback),
    load: Number(load?.count ?? 0),
  };
}

// --- The module's own -------------------------------------------------------------------

/** A current member of a call's committee, as assignment reads them. */
export interface CallMember {
  userId: number;
  name: string;
  username: string;
  email: string;
  firstName: string;
  /** CHAIR when any of their current roles is a chair's. */
  role: CommitteeRoleName;
  /** A current role of theirs lasts through the review still to come (`coversReview`). */
  eligible: boolean;
  /** Their expertise, over their current roles, each once, sorted. */
  facilities: string[];
  keywords: string[];
}

const sortedUnique = (lists: readonly (readonly string[])[]) =>
  [
    ...new Set(
      lists
        .flat()
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ].sort();

/**
 * The committee's current members (chairs included, active accounts only; an admin with no
 * role is not one), by id: the members Propose works with and the columns of the matrix.
 */
export async function membersOf(tx: Tx, call: CallRow, now: Date): Promise<CallMember[]> {
  const rows = await tx
    .select({
      userId: users.id,
      name: personNameSql(users),
      username: users.username,
      email: users.email,
      firstName: users.firstName,
      role: committeeRoles.role,
      commencement: committeeRoles.commencement,
      termination: committeeRoles.termination,
      facilities: committeeRoles.facilities,
      keywords: committeeRoles.keywords,
    })
    .from(committeeRoles)
    .innerJoin(users, eq(users.id, committeeRoles.userId))
    .where(
      and(
        eq(committeeRoles.committeeId, call.committeeId),
        roleCurrent(now),
        eq(users.isActive, true),
      ),
    )
    .orderBy(asc(users.id), asc(committeeRoles.id));
  const byUser = new Map<number, (typeof rows)[number][]>();
  for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row]);
  return [...byUser.values()].map((current) => {
    const first = current[0]!;
    return {
      userId: first.userId,
      name: first.name,
      username: first.username,
      email: first.email,
      firstName: first.firstName,
      role: current.some((role) => role.role === 'CHAIR') ? 'CHAIR' : 'MEMBER',
      // A role current now that ends before review does gets no new work.
      eligible: current.some((role) => coversReview(role, call, now)),
      facilities: sortedUnique(current.map((role) => role.facilities)),
      keywords: sortedUnique(current.map((role) => role.keywords)),
    };
  });
}

/** The caps the chairs and the members set in a call, by user id. */
export async function capRowsOf(
  tx: Tx,
  callId: number,
): Promise<Map<number, { chairCap: number | null; memberCap: number | null }>> {
  const rows = await tx
    .select({
      userId: assignmentCaps.userId,
      chairCap: assignmentCaps.chairCap,
      memberCap: assignmentCaps.memberCap,
    })
    .from(assignmentCaps)
    .where(eq(assignmentCaps.callId, callId));
  return new Map(rows.map(({ userId, ...caps }) => [userId, caps]));
}

/** How many of the call's proposals each person reviews (is assigned to), by user id. */
export async function loadsOf(tx: Tx, callId: number): Promise<Map<number, number>> {
  const rows = await tx
    .select({ userId: proposalReviewers.userId, load: sql<number>`count(*)::int` })
    .from(proposalReviewers)
    .innerJoin(proposals, eq(proposals.id, proposalReviewers.proposalId))
    .where(eq(proposals.callId, callId))
    .groupBy(proposalReviewers.userId);
  return new Map(rows.map((row) => [row.userId, Number(row.load)]));
}

/** Each member with the cap that holds for them, given the call's default. */
export function withCaps<M extends { userId: number }>(
  members: readonly M[],
  caps: Map<number, { chairCap: number | null; memberCap: number | null }>,
  fallback: number,
) {
  return members.map((member) => {
    const set = caps.get(member.userId);
    const chairCap = set?.chairCap ?? null;
    const memberCap = set?.memberCap ?? null;
    return { ...member, chairCap, memberCap, cap: effectiveCap(chairCap, memberCap, fallback) };
  });
}

/**
 * The call's proposals whose reviewers the actor must not learn: theirs (author or
 * collaborator) and those they have an enforced conflict of interest with. A chair (or
 * admin) in that position sees none of their pairs in the preview, the matrix or the CSV,
 * and may change none of them; another chair of the committee assigns their reviewers.
 */
export async function hiddenProposalIds(
  tx: Tx,
  call: CallRow,
  actor: CommitteeActor,
): Promise<Set<number>> {
  const rows = await tx
    .select({ id: proposals.id })
    .from(proposals)
    .where(and(eq(proposals.callId, call.id), or(ownSql(actor.id), conflictedSql(actor.id, call))));
  return new Set(rows.map((row) => row.id));
}

/**
 * What the actor may not see of the call (`hiddenProposalIds`), and each member's reviews
 * of those proposals now: loads shown to them count without these, so that no sum tells
 * them who reviews a proposal they must not know the reviewers of.
 */
export async function hiddenOf(
  tx: Tx,
  call: CallRow,
  actor: CommitteeActor,
): Promise<{ proposals: Set<number>; loads: Map<number, number> }> {
  const ids = await hiddenProposalIds(tx, call, actor);
  if (ids.size === 0) return { proposals: ids, loads: new Map() };
  const rows = await tx
    .select({ userId: proposalReviewers.userId, load: sql<number>`count(*)::int` })
    .from(proposalReviewers)
    .where(inArray(proposalReviewers.proposalId, [...ids]))
    .groupBy(proposalReviewers.userId);
  return { proposals: ids, loads: new Map(rows.map((row) => [row.userId, Number(row.load)])) };
}

/** A person's bids, with their proposals and calls: for Download my data. */
export async function bidsOfUser(tx: Tx, userId: number) {
  return tx
    .select({
      proposalId: proposals.id,
      proposalName: proposals.name,
      callId: calls.id,
      callName: calls.name,
      preference: assignmentBids.preference,
      at: assignmentBids.at,
    })
    .from(assignmentBids)
    .innerJoin(proposals, eq(proposals.id, assignmentBids.proposalId))
    .innerJoin(calls, eq(calls.id, proposals.callId))
    .where(eq(assignmentBids.userId, userId))
    .orderBy(asc(calls.id), asc(proposals.id));
}

/** The caps a person set for themselves, by call: for Download my data. */
export async function ownCapsOfUser(tx: Tx, userId: number) {
  return tx
    .select({ callId: calls.id, callName: calls.name, cap: assignmentCaps.memberCap })
    .from(assignmentCaps)
    .innerJoin(calls, eq(calls.id, assignmentCaps.callId))
    .where(and(eq(assignmentCaps.userId, userId), sql`${assignmentCaps.memberCap} is not null`))
    .orderBy(asc(calls.id));
}
