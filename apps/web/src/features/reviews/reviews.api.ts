import type { PendingReview, ReviewResponseSave } from '@merit/contract';
import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { noBody } from '../../api/contract';
import { proposalKeys } from '../proposals/proposals.api';

/**
 * Query keys of the review screens. A review or an assignment changes what the
 * proposal shows its chairs (reviewers, scores, state), so `refreshReviews` refreshes
 * the proposals' queries too.
 */
export const reviewKeys = {
  all: ['reviews'] as const,
  pending: ['reviews', 'pending'] as const,
  pendingCount: ['reviews', 'pending', 'count'] as const,
  mine: ['reviews', 'mine'] as const,
  ofProposal: (callId: number, proposalId: number) =>
    ['reviews', 'proposal', callId, proposalId] as const,
  detail: (proposalId: number, reviewId: number) =>
    ['reviews', 'detail', proposalId, reviewId] as const,
  // Not under `reviews`: a call's forms cannot change once reviews are saved (spec section 4).
  formOrder: (callId: number) => ['review-form-order', callId] as const,
  committeeMembers: (committeeId: number) => ['committee-members', committeeId] as const,
};

/** Each proposal type's review forms in the call's order, with their schemas and options. */
export function useReviewFormOrder(callId: number, enabled = true) {
  return useQuery({
    queryKey: reviewKeys.formOrder(callId),
    enabled,
    queryFn: ({ signal }) =>
      apiRequest(`/review_form_order/${callId}/`, { schema: (c) => c.formOrder, signal }),
    staleTime: Infinity,
  });
}

/** The reviews of a proposal that the caller may see, its reviewers and (chairs) the totals. */
export function useProposalReviews(callId: number, proposalId: number, enabled = true) {
  return useQuery({
    queryKey: reviewKeys.ofProposal(callId, proposalId),
    queryFn: ({ signal }) =>
      apiRequest(`/calls/${callId}/proposals/${proposalId}/reviews/`, {
        schema: (c) => c.proposalReviewList,
        signal,
      }),
    enabled,
  });
}

export function useReview(proposalId: number, reviewId: number, enabled = true) {
  return useQuery({
    queryKey: reviewKeys.detail(proposalId, reviewId),
    queryFn: ({ signal }) =>
      apiRequest(`/reviews/${proposalId}/${reviewId}/`, { schema: (c) => c.reviewDetail, signal }),
    enabled,
  });
}

/**
 * Rows a page of My Pending Reviews asks for: the server's largest page (the contract's
 * PENDING_REVIEWS_PAGE, which the browser does not load before the contract's code).
 */
export const PENDING_PAGE_SIZE = 100;

/**
 * The proposals the caller may review now and have not (My Pending Reviews), nearest
 * deadline first, a page at a time: an admin's can be every proposal of every open call.
 * `fetchNextPage` adds the next; a page shorter than asked for is the last.
 */
export function usePendingReviews(enabled = true) {
  return useInfiniteQuery({
    queryKey: reviewKeys.pending,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`/pending_reviews/?limit=${PENDING_PAGE_SIZE}&offset=${pageParam}`, {
        schema: (c) => c.pendingReviewList,
        signal,
      }),
    getNextPageParam: (last, pages) =>
      last.length < PENDING_PAGE_SIZE ? undefined : pages.length * PENDING_PAGE_SIZE,
    select: (data) => uniqueRows(data.pages),
    enabled,
  });
}

/** The pages' rows, each proposal once: a review saved meanwhile shifts the later pages. */
function uniqueRows(pages: readonly PendingReview[][]): PendingReview[] {
  const seen = new Set<number>();
  return pages.flat().filter((row) => !seen.has(row.proposalId) && seen.add(row.proposalId));
}

/** How many pending reviews the caller has in all, counted on the server (the dashboard's panel). */
export function usePendingReviewCount(enabled = true) {
  return useQuery({
    queryKey: reviewKeys.pendingCount,
    queryFn: ({ signal }) =>
      apiRequest('/pending_reviews/count/', { schema: (c) => c.pendingReviewCount, signal }),
    enabled,
  });
}

/** The caller's own reviews, for the dashboard's My Reviews. */
export function useMyReviews(enabled = true) {
  return useQuery({
    queryKey: reviewKeys.mine,
    queryFn: ({ signal }) => apiRequest('/reviews/', { schema: (c) => c.myReviewList, signal }),
    enabled,
  });
}

/** The committee's current members: whom a chair may choose reviewers from. */
export function useCommitteeMembers(committeeId: number | undefined, enabled = true) {
  return useQuery({
    queryKey: reviewKeys.committeeMembers(committeeId ?? 0),
    queryFn: ({ signal }) =>
      apiRequest(`/committee_members/?committee=${committeeId}`, {
        schema: (c) => c.committeeMemberList,
        signal,
      }),
    enabled: enabled && committeeId !== undefined,
  });
}

/** What a chair adds to an assignment the server would otherwise refuse. */
export interface AssignOptions {
  /** The chair's written reason for a member with a conflict of interest (else 409 `conflict`). */
  overrideReason?: string;
  /** The chair's yes to a member past their cap (else 409 `over_cap`). */
  overCap?: boolean;
}

/** Assigns a reviewer. */
export function assignReviewer(
  proposalId: number,
  userId: number,
  { overrideReason, overCap }: AssignOptions = {},
) {
  return apiRequest('/reviewers/', {
    method: 'POST',
    body: {
      proposalId,
      userId,
      ...(overrideReason !== undefined ? { overrideReason } : {}),
      ...(overCap ? { overCap } : {}),
    },
    schema: (c) => c.reviewer,
  });
}

export function removeReviewer(proposalId: number, userId: number) {
  return apiRequest('/reviewers/', {
    method: 'DELETE',
    body: { proposalId, userId },
    schema: noBody,
  });
}

/** Saves one review form into the caller's review, making the review on its first save. */
export function saveReviewResponse(body: ReviewResponseSave) {
  return apiRequest('/review_responses/', {
    method: 'POST',
    body,
    schema: (c) => c.reviewResponseSaved,
  });
}

/** After a review or an assignment changes: the review screens and the proposals' pages. */
export async function refreshReviews(client: QueryClient): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: reviewKeys.all }),
    client.invalidateQueries({ queryKey: proposalKeys.all }),
  ]);
}

/**
 * The id of the caller's own review of the proposal, once the review list has said
 * (null before, and when they have none): Manage offers Edit Review instead of Add Review.
 * Asked only of those who may review it, who may also see its reviews.
 */
export function useOwnReviewId(
  proposal: { id: number; callId: number; abilities: { review: boolean; viewReviews: boolean } },
  userId: number,
): number | null {
  const { review, viewReviews } = proposal.abilities;
  const list = useProposalReviews(proposal.callId, proposal.id, review && viewReviews);
  return list.data?.reviews.find((item) => item.authorId === userId)?.id ?? null;
}
