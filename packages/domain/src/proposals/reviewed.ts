/**
 * What decides whether a proposal is Reviewed (ARCHITECTURE.md "Reviewed"): derived when
 * read, so it never goes stale. Lists compute the same rule in SQL
 * (apps/server calls.queries.ts `reviewedSql`); a server test holds the two to the same
 * answers.
 */
export interface ReviewProgress {
  stateVal: number;
  /** Everyone who has saved a review of the proposal. */
  reviewerIds: readonly number[];
  /** The reviewers a chair assigned. */
  assignedReviewerIds: readonly number[];
}

/** Submitted, at least one review saved, and every assigned reviewer has saved theirs. */
export function isReviewed(progress: ReviewProgress): boolean {
  if (progress.stateVal < 1 || progress.reviewerIds.length === 0) return false;
  const saved = new Set(progress.reviewerIds);
  return progress.assignedReviewerIds.every((id) => saved.has(id));
}
