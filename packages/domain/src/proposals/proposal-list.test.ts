import { describe, expect, it } from 'vitest';
import type { CommitteeActor } from '../permissions/committee.js';
import { decide } from '../permissions/policies.js';
import { proposalListScope, seesReviewProgress, type ProposalRowScope } from './proposal-list.js';
import type { ProposalResource } from './proposal.policy.js';

const t = (iso: string) => new Date(`2026-${iso}Z`);
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
const during = t('03-10T00:00:00');

const role = (committeeId: number, r: 'CHAIR' | 'MEMBER', to = '12-31') => ({
  committeeId,
  role: r,
  commencement: t('01-01T00:00:00'),
  termination: t(`${to}T00:00:00`),
});
const actors = {
  outsider: { id: 1, isAdmin: false, roles: [] },
  member: { id: 2, isAdmin: false, roles: [role(7, 'MEMBER')] },
  chair: { id: 3, isAdmin: false, roles: [role(7, 'CHAIR')] },
  formerChair: { id: 4, isAdmin: false, roles: [role(7, 'CHAIR', '02-01')] },
  otherChair: { id: 5, isAdmin: false, roles: [role(8, 'CHAIR')] },
  admin: { id: 6, isAdmin: true, roles: [] },
} satisfies Record<string, CommitteeActor>;
type Who = keyof typeof actors;

describe('proposalListScope', () => {
  it.each<[Who, ProposalRowScope, boolean]>([
    ['outsider', 'own', false],
    ['member', 'submittedAndOwn', false],
    ['chair', 'all', true],
    // A role that has ended counts for nothing.
    ['formerChair', 'own', false],
    ['otherChair', 'own', false],
    ['admin', 'all', true],
  ])('%s sees %s, Reviewed %s', (who, rows, reviewed) => {
    expect(proposalListScope(actors[who], call, during)).toEqual({ rows, reviewed });
  });

  // The scope is the `view` rule for a whole call: what each scope lets through must be
  // exactly what `view` allows, for every persona, state and part the actor plays, but for
  // the conflict declaration's gate, which closes the proposal itself and not its list row
  // (a member sees the row, answers, then reads).
  const parts = ['author', 'collaborator', 'none'] as const;
  const cases = Object.keys(actors).flatMap((who) =>
    [0, 1].flatMap((stateVal) =>
      parts.flatMap((part) =>
        [false, true].map((declared) => [who as Who, stateVal, part, declared] as const),
      ),
    ),
  );
  it.each(cases)(
    '%s, stateVal %i, as %s, declared %s: the scope agrees with view',
    (who, stateVal, part, declared) => {
      const actor = actors[who];
      const proposal: ProposalResource = {
        call,
        authorId: part === 'author' ? actor.id : 99,
        collaboratorIds: part === 'collaborator' ? [actor.id] : [98],
        stateVal,
        authorExtensions: [],
        actorExtensions: [],
        lock: null,
        hasReviews: false,
        reviewerIds: [],
        actorHasReview: false,
        actorConflict: null,
        actorDeclared: declared,
      };
      const own = part !== 'none';
      const inScope = {
        all: true,
        submittedAndOwn: own || stateVal >= 1,
        own,
      }[proposalListScope(actor, call, during).rows];
      const view = decide('proposal.view', actor, proposal, during);
      const gated =
        view !== true && view.kind === 'forbidden' && view.code === 'declaration_required';
      expect(inScope).toBe(view === true || gated);
      // Only a member (not a chair) who has not answered, on a submitted proposal not theirs.
      expect(gated).toBe(who === 'member' && stateVal === 1 && !own && !declared);
    },
  );
});

describe('seesReviewProgress', () => {
  const proposal = { call, authorId: 99, collaboratorIds: [98], actorConflict: null };
  it.each<[Who, boolean]>([
    ['outsider', false],
    ['member', false],
    ['chair', true],
    ['otherChair', false],
    ['admin', true],
  ])('%s -> %s', (who, expected) => {
    expect(seesReviewProgress(actors[who], proposal, during)).toBe(expected);
  });

  it("never tells a proposal's own people, even when they chair the committee", () => {
    const chair = actors.chair;
    expect(seesReviewProgress(chair, { ...proposal, authorId: chair.id }, during)).toBe(false);
    expect(seesReviewProgress(chair, { ...proposal, collaboratorIds: [chair.id] }, during)).toBe(
      false,
    );
  });

  it('never tells a chair or an admin with a conflict of interest, unless a chair overrode it', () => {
    const confirmed = {
      type: 'personal',
      source: 'chair',
      state: 'confirmed',
      pinned: false,
    } as const;
    for (const who of ['chair', 'admin'] as const) {
      expect(
        seesReviewProgress(actors[who], { ...proposal, actorConflict: confirmed }, during),
      ).toBe(false);
      const suggested = { ...confirmed, state: 'suggested' } as const;
      expect(
        seesReviewProgress(actors[who], { ...proposal, actorConflict: suggested }, during),
      ).toBe(true);
      const overridden = { ...confirmed, overridden: true };
      expect(
        seesReviewProgress(actors[who], { ...proposal, actorConflict: overridden }, during),
      ).toBe(true);
      const off = { ...call, conflictsEnabled: false };
      expect(
        seesReviewProgress(
          actors[who],
          { ...proposal, call: off, actorConflict: confirmed },
          during,
        ),
      ).toBe(true);
    }
  });
});
