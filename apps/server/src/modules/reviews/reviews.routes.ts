import {
  errorBody,
  myReviewList,
  noContent,
  pendingReviewCount,
  pendingReviewList,
  pendingReviewsQuery,
  proposalReviewList,
  proposalReviewsParams,
  reviewDetail,
  reviewer,
  reviewerChange,
  reviewParams,
  reviewResponseSave,
  reviewResponseSaved,
  RESPONSE_SAVE_BODY_LIMIT,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changeRefusals } from '../../platform/http/routes.js';
import {
  assignReviewer,
  getMyReviews,
  getPendingReviewCount,
  getPendingReviews,
  getReview,
  listProposalReviews,
  removeReviewer,
  saveReviewResponse,
} from './reviews.service.js';
import { logReviewRead } from './review-access.js';

const tags = ['reviews'];
const refusals = changeRefusals;

/**
 * Reviews (spec sections 2 to 7, issue 13): assigning reviewers, saving review forms,
 * reading reviews, pending reviews and one's own. Every route loads the proposal and
 * decides with the domain's reviewing rules, which never let its authors see a review.
 */
export const reviewsRoutes: FastifyPluginAsyncZod = async (app) => {
  const publicUrl = app.config.publicUrl;

  app.post(
    '/reviewers/',
    {
      schema: {
        tags,
        summary: 'Assign a committee member to review a proposal (chairs)',
        body: reviewerChange,
        response: { 201: reviewer, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await app.write(request, (work) => assignReviewer(work, request.body, publicUrl))),
  );

  app.delete(
    '/reviewers/',
    {
      schema: {
        tags,
        summary: "Take back a reviewer's assignment (chairs)",
        body: reviewerChange,
        response: { 204: noContent, ...refusals },
      },
    },
    async (request, reply) => {
      await app.write(request, (work) => removeReviewer(work, request.body, publicUrl));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/review_responses/',
    {
      bodyLimit: RESPONSE_SAVE_BODY_LIMIT,
      schema: {
        tags,
        summary: "Save one review form of the caller's review, making the review on its first save",
        body: reviewResponseSave,
        response: { 200: reviewResponseSaved, ...refusals, 413: errorBody },
      },
    },
    async (request) => app.write(request, (work) => saveReviewResponse(work, request.body)),
  );

  app.get(
    '/reviews/:proposalId/:reviewId/',
    {
      schema: {
        tags,
        summary: 'One review with its answers and scores',
        params: reviewParams,
        response: { 200: reviewDetail, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const review = await app.read(request, (work) =>
        getReview(work, request.params.proposalId, request.params.reviewId),
      );
      const { callId, proposalId } = review;
      return logReviewRead(request, { kind: 'review', callId, proposalId, reviews: 1 }, review);
    },
  );

  app.get(
    '/calls/:callId/proposals/:proposalId/reviews/',
    {
      schema: {
        tags,
        summary: "A proposal's reviews the caller may see, its reviewers, and chairs' totals",
        params: proposalReviewsParams,
        response: { 200: proposalReviewList, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const list = await app.read(request, (work) =>
        listProposalReviews(work, request.params.callId, request.params.proposalId),
      );
      const { callId, proposalId, reviews } = list;
      const read = { kind: 'proposal_reviews' as const, reviews: reviews.length };
      return logReviewRead(request, { ...read, callId, proposalId }, list);
    },
  );

  app.get(
    '/pending_reviews/',
    {
      schema: {
        tags,
        summary:
          'The proposals the caller may review now and has not reviewed: a page, nearest deadline first',
        querystring: pendingReviewsQuery,
        response: { 200: pendingReviewList, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => app.read(request, (work) => getPendingReviews(work, request.query)),
  );

  app.get(
    '/pending_reviews/count/',
    {
      schema: {
        tags,
        summary: 'How many proposals the caller may review now and has not reviewed',
        response: { 200: pendingReviewCount, 401: errorBody },
      },
    },
    async (request) => app.read(request, (work) => getPendingReviewCount(work)),
  );

  app.get(
    '/reviews/',
    {
      schema: {
        tags,
        summary: "The caller's own reviews, newest change first",
        response: { 200: myReviewList, 401: errorBody },
      },
    },
    async (request) => app.read(request, (work) => getMyReviews(work)),
  );
};
