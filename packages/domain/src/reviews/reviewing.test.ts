import { describe, expect, it } from 'vitest';
import type { CommitteeActor } from '../permissions/committee.js';
import { conflictMessages, type ConflictState } from '../conflicts/conflicts.js';
import {
  inSubmissionStage,
  isConflicted,
  mayManageReviewers,
  mayReview,
  reviewAccess,
  reviewerCandidateProblem,
  reviewMessages,
  type ReviewedProposal,
} from './reviewing.js';

const t = (s: string) => new Date(`2027-${s}Z`);
const call = {
  committeeId: 7,
  closed: false,
  commencement: t('03-01T00:00:00'),
  termination: t('04-01T00:00:00'),
  reviewCommencement: t('04-15T00:00:00'),
  reviewTermination: t('05-15T00:00:00'),
  isReviewOpen: false,
  conflictsEnabled: true,
  declarationRequired: true,
};
const role = (committeeId: number, r: 'CHAIR' | 'MEMBER') => ({
  committeeId,
  role: r,
  commencement: t('01-01T00:00:00'),
  termination: t('12-31T00:00:00'),
});
const actors = {
  author: { id: 1, isAdmin: false, roles: [role(7, 'MEMBER')] },
  collaborator: { id: 2, isAdmin: false, roles: [role(7, 'MEMBER')] },
  chair: { id: 3, isAdmin: false, roles: [role(7, 'CHAIR')] },
  assigned: { id: 4, isAdmin: false, roles: [role(7, 'MEMBER')] },
  member: { id: 5, isAdmin: false, roles: [role(7, 'MEMBER')] },
  otherChair: { id: 6, isAdmin: false, roles: [role(8, 'CHAIR')] },
  outsider: { id: 8, isAdmin: false, roles: [] },
  admin: { id: 9, isAdmin: true, roles: [] },
} satisfies Record<string, CommitteeActor>;
type Who = keyof typeof actors;

const submitted: ReviewedProposal = {
  call,
  authorId: 1,
  collaboratorIds: [2],
  stateVal: 1,
  authorExtensions: [],
  reviewerIds: [4],
  actorHasReview: false,
  actorConflict: null,
  actorDeclared: false,
};
const reviewOpens = call.reviewCommencement;
const reviewCloses = call.reviewTermination;
const ms = (date: Date, delta: number) => new Date(date.getTime() + delta);
const during = t('04-20T00:00:00');

const outcome = (who: Who, proposal: ReviewedProposal, now: Date) => {
  const decision = mayReview(actors[who], proposal, now);
  return decision === true ? true : decision.message;
};

describe('reviewing requires all six conditions (spec section 6)', () => {
  it.each([
    ['the assigned member, in the review window', 'assigned', submitted, during, true],
    [
      'the chair, not assigned, review not open to all',
      'chair',
      submitted,
      during,
      reviewMessages.notAssigned,
    ],
    ['a member, not assigned', 'member', submitted, during, reviewMessages.notAssigned],
    [
      'a member, when review is open to all',
      'member',
      { ...submitted, call: { ...call, isReviewOpen: true } },
      during,
      true,
    ],
    [
      'the author, even if assigned',
      'author',
      { ...submitted, reviewerIds: [1] },
      during,
      reviewMessages.ownProposal,
    ],
    [
      'a collaborator, even if assigned',
      'collaborator',
      { ...submitted, reviewerIds: [2] },
      during,
      reviewMessages.ownProposal,
    ],
    [
      'a chair of another committee, assigned',
      'otherChair',
      { ...submitted, reviewerIds: [6] },
      during,
      reviewMessages.notMember,
    ],
    [
      'an outsider, assigned',
      'outsider',
      { ...submitted, reviewerIds: [8] },
      during,
      reviewMessages.notMember,
    ],
    ['an admin, assigned', 'admin', { ...submitted, reviewerIds: [9] }, during, true],
    [
      'the assigned member, on a draft',
      'assigned',
      { ...submitted, stateVal: 0 },
      during,
      reviewMessages.notSubmitted,
    ],
    ['at the moment the review window opens', 'assigned', submitted, reviewOpens, true],
    [
      'just before it opens',
      'assigned',
      submitted,
      ms(reviewOpens, -1),
      reviewMessages.windowClosed,
    ],
    ['just before it closes', 'assigned', submitted, ms(reviewCloses, -1), true],
    ['at the moment it closes', 'assigned', submitted, reviewCloses, reviewMessages.windowClosed],
    [
      'while the author’s extension keeps submission open',
      'assigned',
      {
        ...submitted,
        authorExtensions: [{ commencement: t('04-10T00:00:00'), termination: t('04-25T00:00:00') }],
      },
      during,
      reviewMessages.submissionOpen,
    ],
    [
      'once the author’s extension has ended',
      'assigned',
      {
        ...submitted,
        authorExtensions: [{ commencement: t('04-10T00:00:00'), termination: t('04-20T00:00:00') }],
      },
      during,
      true,
    ],
    [
      'on a closed call',
      'assigned',
      { ...submitted, call: { ...call, closed: true } },
      during,
      reviewMessages.windowClosed,
    ],
  ] as const)('%s', (_name, who, proposal, now, expected) => {
    expect(outcome(who, proposal, now)).toBe(expected);
  });
});

