import { proposalScores, reviewAccess } from '@merit/domain';
import type { ReadWork } from '../../lib/work.js';
import type { LoadedProposal } from '../proposals/proposals.queries.js';
import { reviewersAndScoresOf } from './reviews.queries.js';

/**
 * What a proposal's page adds for those who see all its reviews (chairs, members who
 * may review it): its reviewers, whether it is Reviewed, and its scores. Nothing at all
 * for anyone else, its author and collaborators above all.
 */
export async function reviewFactsOf(work: ReadWork, loaded: LoadedProposal) {
  if (reviewAccess(work.actor, loaded.resource, work.now) !== 'all') return {};
  const { reviewers, reviews } = await reviewersAndScoresOf(work.tx, loaded.proposal.id);
  return {
    reviewers,
    isReviewed: loaded.reviewed,
    reviewScores: proposalScores(reviews),
  };
}
