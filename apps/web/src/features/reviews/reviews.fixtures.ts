import type {
  CommitteeMember,
  MyReview,
  PendingReview,
  ProposalAbilities,
  ProposalReviewList,
  ReviewDetail,
  ReviewSummary,
} from '@merit/contract';
import { readerAbilities } from '../proposals/proposals.fixtures';
import type { FormOrder } from './review-forms';

/** Test data only: what an assigned member may do with a submitted proposal in review. */
export const reviewerAbilities: ProposalAbilities = {
  ...readerAbilities,
  review: true,
  viewReviews: true,
};

/** What a chair may do with a submitted proposal of their committee's call. */
export const chairProposalAbilities: ProposalAbilities = {
  ...readerAbilities,
  viewReviews: true,
  manageReviewers: true,
};

/**
 * The review forms of type 40 (proposals.fixtures' makeFormOrder is its proposal side):
 * Science Review (required strengths, and weaknesses) and Scores (a Review Score Form
 * averaging two fields of 1 to 5, chosen with radio buttons).
 */
export function makeReviewFormOrder(): FormOrder {
  return [
    {
      typeId: 40,
      typeName: 'Standard',
      forms: [
        {
          id: 5,
          name: 105,
          display_name: 'Science Review',
          type: 2,
          version: '1.0',
          jsonSchema: {
            type: 'object',
            required: ['strengths'],
            properties: {
              strengths: { type: 'string', title: 'Strengths' },
              weaknesses: { type: 'string', title: 'Weaknesses' },
            },
          },
          uiSchema: { strengths: { 'ui:widget': 'textarea' } },
          initialData: null,
          options: null,
        },
        {
          id: 6,
          name: 106,
          display_name: 'Scores',
          type: 3,
          version: '1.0',
          jsonSchema: {
            type: 'object',
            properties: {
              significance: { type: 'integer', title: 'Significance', enum: [1, 2, 3, 4, 5] },
              feasibility: { type: 'integer', title: 'Feasibility', enum: [1, 2, 3, 4, 5] },
            },
          },
          uiSchema: {
            significance: { 'ui:widget': 'radio', 'ui:options': { inline: true } },
            feasibility: { 'ui:widget': 'radio', 'ui:options': { inline: true } },
          },
          initialData: null,
          options: { method: 'average', fields: ['significance', 'feasibility'] },
        },
      ],
    },
  ];
}

/** Review 90 of proposal 30 by Grace Hopper (user 9), as GET /reviews/30/90/ sends it. */
export function makeReviewDetail(overrides: Partial<ReviewDetail> = {}): ReviewDetail {
  return {
    id: 90,
    proposalId: 30,
    proposalName: 'Dark matter survey',
    proposalAuthor: 'Ada Lovelace',
    callId: 12,
    authorId: 9,
    author: 'Grace Hopper',
    responses: {
      '5': { strengths: 'A clear plan.', weaknesses: 'Few nights.' },
      '6': { significance: 4, feasibility: 3 },
    },
    scores: [
      { name: 'significance', value: 4 },
      { name: 'feasibility', value: 3 },
    ],
    score: 3.5,
    lastModified: '2026-04-10T09:00:00.000Z',
    version: 3,
    abilities: { edit: false },
    ...overrides,
  };
}

export function makeReviewSummary(overrides: Partial<ReviewSummary> = {}): ReviewSummary {
  return {
    id: 90,
    authorId: 9,
    author: 'Grace Hopper',
    score: 3.5,
    scores: [
      { name: 'significance', value: 4 },
      { name: 'feasibility', value: 3 },
    ],
    comments: [
      { name: 'Strengths', value: 'A clear plan.' },
      { name: 'Weaknesses', value: 'Few nights.' },
    ],
    lastModified: '2026-04-10T09:00:00.000Z',
    abilities: { edit: false },
    ...overrides,
  };
}

export function makeReviewList(overrides: Partial<ProposalReviewList> = {}): ProposalReviewList {
  return {
    proposalId: 30,
    proposalName: 'Dark matter survey',
    callId: 12,
    reviews: [makeReviewSummary()],
    reviewers: [{ id: 9, name: 'Grace Hopper' }],
    ...overrides,
  };
}

export function makePendingReview(overrides: Partial<PendingReview> = {}): PendingReview {
  return {
    committeeName: 'Synchrotron',
    callId: 12,
    callName: 'Beamtime 2026',
    proposalId: 30,
    proposalName: 'Dark matter survey',
    reviewDeadline: '2026-05-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeMyReview(overrides: Partial<MyReview> = {}): MyReview {
  return {
    callName: 'Beamtime 2026',
    proposalName: 'Dark matter survey',
    reviewId: 90,
    proposalId: 30,
    callId: 12,
    score: 3.5,
    lastModified: '2026-04-10T09:00:00.000Z',
    ...overrides,
  };
}

/** A current member of committee 3 (calls.fixtures' makeCall). */
export function makeCommitteeMember(overrides: Partial<CommitteeMember> = {}): CommitteeMember {
  return {
    roleId: 1,
    userId: 9,
    name: 'Grace Hopper',
    email: 'grace@example.org',
    is_active: true,
    role: 'MEMBER',
    commencement: '2026-01-01T00:00:00.000Z',
    termination: '2026-12-31T00:00:00.000Z',
    ...overrides,
  };
}
