import { describe, expect, it } from 'vitest';
import type { CommitteeActor } from '../permissions/committee.js';
import { decide } from '../permissions/policies.js';
import type { ProposalResource } from '../proposals/proposal.policy.js';
import { declarationPending } from '../reviews/reviewing.js';
import {
  CONFLICT_SOURCES,
  CONFLICT_TYPES,
  conflictMessages,
  type ConflictFacts,
  type ConflictState,
} from './conflicts.js';
import { applicantRemovalProblem, conflictChangeProblem } from './conflicts.policy.js';

const t = (s: string) => new Date(`2027-${s}Z`);
/** A call in its review period: submission has closed, reviews are being written. */
const call = {
  committeeId: 7,
  closed: false,
  commencement: t('03-01T00:00:00'),
  termination: t('04-01T00:00:00'),
  reviewCommencement: t('04-15T00:00:00'),
  reviewTermination: t('05-15T00:00:00'),
  isReviewOpen: false,
  conflictsEnabled: true,
  // The gate has a table of its own below; here every member reads without declaring.
  declarationRequired: false,
};
const during = t('04-20T00:00:00');

const role = (committeeId: number, r: 'CHAIR' | 'MEMBER', to = '12-31') => ({
  committeeId,
  role: r,
  commencement: t('01-01T00:00:00'),
  termination: t(`${to}T00:00:00`),
});
/** The author and collaborator sit on the committee too: that is how they could be conflicted. */
const actors = {
  author: { id: 1, isAdmin: false, roles: [role(7, 'MEMBER')] },
  collaborator: { id: 2, isAdmin: false, roles: [role(7, 'MEMBER')] },
  member: { id: 3, isAdmin: false, roles: [role(7, 'MEMBER')] },
  chair: { id: 4, isAdmin: false, roles: [role(7, 'CHAIR')] },
  admin: { id: 5, isAdmin: true, roles: [] },
  outsider: { id: 6, isAdmin: false, roles: [] },
} satisfies Record<string, CommitteeActor>;
type Persona = keyof typeof actors;

/** Submitted; the member and the chair are its assigned reviewers. */
const submitted: ProposalResource = {
  call,
  authorId: 1,
  collaboratorIds: [2],
  stateVal: 1,
  authorExtensions: [],
  actorExtensions: [],
  lock: null,
  hasReviews: true,
  reviewerIds: [3, 4],
  actorHasReview: false,
  actorConflict: null,
  actorDeclared: false,
};

type StateOrNone = ConflictState | 'none';
const conflictIn = (state: StateOrNone): ConflictFacts | null =>
  state === 'none' ? null : { type: 'institutional', source: 'detected', state, pinned: false };
const as = (state: StateOrNone, proposal = submitted): ProposalResource => ({
  ...proposal,
  actorConflict: conflictIn(state),
});

const ACTIONS = [
  'view',
  'review',
  'viewReviews',
  'manageReviewers',
  'viewDecision',
  'editDecision',
  'declareConflicts',
  'viewConflicts',
  'manageConflicts',
  'answerDeclaration',
] as const;
type ConflictAction = (typeof ACTIONS)[number];

/** An answer as the server gives it: allowed, or the refusal's status. */
type Outcome = 'ok' | 404 | 403 | 409;
const STATUS = { hidden: 404, forbidden: 403, conflict: 409 } as const;
const outcome = (
  actor: CommitteeActor,
  action: ConflictAction,
  proposal: ProposalResource,
): Outcome => {
  const decision = decide(`proposal.${action}`, actor, proposal, during);
  return decision === true ? 'ok' : STATUS[decision.kind];
};

/*
 * Persona x the actor's own conflict x action. Only a confirmed conflict is enforced: it
 * hides the reviews and the decision (404), stops reviewing and assigning (403), and hides
 * the proposal's conflicts from a chair (404). Suggested and dismissed change nothing. The
 * proposal's own people are kept away as its team, whatever their conflict says.
 */
