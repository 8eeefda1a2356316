import { proposalScores, reviewAccess, type Score } from '@merit/domain';
import type { ReadWork } from '../../lib/work.js';
import type { LoadedProposal } from '../proposals/proposals.queries.js';
import type { ReviewerName } from './reviews.queries.js';

/** Whether the caller sees all of a proposal's reviews, and so its review facts. */
export const seesReviewFacts = (work: ReadWork, loaded: LoadedProposal) =>
  reviewAccess(work.actor, loaded.resource, work.now) === 'all';

/**
 * What a proposal's page adds for those who see all its reviews (chairs, members who
 * may review it): its reviewers, whether it is Reviewed, and its scores. Nothing at all
 * for anyone else, its author and collaborators above all.
 */
export function reviewFactsOf(
  work: ReadWork,
  loaded: LoadedProposal,
  read: { reviewers: ReviewerName[]; reviews: { score: number | null; scores: Score[] }[] },
) {
  if (!seesReviewFacts(work, loaded)) return {};
  return {
    reviewers: read.reviewers,
    isReviewed: loaded.reviewed,
    reviewScores: proposalScores(read.reviews),
  };
}
