import type { CallProgress } from '@merit/contract';
import { memberProgressOfCounts, wideSpreadThreshold } from '@merit/domain';
import type { CallRow } from '../calls/calls.queries.js';
import type { MemberCountsRow, ProposalProgressRow } from './progress.queries.js';

/**
 * The Progress page's answer from the counts: each member's numbers by the domain's
 * `memberProgress` (overdue once review has closed while the call is open), and the
 * call's totals over the proposals the reader follows.
 */
export function presentProgress(
  call: CallRow,
  proposals: readonly ProposalProgressRow[],
  members: readonly MemberCountsRow[],
  savesPerDay: CallProgress['savesPerDay'],
  now: Date,
): CallProgress {
  let saved = 0;
  let wanted = 0;
  let withoutReview = 0;
  for (const proposal of proposals) {
    saved += proposal.reviewsSaved;
    wanted += proposal.reviewsWanted;
    if (proposal.reviewsSaved === 0) withoutReview += 1;
  }
  return {
    members: members.map((member) => ({
      userId: member.userId,
      name: member.name,
      username: member.username,
      ...memberProgressOfCounts(member, call, now),
      lastReminded: member.lastReminded,
    })),
    proposals: [...proposals],
    totals: {
      saved,
      wanted,
      withoutReview,
      wideSpread: wideSpreadThreshold(proposals.map((proposal) => proposal.scoreSd)),
    },
    savesPerDay,
    reviewCommencement: call.reviewCommencement.toISOString(),
    reviewTermination: call.reviewTermination.toISOString(),
    closed: call.closed,
  };
}
