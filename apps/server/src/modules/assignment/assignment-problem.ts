import { createHash } from 'node:crypto';
import type {
  AssignmentProblem,
  ExistingAssignment,
  Preference,
  ProblemMember,
  ProblemProposal,
} from '@merit/domain';
import { asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { assignmentBids, proposalReviewers, proposalTypes, proposals } from '../../db/schema.js';
import type { CallRow } from '../calls/calls.queries.js';
import {
  capRowsOf,
  defaultCapOf,
  membersOf,
  submittedOfCall,
  withCaps,
} from './assignment.queries.js';
import { inTurn } from './in-turn.js';
import {
  enforcedConflictPairsOf,
  facilitiesOf,
  teamPairsOf,
  wordsOf,
  type Pair,
} from './proposal-facts.js';

/*
 * The problem Propose solves, read from the database in a few set-based queries, and its
 * digest. The job that proposes stores the digest with the result; Apply reads the problem
 * again and refuses when the digest differs: something Propose worked from has changed
 * (an assignment, a conflict, a bid, a cap, k, a member or their role, a proposal).
 */

const byPair = (a: Pair, b: Pair) => a[0] - b[0] || a[1] - b[1];

/** Each pair once, sorted. */
function uniquePairs(pairs: readonly Pair[]): Pair[] {
  const seen = new Set<string>();
  const unique: Pair[] = [];
  for (const pair of pairs) {
    const key = `${pair[0]}:${pair[1]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(pair);
  }
  return unique.sort(byPair);
}

/** The call's submitted proposals as Propose reads them, by id. */
async function problemProposals(tx: Tx, call: CallRow): Promise<ProblemProposal[]> {
  const [rows, facilities] = await inTurn(
    () =>
      tx
        .select({
          id: proposals.id,
          name: proposals.name,
          typeName: proposalTypes.name,
          wanted: sql<number>`coalesce(${proposals.reviewsWanted}, ${call.reviewsPerProposal}::int)::int`,
        })
        .from(proposals)
        .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
        .where(submittedOfCall(call.id))
        .orderBy(asc(proposals.id)),
    () => facilitiesOf(tx, call.id),
  );
  return rows.map((row) => ({
    id: row.id,
    wanted: Number(row.wanted),
    facilities: facilities.get(row.id) ?? [],
    words: wordsOf(row.name, row.typeName),
  }));
}

/** The assignments of the call's submitted proposals, each with its lock and whether it is reviewed. */
async function existingAssignments(tx: Tx, callId: number): Promise<ExistingAssignment[]> {
  const rows = await tx
    .select({
      proposalId: proposalReviewers.proposalId,
      userId: proposalReviewers.userId,
      locked: proposalReviewers.locked,
      reviewed: sql<boolean>`exists (select 1 from "reviews" r
        where r."proposal_id" = ${proposalReviewers.proposalId}
          and r."reviewer_id" = ${proposalReviewers.userId})`,
    })
    .from(proposalReviewers)
    .innerJoin(proposals, eq(proposals.id, proposalReviewers.proposalId))
    .where(submittedOfCall(callId))
    .orderBy(asc(proposalReviewers.proposalId), asc(proposalReviewers.userId));
  return rows.map((row) => ({ ...row, reviewed: Boolean(row.reviewed) }));
}

/** The bids other than neutral on the call's submitted proposals, `not_me` included. */
async function bidsOf(tx: Tx, callId: number) {
  return tx
    .select({
      proposalId: assignmentBids.proposalId,
      userId: assignmentBids.userId,
      preference: assignmentBids.preference,
    })
    .from(assignmentBids)
    .innerJoin(proposals, eq(proposals.id, assignmentBids.proposalId))
    .where(submittedOfCall(callId))
    .orderBy(asc(assignmentBids.proposalId), asc(assignmentBids.userId));
}

/**
 * The problem of a call at `now`: its submitted proposals with their k, facilities and
 * words; its current members with their caps, eligibility and expertise; the pairs that
 * may never be assigned (enforced conflicts, the proposals' teams), the members' bids and
 * the assignments made before. Every list is sorted, so the same data gives the same
 * problem and the same digest.
 */
export async function loadProblem(
  tx: Tx,
  call: CallRow,
  now: Date,
  options: { redo: boolean; seed: number },
): Promise<AssignmentProblem> {
  const [problemProposalList, members, caps, fallback, team, conflicts, bids, existing] =
    await inTurn(
      () => problemProposals(tx, call),
      () => membersOf(tx, call, now),
      () => capRowsOf(tx, call.id),
      () => defaultCapOf(tx, call, now),
      () => teamPairsOf(tx, call.id),
      () => enforcedConflictPairsOf(tx, call),
      () => bidsOf(tx, call.id),
      () => existingAssignments(tx, call.id),
    );
  const memberIds = new Set(members.map((member) => member.userId));
  const problemMembers: ProblemMember[] = withCaps(members, caps, fallback).map((member) => ({
    id: member.userId,
    cap: member.cap,
    eligible: member.eligible,
    facilities: member.facilities,
    keywords: member.keywords,
  }));
  return {
    proposals: problemProposalList,
    members: problemMembers,
    excluded: uniquePairs([...team, ...conflicts].filter(([, userId]) => memberIds.has(userId))),
    preferences: bids
      .filter((bid) => memberIds.has(bid.userId))
      .map((bid) => ({ ...bid, preference: bid.preference as Preference })),
    existing,
    redo: options.redo,
    seed: options.seed,
  };
}

/** JSON with every object's keys in order, so equal values always write the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The digest of what a proposal was worked out from: SHA-256 of the problem as canonical
 * JSON, without its seed (which changes the answer, not what it answers).
 */
export function problemDigest(problem: AssignmentProblem): string {
  const { seed: _seed, ...rest } = problem;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}
