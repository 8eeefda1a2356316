import { describe, expect, it } from 'vitest';
import type { ReviewedProposal } from '../reviews/reviewing.js';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  auditEntityType,
  historyReader,
  historyRowFor,
  TEAM_TIMELINE_ACTIONS,
} from './history.js';

const t = (s: string) => new Date(`2027-${s}Z`);
const role = (committeeId: number, r: 'CHAIR' | 'MEMBER') => ({
  committeeId,
  role: r,
  commencement: t('01-01T00:00:00'),
  termination: t('12-31T00:00:00'),
});
const actors = {
  author: { id: 1, isAdmin: false, roles: [] },
  collaborator: { id: 2, isAdmin: false, roles: [] },
  member: { id: 3, isAdmin: false, roles: [role(7, 'MEMBER')] },
  chair: { id: 4, isAdmin: false, roles: [role(7, 'CHAIR')] },
  otherChair: { id: 8, isAdmin: false, roles: [role(9, 'CHAIR')] },
  admin: { id: 5, isAdmin: true, roles: [] },
  adminAuthor: { id: 1, isAdmin: true, roles: [] },
};
const proposal: ReviewedProposal = {
  call: {
    committeeId: 7,
    closed: false,
    commencement: t('03-01T00:00:00'),
    termination: t('04-01T00:00:00'),
    reviewCommencement: t('04-15T00:00:00'),
    reviewTermination: t('05-15T00:00:00'),
    isReviewOpen: false,
    conflictsEnabled: true,
    declarationRequired: false,
  },
  authorId: 1,
  collaboratorIds: [2],
  stateVal: 1,
  authorExtensions: [],
  reviewerIds: [3],
  actorHasReview: false,
  actorConflict: null,
  actorDeclared: true,
};
const now = t('04-20T00:00:00');
const conflicted = {
  ...proposal,
  actorConflict: {
    type: 'other' as const,
    source: 'reviewer' as const,
    state: 'confirmed' as const,
    pinned: false,
  },
};

describe('who reads a proposal’s history, and how', () => {
  it.each([
    ['author', 'team'],
    ['collaborator', 'team'],
    ['member', null],
    ['chair', 'chair'],
    ['otherChair', null],
    ['admin', 'admin'],
    // On their own proposal an administrator is its applicant first.
    ['adminAuthor', 'team'],
  ] as const)('%s: %s', (persona, reader) => {
    expect(historyReader(actors[persona], proposal, now)).toBe(reader);
  });

  it('never a chair or an administrator with a conflict with it', () => {
    expect(historyReader(actors.chair, conflicted, now)).toBeNull();
    expect(historyReader(actors.admin, conflicted, now)).toBeNull();
  });
});

describe('what each reader sees of a row', () => {
  const team = [1, 2];
  const save = { action: 'proposal.save', actorId: 2, changes: { forms: { after: [4] } } };
  const review = {
    action: 'review.save',
    actorId: 3,
    changes: { forms: { after: [9] }, hash: { after: 77 } },
  };
  const chairs = { action: 'proposal.add_reviewer', actorId: 4, changes: { userId: { after: 3 } } };

  it('shows the team only what its members did to the proposal', () => {
    expect(historyRowFor('team', save, team)).toBe(save);
    expect(historyRowFor('team', review, team)).toBeNull();
    expect(historyRowFor('team', chairs, team)).toBeNull();
    // A team member's own action outside the timeline (a conflict they declared) stays out too.
    expect(
      historyRowFor('team', { action: 'conflict.create', actorId: 1, changes: {} }, team),
    ).toBeNull();
  });

  it('shows a chair which fields of a review changed, not their values', () => {
    expect(historyRowFor('chair', review, team)?.changes).toEqual({ forms: {}, hash: {} });
    expect(historyRowFor('chair', chairs, team)).toBe(chairs);
  });

  it('shows an administrator everything', () => {
    expect(historyRowFor('admin', review, team)).toBe(review);
  });
});

describe('the actions', () => {
  it('each has words, and its entity before the dot', () => {
    for (const action of AUDIT_ACTIONS) {
      expect(AUDIT_ACTION_LABELS[action].length).toBeGreaterThan(3);
      expect(auditEntityType(action)).toMatch(/^[a-z_]+$/);
    }
    expect(TEAM_TIMELINE_ACTIONS.every((a) => AUDIT_ACTIONS.includes(a))).toBe(true);
  });
});