// prettier-ignore
const TABLE: [Persona, StateOrNone, ...Outcome[]][] = [
  //                         view  review viewRev mngRev viewDec editDec declare viewCfl mngCfl answer
  ['author', 'none',         'ok', 403,   404,    403,   403,    403,    'ok',   'ok',   403,   403],
  ['author', 'suggested',    'ok', 403,   404,    403,   403,    403,    'ok',   'ok',   403,   403],
  ['author', 'confirmed',    'ok', 403,   404,    403,   403,    403,    'ok',   'ok',   403,   403],
  ['author', 'dismissed',    'ok', 403,   404,    403,   403,    403,    'ok',   'ok',   403,   403],
  ['collaborator', 'none',   'ok', 403,   404,    403,   403,    403,    'ok',   'ok',   403,   403],
  ['collaborator', 'suggested', 'ok', 403, 404,   403,   403,    403,    'ok',   'ok',   403,   403],
  ['collaborator', 'confirmed', 'ok', 403, 404,   403,   403,    403,    'ok',   'ok',   403,   403],
  ['collaborator', 'dismissed', 'ok', 403, 404,   403,   403,    403,    'ok',   'ok',   403,   403],
  ['member', 'none',         'ok', 'ok',  'ok',   403,   403,    403,    403,    403,    403,   'ok'],
  ['member', 'suggested',    'ok', 'ok',  'ok',   403,   403,    403,    403,    403,    403,   'ok'],
  ['member', 'confirmed',    'ok', 403,   404,    403,   404,    404,    403,    403,    403,   'ok'],
  ['member', 'dismissed',    'ok', 'ok',  'ok',   403,   403,    403,    403,    403,    403,   'ok'],
  ['chair', 'none',          'ok', 'ok',  'ok',   'ok',  'ok',   'ok',   403,    'ok',   'ok',  'ok'],
  ['chair', 'suggested',     'ok', 'ok',  'ok',   'ok',  'ok',   'ok',   403,    'ok',   'ok',  'ok'],
  ['chair', 'confirmed',     'ok', 403,   404,    403,   404,    404,    403,    404,    404,   'ok'],
  ['chair', 'dismissed',     'ok', 'ok',  'ok',   'ok',  'ok',   'ok',   403,    'ok',   'ok',  'ok'],
  // Admins count as chairs, but are no one's assigned reviewer.
  ['admin', 'none',          'ok', 403,   'ok',   'ok',  'ok',   'ok',   403,    'ok',   'ok',  'ok'],
  ['admin', 'suggested',     'ok', 403,   'ok',   'ok',  'ok',   'ok',   403,    'ok',   'ok',  'ok'],
  ['admin', 'confirmed',     'ok', 403,   404,    403,   404,    404,    403,    404,    404,   'ok'],
  ['admin', 'dismissed',     'ok', 403,   'ok',   'ok',  'ok',   'ok',   403,    'ok',   'ok',  'ok'],
  ['outsider', 'none',       404,  404,   404,    404,   404,    404,    404,    404,    404,   404],
  ['outsider', 'suggested',  404,  404,   404,    404,   404,    404,    404,    404,    404,   404],
  ['outsider', 'confirmed',  404,  404,   404,    404,   404,    404,    404,    404,    404,   404],
  ['outsider', 'dismissed',  404,  404,   404,    404,   404,    404,    404,    404,    404,   404],
];

describe('persona x conflict state x action', () => {
  const cases = TABLE.flatMap(([persona, state, ...outcomes]) =>
    ACTIONS.map((action, i) => [persona, state, action, outcomes[i]!] as const),
  );
  it.each(cases)('%s with a %s conflict: %s -> %s', (persona, state, action, expected) => {
    expect(outcome(actors[persona], action, as(state))).toBe(expected);
  });

  it('covers every persona and state once, with an answer for every action', () => {
    const rows = TABLE.map(([persona, state]) => `${persona} ${state}`);
    expect(new Set(rows).size).toBe(6 * 4);
    for (const [, , ...outcomes] of TABLE) expect(outcomes).toHaveLength(ACTIONS.length);
  });

  it('enforces a confirmed conflict of any type and source alike', () => {
    for (const type of CONFLICT_TYPES)
      for (const source of CONFLICT_SOURCES) {
        const proposal = {
          ...submitted,
          actorConflict: { type, source, state: 'confirmed' as const, pinned: false },
        };
        expect(outcome(actors.chair, 'viewReviews', proposal)).toBe(404);
        expect(outcome(actors.member, 'review', proposal)).toBe(403);
      }
  });

  it('says why a conflicted person may not review or assign reviewers', () => {
    const confirmed = as('confirmed');
    for (const who of ['member', 'chair', 'admin'] as const)
      expect(decide('proposal.review', actors[who], confirmed, during)).toEqual({
        kind: 'forbidden',
        message: conflictMessages.reviewConflicted,
      });
    for (const who of ['chair', 'admin'] as const)
      expect(decide('proposal.manageReviewers', actors[who], confirmed, during)).toEqual({
        kind: 'forbidden',
        message: conflictMessages.chairConflicted,
      });
  });

  it('lets a chair who wrote the proposal see its declarations as its author, not manage them', () => {
    const chairAuthor = { ...actors.chair, id: 1 };
    expect(outcome(chairAuthor, 'viewConflicts', submitted)).toBe('ok');
    expect(outcome(chairAuthor, 'declareConflicts', submitted)).toBe('ok');
    expect(outcome(chairAuthor, 'manageConflicts', submitted)).toBe(403);
    expect(outcome(chairAuthor, 'answerDeclaration', submitted)).toBe(403);
  });

  it('closes declarations by the team once the call is closed, and lets a member answer once', () => {
    const closed = { ...submitted, call: { ...call, closed: true } };
    expect(decide('proposal.declareConflicts', actors.author, closed, during)).toEqual({
      kind: 'conflict',
      message: conflictMessages.callClosed,
    });
    expect(outcome(actors.author, 'viewConflicts', closed)).toBe('ok');
    expect(
      decide(
        'proposal.answerDeclaration',
        actors.member,
        { ...submitted, actorDeclared: true },
        during,
      ),
    ).toEqual({
      kind: 'conflict',
      message: conflictMessages.alreadyDeclared,
    });
    // A draft is not the committee's yet: there is nothing to declare about.
    expect(outcome(actors.chair, 'answerDeclaration', { ...submitted, stateVal: 0 })).toBe(403);
  });
});

