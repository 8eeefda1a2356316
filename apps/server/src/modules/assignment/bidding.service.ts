import type { BidRequest, BidsResponse, Biddable } from '@merit/contract';
import {
  assignmentMessages,
  effectiveCap,
  mayBid,
  proposalMessages,
  type Preference,
} from '@merit/domain';
import { and, asc, eq, not, sql } from 'drizzle-orm';
import { assignmentBids, proposalReviewers, proposalTypes, proposals } from '../../db/schema.js';
import { refusalError } from '../../platform/http/authorize.js';
import { forbidden, notFound } from '../../platform/http/http-errors.js';
import type { ReadWork, Work } from '../../platform/data/work.js';
import type { CallRow } from '../calls/calls.queries.js';
import { conflictedSql, ownSql } from '../proposals/list-scope.queries.js';
import { capRowsOf, defaultCapOf, submittedOfCall } from './assignment.queries.js';
import { callOf, isMemberOf } from './assignment.service.js';
import { facilitiesOf, institutionsOf } from './proposal-facts.js';

/*
 * Bidding (issue 27): a current member of the call's committee (chairs are members; an
 * admin with no role is not) marks the submitted proposals they may review Eager, Willing,
 * Neutral, Reluctant or Not me, while the chairs keep bidding open. Never on their own
 * (author or collaborator) nor on one they have an enforced conflict with.
 */

/** The proposals of the call in the FROM as `proposals` a member may bid on. */
const biddableBy = (work: ReadWork, call: CallRow) =>
  and(
    submittedOfCall(call.id),
    not(ownSql(work.actor.id)),
    not(conflictedSql(work.actor.id, call)),
  );

/**
 * GET /calls/{callId}/bids/: the proposals the member may bid on, with what bidding shows
 * of them (name, type, facilities, the applicants' institutions) and their bid, and their
 * cap and load in the call. Readable while bidding is closed too.
 */
export async function getBids(work: ReadWork, callId: number): Promise<BidsResponse> {
  const { tx, actor, now } = work;
  const call = await callOf(work, callId);
  if (!isMemberOf(work, call)) throw forbidden(assignmentMessages.biddingMembersOnly);
  const [rows, facilities, institutions, caps, fallback, [load]] = await Promise.all([
    tx
      .select({
        id: proposals.id,
        name: proposals.name,
        typeName: proposalTypes.name,
        preference: assignmentBids.preference,
      })
      .from(proposals)
      .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
      .leftJoin(
        assignmentBids,
        and(eq(assignmentBids.proposalId, proposals.id), eq(assignmentBids.userId, actor.id)),
      )
      .where(biddableBy(work, call))
      .orderBy(sql`lower(${proposals.name})`, asc(proposals.id)),
    facilitiesOf(tx, call.id),
    institutionsOf(tx, call.id),
    capRowsOf(tx, call.id),
    defaultCapOf(tx, call, now),
    tx
      .select({ count: sql<number>`count(*)::int` })
      .from(proposalReviewers)
      .innerJoin(proposals, eq(proposals.id, proposalReviewers.proposalId))
      .where(and(eq(proposals.callId, call.id), eq(proposalReviewers.userId, actor.id))),
  ]);
  const own = caps.get(actor.id);
  const list: Biddable[] = rows.map((row) => ({
    proposalId: row.id,
    name: row.name,
    typeName: row.typeName,
    facilities: facilities.get(row.id) ?? [],
    institutions: institutions.get(row.id) ?? [],
    preference: (row.preference as Preference | null) ?? 'neutral',
  }));
  return {
    biddingOpen: call.biddingOpen && !call.closed,
    biddingShowsProposals: call.biddingShowsProposals,
    cap: effectiveCap(own?.chairCap, own?.memberCap, fallback),
    chairCap: own?.chairCap ?? fallback,
    load: Number(load?.count ?? 0),
    proposals: list,
  };
}

/**
 * POST /calls/{callId}/bids/: saves the member's bid on one proposal; neutral deletes it
 * (no row is neutral). 403 for anyone not a current member, 409 while bidding is closed,
 * 404 for a proposal that is not a submitted one of this call, 403 for their own or one
 * they have a conflict with.
 */
export async function saveBid(
  work: Work,
  callId: number,
  input: BidRequest,
): Promise<{ proposalId: number; preference: Preference }> {
  const { tx, actor, now } = work;
  const call = await callOf(work, callId);
  const decision = mayBid(call, isMemberOf(work, call));
  if (decision !== true) throw refusalError(decision);
  const [proposal] = await tx
    .select({
      id: proposals.id,
      biddable: sql<boolean>`(not ${ownSql(actor.id)} and not ${conflictedSql(actor.id, call)})`,
    })
    .from(proposals)
    .where(and(submittedOfCall(call.id), eq(proposals.id, input.proposalId)));
  if (!proposal) throw notFound(proposalMessages.notFound);
  if (!proposal.biddable) throw forbidden(assignmentMessages.cannotBid);
  const pair = and(eq(assignmentBids.proposalId, proposal.id), eq(assignmentBids.userId, actor.id));
  if (input.preference === 'neutral') await tx.delete(assignmentBids).where(pair);
  else
    await tx
      .insert(assignmentBids)
      .values({ proposalId: proposal.id, userId: actor.id, preference: input.preference, at: now })
      .onConflictDoUpdate({
        target: [assignmentBids.proposalId, assignmentBids.userId],
        set: { preference: input.preference, at: now },
      });
  return { proposalId: proposal.id, preference: input.preference };
}
