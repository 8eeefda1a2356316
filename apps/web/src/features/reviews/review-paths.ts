/** The addresses of the review pages (spec section 2, Reviews). */

/** The review editor for a new review of the proposal. */
export const newReviewPath = (callId: number, proposalId: number) =>
  `/calls/${callId}/proposals/${proposalId}/review/`;

/** The review editor for one review. */
export const reviewPath = (callId: number, proposalId: number, reviewId: number) =>
  `/calls/${callId}/proposals/${proposalId}/reviews/${reviewId}/`;

/** The proposal's review list. */
export const reviewListPath = (callId: number, proposalId: number) =>
  `/calls/${callId}/proposals/${proposalId}/reviews/`;