describe('a call with conflicts turned off', () => {
  const off = {
    ...submitted,
    call: { ...call, conflictsEnabled: false, declarationRequired: true },
  };
  // prettier-ignore
  const OFF: [Persona, ...Outcome[]][] = [
    //               view  review viewRev mngRev viewDec editDec declare viewCfl mngCfl answer
    ['author',       'ok', 403,   404,    403,   403,    403,    409,    'ok',   403,   403],
    ['member',       'ok', 'ok',  'ok',   403,   403,    403,    403,    403,    403,   409],
    ['chair',        'ok', 'ok',  'ok',   'ok',  'ok',   'ok',   403,    'ok',   409,   409],
    ['admin',        'ok', 403,   'ok',   'ok',  'ok',   'ok',   403,    'ok',   409,   409],
  ];
  const cases = OFF.flatMap(([persona, ...outcomes]) =>
    ACTIONS.map((action, i) => [persona, action, outcomes[i]!] as const),
  );
  it.each(cases)(
    'enforces nothing, not even a confirmed conflict: %s, %s -> %s',
    (persona, action, expected) => {
      expect(outcome(actors[persona], action, as('confirmed', off))).toBe(expected);
      // Nor does the gate close anything, though the call still says members must declare.
      expect(declarationPending(actors[persona], off, during)).toBe(false);
    },
  );

  it('says so when someone tries to declare or manage', () => {
    expect(decide('proposal.manageConflicts', actors.chair, off, during)).toEqual({
      kind: 'conflict',
      message: conflictMessages.conflictsOff,
    });
  });
});

describe('the declaration gate', () => {
  const gated = { ...submitted, call: { ...call, declarationRequired: true } };
  const formerMember = { id: 7, isAdmin: false, roles: [role(7, 'MEMBER', '02-01')] };
  const memberElsewhere = { id: 8, isAdmin: false, roles: [role(8, 'MEMBER')] };
  it.each<[string, boolean, CommitteeActor, ProposalResource]>([
    ['a member who has not answered', true, actors.member, gated],
    ['a member whose conflict a chair dismissed', true, actors.member, as('dismissed', gated)],
    // A suggestion is a question the chairs still ask: the member's answer helps settle it.
    ['a member with a suggested conflict', true, actors.member, as('suggested', gated)],
    ['a member with a confirmed conflict', false, actors.member, as('confirmed', gated)],
    ['a member who has answered', false, actors.member, { ...gated, actorDeclared: true }],
    ['a member, on a draft', false, actors.member, { ...gated, stateVal: 0 }],
    ['a chair, who runs the call', false, actors.chair, gated],
    ['an admin', false, actors.admin, gated],
    ['the author, a member', false, actors.author, gated],
    ['a collaborator, a member', false, actors.collaborator, gated],
    ['an outsider', false, actors.outsider, gated],
    ['a former member', false, formerMember, gated],
    ['a member of another committee', false, memberElsewhere, gated],
    ['a member, on a call that does not ask', false, actors.member, submitted],
  ])('%s: pending %s', (_name, pending, actor, proposal) => {
    expect(declarationPending(actor, proposal, during)).toBe(pending);
  });

  it('keeps the proposal and its reviews closed with 403 declaration_required', () => {
    const refusal = {
      kind: 'forbidden',
      message: conflictMessages.declarationRequired,
      code: 'declaration_required',
    };
    for (const action of ['view', 'review', 'viewReviews'] as const)
      expect(decide(`proposal.${action}`, actors.member, gated, during)).toEqual(refusal);
  });

  it('lets the member answer, then opens the proposal', () => {
    expect(outcome(actors.member, 'answerDeclaration', gated)).toBe('ok');
    const answered = { ...gated, actorDeclared: true };
    expect(outcome(actors.member, 'view', answered)).toBe('ok');
    expect(outcome(actors.member, 'review', answered)).toBe('ok');
    expect(outcome(actors.member, 'answerDeclaration', answered)).toBe(409);
  });

  it('keeps the proposal hidden, not gated, from someone who may not know of it', () => {
    expect(outcome(actors.outsider, 'view', gated)).toBe(404);
    expect(outcome(actors.member, 'view', { ...gated, stateVal: 0 })).toBe(404);
  });
});

