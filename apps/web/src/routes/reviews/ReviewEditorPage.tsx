import { useMemo, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { useIdParam } from '../../components/use-id-param';
import { useCurrentUser } from '../../features/auth/session-hooks';
import { isDeclarationRequired } from '../../features/conflicts/conflicts.api';
import { DeclarationGate } from '../../features/conflicts/DeclarationGate';
import { editorForms } from '../../features/proposals/editor/editor-state';
import { useProposal, useProposalFormOrder } from '../../features/proposals/proposals.api';
import { ReviewEditor } from '../../features/reviews/editor/ReviewEditor';
import { formsOfType, scoreFormsOf } from '../../features/reviews/review-forms';
import { reviewPath } from '../../features/reviews/review-paths';
import {
  useProposalReviews,
  useReview,
  useReviewFormOrder,
} from '../../features/reviews/reviews.api';

/**
 * /calls/{callId}/proposals/{proposalId}/review/ (a new review) and
 * /calls/{callId}/proposals/{proposalId}/reviews/{reviewId}/ (spec section 2, Reviews):
 * the review editor. Both addresses are this page, so that a new review's first save
 * moves to its own address without losing what is on screen.
 */
export default function ReviewEditorPage() {
  const callId = useIdParam('callId');
  const proposalId = useIdParam('proposalId');
  const reviewId = useIdParam('reviewId');
  const hasReviewId = useParams().reviewId !== undefined;
  if (callId === null || proposalId === null || (hasReviewId && reviewId === null))
    return <NotFoundView />;
  return (
    <ReviewEditorView
      key={proposalId}
      callId={callId}
      proposalId={proposalId}
      reviewId={reviewId}
    />
  );
}

function ReviewEditorView({
  callId,
  proposalId,
  reviewId,
}: {
  callId: number;
  proposalId: number;
  reviewId: number | null;
}) {
  const user = useCurrentUser();
  // The review this page made with its first save: its address is this page's now, and
  // the editor on screen (with its answers) stays.
  const [createdId, setCreatedId] = useState<number | null>(null);
  const existingId = reviewId !== null && reviewId !== createdId ? reviewId : null;

  const proposal = useProposal(proposalId);
  const proposalOrder = useProposalFormOrder(callId);
  const reviewOrder = useReviewFormOrder(callId);
  const review = useReview(proposalId, existingId ?? 0, existingId !== null);
  // Someone who has written a review of it already finds theirs at the new review's
  // address (the link in the reviewer's mail leads there).
  const lookForOwn =
    reviewId === null && createdId === null && proposal.data?.abilities.viewReviews === true;
  const list = useProposalReviews(callId, proposalId, lookForOwn);

  const typeId = proposal.data?.proposalTypeId;
  const proposalForms = useMemo(
    () => editorForms(formsOfType(proposalOrder.data ?? [], typeId)),
    [proposalOrder.data, typeId],
  );
  const reviewForms = useMemo(
    () => formsOfType(reviewOrder.data ?? [], typeId),
    [reviewOrder.data, typeId],
  );
  const forms = useMemo(() => editorForms(reviewForms), [reviewForms]);
  const scoreForms = useMemo(() => scoreFormsOf(reviewForms), [reviewForms]);

  const queries = [proposal, proposalOrder, reviewOrder, ...(existingId !== null ? [review] : [])];
  if (queries.some((query) => query.data === undefined) || (lookForOwn && list.isPending)) {
    const failed = queries.find((query) => query.data === undefined && query.isError);
    // A member who must first say whether they have a conflict of interest with it.
    if (failed && isDeclarationRequired(failed.error))
      return <DeclarationGate proposalId={proposalId} callId={callId} />;
    if (failed)
      return <LoadFailedView error={failed.error} onRetry={() => void failed.refetch()} />;
    return <LoadingView label="Loading the review…" />;
  }
  const loaded = proposal.data!;
  // The proposal exists, but under another call than the address says.
  if (loaded.callId !== callId) return <NotFoundView />;

  const own = lookForOwn ? list.data?.reviews.find((item) => item.authorId === user.id) : undefined;
  if (own) return <Navigate to={reviewPath(callId, proposalId, own.id)} replace />;

  if (forms.length === 0) {
    return (
      <>
        <PageHeading>{`Review of ${loaded.proposalName}`}</PageHeading>
        <EmptyState>This proposal type has no review forms.</EmptyState>
      </>
    );
  }
  return (
    <ReviewEditor
      // A review loaded from its address is its own editor; a new one stays after saving.
      key={existingId ?? 'new'}
      proposal={loaded}
      proposalForms={proposalForms}
      forms={forms}
      scoreForms={scoreForms}
      review={existingId !== null ? review.data! : null}
      onCreated={setCreatedId}
    />
  );
}
