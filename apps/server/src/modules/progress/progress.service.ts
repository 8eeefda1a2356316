import type { CallProgress } from '@merit/contract';
import { callMessages } from '@merit/domain';
import { authorize } from '../../platform/http/authorize.js';
import { notFound } from '../../platform/http/http-errors.js';
import type { ReadWork } from '../../platform/data/work.js';
import { callResource, findCall } from '../calls/calls.queries.js';
import { presentProgress } from './progress.presenter.js';
import { memberCountsOf, proposalProgressOf, savesPerDayOf } from './progress.queries.js';

/*
 * The chair's review progress of a call (issue 28): per member, per proposal and for the
 * call, as the reader may see it.
 */

/**
 * GET /calls/{callId}/progress/: the chairs of the call's committee and admins
 * (`call.followReview`), closed or not. A reader's own proposals and those they have an
 * enforced conflict of interest with are left out of every number (progress.queries.ts).
 */
export async function getProgress(work: ReadWork, callId: number): Promise<CallProgress> {
  const { tx, actor, now } = work;
  const found = await findCall(tx, callId);
  if (!found) throw notFound(callMessages.notFound);
  const { call } = found;
  authorize(actor, 'call.followReview', callResource(call, []), now);
  // Side by side: a read is not a transaction, so on PostgreSQL each query takes a
  // connection of the pool of its own.
  const [proposals, members, savesPerDay] = await Promise.all([
    proposalProgressOf(tx, call, actor),
    memberCountsOf(tx, call, actor, now),
    savesPerDayOf(tx, call, actor),
  ]);
  return presentProgress(call, proposals, members, savesPerDay, now);
}