describe('conflictChangeProblem', () => {
  const chair = actors.chair;
  const target = (over: Partial<ConflictFacts & { userId: number }> = {}) => ({
    userId: 3,
    type: 'institutional' as const,
    source: 'detected' as const,
    state: 'suggested' as const,
    pinned: false,
    ...over,
  });
  const confirm = { state: 'confirmed' } as const;
  const dismiss = { state: 'dismissed' } as const;
  const remove = { remove: true } as const;
  const pinOnly = {} as const;
  it.each([
    ['confirming a suggestion', target(), confirm, null],
    ['dismissing a suggestion', target(), dismiss, null],
    ['removing a suggestion', target(), remove, null],
    ['dismissing what the applicant declared', target({ source: 'applicant' }), dismiss, null],
    ['removing what a chair added', target({ source: 'chair', state: 'confirmed' }), remove, null],
    // No one judges their own conflict, whatever the change.
    ['confirming their own', target({ userId: chair.id }), confirm, conflictMessages.ownConflict],
    ['dismissing their own', target({ userId: chair.id }), dismiss, conflictMessages.ownConflict],
    ['removing their own', target({ userId: chair.id }), remove, conflictMessages.ownConflict],
    ['pinning their own', target({ userId: chair.id }), pinOnly, conflictMessages.ownConflict],
    // Authorship is a fact.
    ['dismissing authorship', target({ type: 'author' }), dismiss, conflictMessages.authorConflict],
    ['removing authorship', target({ type: 'author' }), remove, conflictMessages.authorConflict],
    ['confirming authorship', target({ type: 'author', state: 'confirmed' }), confirm, null],
    ['pinning authorship', target({ type: 'author', state: 'confirmed' }), pinOnly, null],
    // A member's own declaration is theirs to make.
    [
      "dismissing a member's declaration",
      target({ source: 'reviewer', state: 'confirmed' }),
      dismiss,
      conflictMessages.reviewerDeclared,
    ],
    [
      "removing a member's declaration",
      target({ source: 'reviewer', state: 'confirmed' }),
      remove,
      conflictMessages.reviewerDeclared,
    ],
    ["pinning a member's declaration", target({ source: 'reviewer' }), pinOnly, null],
  ] as const)('%s', (_name, conflict, change, expected) => {
    expect(conflictChangeProblem(chair, conflict, change)).toBe(expected);
  });
});

describe('applicantRemovalProblem', () => {
  const facts = (over: Partial<ConflictFacts> = {}): ConflictFacts => ({
    type: 'personal',
    source: 'applicant',
    state: 'confirmed',
    pinned: false,
    ...over,
  });
  it.each([
    ['their own declaration', facts(), null],
    ['their own declaration, pinned by a chair', facts({ pinned: true }), conflictMessages.pinned],
    ["a chair's", facts({ source: 'chair' }), conflictMessages.notApplicantDeclared],
    ["a member's", facts({ source: 'reviewer' }), conflictMessages.notApplicantDeclared],
    [
      "Merit's suggestion",
      facts({ source: 'detected', state: 'suggested' }),
      conflictMessages.notApplicantDeclared,
    ],
    ["a chair's, pinned", facts({ source: 'chair', pinned: true }), conflictMessages.pinned],
  ] as const)('%s', (_name, conflict, expected) => {
    expect(applicantRemovalProblem(conflict)).toBe(expected);
  });
});