describe('who sees the reviews of a proposal', () => {
  it.each([
    ['chair', submitted, 'all'],
    ['admin', submitted, 'all'],
    ['assigned', submitted, 'all'],
    ['member', submitted, 'none'],
    ['member', { ...submitted, actorHasReview: true }, 'own'],
    ['author', { ...submitted, actorHasReview: true }, 'none'],
    ['collaborator', submitted, 'none'],
    ['otherChair', submitted, 'none'],
    ['outsider', submitted, 'none'],
  ] as const)('%s -> %s', (who, proposal, expected) => {
    expect(reviewAccess(actors[who], proposal, during)).toBe(expected);
  });

  it('never lets a chair see the reviews of a proposal they are on', () => {
    const own = { ...submitted, collaboratorIds: [3] };
    expect(reviewAccess(actors.chair, own, during)).toBe('none');
  });
});

describe('assigning reviewers', () => {
  const beforeDeadline = t('03-20T00:00:00');
  it('waits until the proposal leaves the submission stage', () => {
    const draft = { ...submitted, stateVal: 0 };
    expect(inSubmissionStage(draft, beforeDeadline)).toBe(true);
    expect(inSubmissionStage(submitted, beforeDeadline)).toBe(false);
    expect(inSubmissionStage(draft, call.termination)).toBe(false);
    expect(mayManageReviewers(actors.chair, draft, beforeDeadline)).toMatchObject({
      kind: 'conflict',
      message: reviewMessages.submissionStage,
    });
    expect(mayManageReviewers(actors.chair, submitted, beforeDeadline)).toBe(true);
  });

  it('is for the chairs of the call’s committee and admins only', () => {
    expect(mayManageReviewers(actors.admin, submitted, during)).toBe(true);
    for (const who of ['member', 'otherChair', 'author', 'outsider'] as const)
      expect(mayManageReviewers(actors[who], submitted, during)).toMatchObject({
        kind: 'forbidden',
      });
  });

  it.each([
    ['member', null],
    ['chair', null],
    ['assigned', reviewMessages.alreadyReviewer],
    ['author', reviewMessages.reviewerIsTeam],
    ['collaborator', reviewMessages.reviewerIsTeam],
    ['otherChair', reviewMessages.reviewerNotMember],
    ['outsider', reviewMessages.reviewerNotMember],
    ['admin', reviewMessages.reviewerNotMember],
  ] as const)('may %s be assigned? %s', (who, expected) => {
    expect(reviewerCandidateProblem(actors[who], submitted, during)).toBe(expected);
  });
});

describe('conflicts of interest', () => {
  const withConflict = (state: ConflictState, proposal = submitted): ReviewedProposal => ({
    ...proposal,
    actorConflict: { type: 'personal', source: 'chair', state, pinned: false },
  });
  const off = { ...submitted, call: { ...call, conflictsEnabled: false } };

  it.each([
    ['a confirmed conflict', 'assigned', withConflict('confirmed'), true],
    ['a suggested one', 'assigned', withConflict('suggested'), false],
    ['a dismissed one', 'assigned', withConflict('dismissed'), false],
    ['none', 'assigned', submitted, false],
    [
      'a confirmed one, on a call with conflicts off',
      'assigned',
      withConflict('confirmed', off),
      false,
    ],
    // The team is kept away as the team, not as conflicted.
    ['the author with a confirmed one', 'author', withConflict('confirmed'), false],
    ['an admin with a confirmed one', 'admin', withConflict('confirmed'), true],
  ] as const)('%s: conflicted %s', (_name, who, proposal, expected) => {
    expect(isConflicted(actors[who], proposal)).toBe(expected);
  });

  it('refuses a conflicted reviewer, even assigned, and tells them why', () => {
    expect(outcome('assigned', withConflict('confirmed'), during)).toBe(
      conflictMessages.reviewConflicted,
    );
    expect(outcome('assigned', withConflict('suggested'), during)).toBe(true);
    expect(outcome('assigned', withConflict('confirmed', off), during)).toBe(true);
    // Their own proposal is the reason a team member gives, whatever else is recorded.
    expect(outcome('author', { ...withConflict('confirmed'), reviewerIds: [1] }, during)).toBe(
      reviewMessages.ownProposal,
    );
  });

  it('shows a conflicted person none of the reviews, not even their own', () => {
    for (const who of ['chair', 'admin', 'assigned'] as const)
      expect(reviewAccess(actors[who], withConflict('confirmed'), during)).toBe('none');
    const ownReview = { ...withConflict('confirmed'), actorHasReview: true };
    expect(reviewAccess(actors.member, ownReview, during)).toBe('none');
    expect(reviewAccess(actors.chair, withConflict('dismissed'), during)).toBe('all');
  });

  it('lets another chair assign the reviewers of a proposal a chair is conflicted with', () => {
    expect(mayManageReviewers(actors.chair, withConflict('confirmed'), during)).toEqual({
      kind: 'forbidden',
      message: conflictMessages.chairConflicted,
    });
    expect(mayManageReviewers(actors.chair, withConflict('suggested'), during)).toBe(true);
  });

  it("leaves a candidate's conflict to the override: not a problem of this kind", () => {
    // The chair may assign a conflicted member with a written reason (a 409 without one).
    expect(reviewerCandidateProblem(actors.member, withConflict('confirmed'), during)).toBeNull();
  });
});

describe('a stale review save', () => {
  const at = new Date('2026-03-03T14:32:00Z');
  it('says when the review was saved, in UTC, saying so, the same for every reader', () => {
    expect(reviewMessages.stale(at)).toContain('changed on 3 Mar 2026, 14:32 UTC');
    expect(reviewMessages.reviewExists(at)).toContain('last changed on 3 Mar 2026, 14:32 UTC');
    expect(reviewMessages.reviewExists(at)).toContain('Open your saved review');
  });
});
