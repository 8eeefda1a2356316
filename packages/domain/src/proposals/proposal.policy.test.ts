import { describe, expect, it } from 'vitest';
import type { CommitteeActor } from '../permissions/committee.js';
import { decide } from '../permissions/policies.js';
import { abilitiesOf } from '../permissions/policy.js';
import {
  lockStanding,
  proposalMessages,
  proposalPolicy,
  proposalStateName,
  type ProposalAbilities,
  type ProposalResource,
} from './proposal.policy.js';

const t = (iso: string) => new Date(`2026-${iso}Z`);
const ms = (d: Date, delta: number) => new Date(d.getTime() + delta);

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
const opens = call.commencement;
const deadline = call.termination;
const during = t('03-10T00:00:00');
/** An extension from the deadline for a week. */
const extension = { commencement: deadline, termination: t('04-08T00:00:00') };

const role = (committeeId: number, r: 'CHAIR' | 'MEMBER') => ({
  committeeId,
  role: r,
  commencement: t('01-01T00:00:00'),
  termination: t('12-31T00:00:00'),
});
const actors = {
  author: { id: 1, isAdmin: false, roles: [] },
  collaborator: { id: 2, isAdmin: false, roles: [] },
  chair: { id: 3, isAdmin: false, roles: [role(7, 'CHAIR')] },
  member: { id: 4, isAdmin: false, roles: [role(7, 'MEMBER')] },
  otherChair: { id: 5, isAdmin: false, roles: [role(8, 'CHAIR')] },
  outsider: { id: 6, isAdmin: false, roles: [] },
  admin: { id: 9, isAdmin: true, roles: [] },
} satisfies Record<string, CommitteeActor>;
type Who = keyof typeof actors;

const draft: ProposalResource = {
  call,
  authorId: 1,
  collaboratorIds: [2],
  stateVal: 0,
  authorExtensions: [],
  actorExtensions: [],
  lock: null,
  hasReviews: false,
  reviewerIds: [],
  actorHasReview: false,
  actorConflict: null,
  actorDeclared: false,
};
/** Submitted, and the actor has answered its conflict declaration (members must, first). */
const submitted: ProposalResource = { ...draft, stateVal: 1, actorDeclared: true };
/** Submitted, and the actor has not answered its conflict declaration. */
const undeclared: ProposalResource = { ...submitted, actorDeclared: false };

/** Each action's answer, as `true` or the refusal's kind. */
const outcome = (
  who: Who,
  action: keyof ProposalAbilities,
  proposal: ProposalResource,
  now: Date,
) => {
  const decision = decide(`proposal.${action}`, actors[who], proposal, now);
  return decision === true ? true : decision.kind;
};

describe('who sees a proposal', () => {
  it.each([
    ['author', draft, true],
    ['collaborator', draft, true],
    ['chair', draft, true],
    ['admin', draft, true],
    // Members review submitted proposals; a draft is none of their business.
    ['member', draft, 'hidden'],
    ['member', submitted, true],
    // The call asks members to declare conflicts first: until then, the proposal stays closed.
    ['member', undeclared, 'forbidden'],
    ['otherChair', submitted, 'hidden'],
    ['outsider', submitted, 'hidden'],
  ] as const)('%s, stateVal %#', (who, proposal, expected) => {
    expect(outcome(who, 'view', proposal, during)).toBe(expected);
  });
});

describe('editing, at the edges of the windows', () => {
  const cases: [string, Who, ProposalResource, Date, true | string][] = [
    ['author, as submission opens', 'author', draft, opens, true],
    ['author, a moment before it opens', 'author', draft, ms(opens, -1), 'conflict'],
    ['author, a moment before the deadline', 'author', draft, ms(deadline, -1), true],
    ['author, at the deadline', 'author', draft, deadline, 'conflict'],
    [
      'author with an extension, at the deadline',
      'author',
      { ...draft, authorExtensions: [extension], actorExtensions: [extension] },
      deadline,
      true,
    ],
    [
      'author with an extension, as it ends',
      'author',
      { ...draft, authorExtensions: [extension], actorExtensions: [extension] },
      extension.termination,
      'conflict',
    ],
    // Both windows must be open: the proposal's (its author's) and the editor's own.
    [
      'collaborator, after the deadline, on a proposal whose author has an extension',
      'collaborator',
      { ...draft, authorExtensions: [extension] },
      ms(deadline, 1),
      'conflict',
    ],
    [
      'collaborator with an extension of their own, the author without one',
      'collaborator',
      { ...draft, actorExtensions: [extension] },
      ms(deadline, 1),
      'conflict',
    ],
    [
      'collaborator, both with extensions',
      'collaborator',
      { ...draft, authorExtensions: [extension], actorExtensions: [extension] },
      ms(deadline, 1),
      true,
    ],
    ['collaborator, during submission', 'collaborator', draft, during, true],
    ['collaborator, on a submitted proposal', 'collaborator', submitted, during, 'conflict'],
    ['author, on a submitted proposal', 'author', submitted, during, 'conflict'],
    ['chair, who sees but does not edit', 'chair', draft, during, 'forbidden'],
    ['admin, likewise', 'admin', draft, during, 'forbidden'],
    ['member, on a submitted proposal', 'member', submitted, during, 'forbidden'],
    ['outsider', 'outsider', draft, during, 'hidden'],
    [
      'author, on a closed call',
      'author',
      { ...draft, call: { ...call, closed: true } },
      during,
      'conflict',
    ],
  ];
  it.each(cases)('%s -> %s', (_name, who, proposal, now, expected) => {
    expect(outcome(who, 'edit', proposal, now)).toBe(expected);
  });
});

describe('the lock', () => {
  /** An editor: a person in one login session and one tab. */
  const editor = (userId: number, tokenId = 10 * userId, tabId = 'tab-a') => ({
    userId,
    tokenId,
    tabId,
  });
  /** The actor acting from that editor's session and tab. */
  const from = (who: Who, tokenId?: number, tabId?: string) => {
    const { tokenId: token, tabId: tab } = editor(actors[who].id, tokenId, tabId);
    return { ...actors[who], session: { tokenId: token, tabId: tab } };
  };
  const held = (by: ReturnType<typeof editor>, expiresAt: Date) => ({
    ...draft,
    lock: { editor: by, holderName: 'Ada Lovelace', expiresAt },
  });
  const live = ms(during, 1);

  it("refuses edits under someone else's live lock, naming them, with the code 'locked'", () => {
    expect(decide('proposal.edit', from('collaborator'), held(editor(1), live), during)).toEqual({
      kind: 'conflict',
      code: 'locked',
      message: proposalMessages.locked('Ada Lovelace'),
    });
  });

  it.each([
    ['the same tab of the same session', 10, 'tab-a', true],
    ['another tab of the same session', 10, 'tab-b', 'conflict'],
    ['the same tab id in another session (a second login)', 11, 'tab-a', 'conflict'],
    ['another session without a tab id', 11, '', 'conflict'],
  ] as const)("its holder's own person, from %s -> %s", (_name, tokenId, tabId, expected) => {
    const decision = decide(
      'proposal.edit',
      from('author', tokenId, tabId),
      held(editor(1), live),
      during,
    );
    if (expected === true) return expect(decision).toBe(true);
    // The person is told to use the tab that has it, not that someone else edits.
    expect(decision).toEqual({
      kind: 'conflict',
      code: 'locked',
      message: proposalMessages.lockedInOtherTab,
    });
  });

  it('compares editors, not users: a caller without a session is an editor of its own', () => {
    expect(outcome('author', 'edit', held(editor(1), live), during)).toBe('conflict');
    expect(outcome('author', 'edit', held(editor(1, 0, ''), live), during)).toBe(true);
    expect(
      decide('proposal.edit', from('author', 10, ''), held(editor(1, 10, ''), live), during),
    ).toBe(true);
  });

  it('lets anyone edit once the lease has run out', () => {
    expect(outcome('collaborator', 'edit', held(editor(1), during), during)).toBe(true);
    expect(
      decide('proposal.edit', from('author', 11, 'tab-b'), held(editor(1), during), during),
    ).toBe(true);
  });

  it('holds off submit, retract and delete by the author too, from any other tab', () => {
    for (const locked of [held(editor(2), live), held(editor(1, 10, 'tab-b'), live)]) {
      const author = from('author');
      expect(decide('proposal.submit', author, locked, during)).toMatchObject({ code: 'locked' });
      expect(decide('proposal.retract', author, { ...locked, stateVal: 1 }, during)).toMatchObject({
        code: 'locked',
      });
      expect(decide('proposal.delete', author, locked, during)).toMatchObject({ code: 'locked' });
    }
    expect(decide('proposal.submit', from('author'), held(editor(1), live), during)).toBe(true);
  });

  it('may be taken by whoever may edit, whoever holds it; never by others', () => {
    const locked = held(editor(1), live);
    expect(outcome('collaborator', 'lock', locked, during)).toBe(true);
    expect(outcome('chair', 'lock', locked, during)).toBe('forbidden');
    expect(outcome('author', 'lock', submitted, during)).toBe('conflict');
  });

  describe('what the lock is for the editor who asked for it', () => {
    it.each([
      ['the tab that holds it', from('author'), held(editor(1), live), { mine: true }],
      [
        'another person, while it is held',
        from('collaborator'),
        held(editor(1), live),
        { mine: false, reason: 'held', message: proposalMessages.locked('Ada Lovelace') },
      ],
      [
        'the same person in another tab',
        from('author', 10, 'tab-b'),
        held(editor(1), live),
        { mine: false, reason: 'otherTab', message: proposalMessages.lockedInOtherTab },
      ],
      [
        'a collaborator once submission has closed for them',
        from('collaborator'),
        { ...draft, authorExtensions: [extension] },
        { mine: false, reason: 'closed', message: proposalMessages.actorWindowClosed },
      ],
      [
        'the author of a submitted proposal',
        from('author'),
        { ...submitted, lock: held(editor(1), live).lock },
        { mine: false, reason: 'noEdit', message: proposalMessages.submitted },
      ],
      [
        'someone no longer a collaborator',
        from('collaborator'),
        { ...draft, collaboratorIds: [] },
        { mine: false, reason: 'noEdit', message: proposalMessages.notFound },
      ],
      [
        'a chair, who only reads it',
        from('chair'),
        held(editor(1), live),
        { mine: false, reason: 'noEdit', message: proposalMessages.editorsOnly },
      ],
      ['an editor when nobody holds it', from('author'), draft, { mine: false }],
    ] as const)('%s', (_name, actor, proposal, expected) => {
      // The collaborator's case is after the deadline, in the author's extension only.
      const now = proposal.authorExtensions.length > 0 ? ms(deadline, 1) : during;
      expect(lockStanding(actor, proposal, now)).toEqual(expected);
    });
  });
});

describe('submit, retract, collaborators and delete', () => {
  it.each([
    ['author submits a draft', 'author', 'submit', draft, during, true],
    ['author submits at the deadline', 'author', 'submit', draft, deadline, 'conflict'],
    [
      'author with an extension submits at the deadline',
      'author',
      'submit',
      { ...draft, authorExtensions: [extension] },
      deadline,
      true,
    ],
    ['a collaborator may not submit', 'collaborator', 'submit', draft, during, 'forbidden'],
    ['nobody submits twice', 'author', 'submit', submitted, during, 'conflict'],
    ['author retracts', 'author', 'retract', submitted, during, true],
    ['author retracts after the deadline', 'author', 'retract', submitted, deadline, 'conflict'],
    ['a draft is not retracted', 'author', 'retract', draft, during, 'conflict'],
    ['a chair does not retract', 'chair', 'retract', submitted, during, 'forbidden'],
    ['author manages collaborators', 'author', 'manageCollaborators', submitted, deadline, true],
    ['a collaborator does not', 'collaborator', 'manageCollaborators', draft, during, 'forbidden'],
    [
      'nor does anyone once the call is closed',
      'author',
      'manageCollaborators',
      { ...draft, call: { ...call, closed: true } },
      during,
      'conflict',
    ],
    ['author deletes a draft', 'author', 'delete', draft, during, true],
    ['not a submitted one', 'author', 'delete', submitted, during, 'conflict'],
    [
      'not one with reviews',
      'author',
      'delete',
      { ...draft, hasReviews: true },
      during,
      'conflict',
    ],
    ['a collaborator does not delete', 'collaborator', 'delete', draft, during, 'forbidden'],
  ] as const)('%s -> %s', (_name, who, action, proposal, now, expected) => {
    expect(outcome(who, action, proposal, now)).toBe(expected);
  });
});

describe('decision summaries', () => {
  const closed: ProposalResource = { ...submitted, call: { ...call, closed: true } };
  /** A chair of the committee who also wrote the proposal. */
  const chairAuthor = { ...actors.chair, id: 1 };
  const after = t('06-01T00:00:00');
  it.each([
    ['author, call open', 'author', submitted, 'forbidden'],
    ['author, call closed', 'author', closed, true],
    ['collaborator, call open', 'collaborator', submitted, 'forbidden'],
    ['collaborator, call closed', 'collaborator', closed, true],
    ['chair, call open', 'chair', submitted, true],
    ['chair, call closed', 'chair', closed, true],
    ['admin, call open', 'admin', submitted, true],
    // Members review proposals; what the committee decided is the chairs' to tell.
    ['member, call open', 'member', submitted, 'forbidden'],
    ['member, call closed', 'member', closed, 'forbidden'],
    ['chair of another committee', 'otherChair', closed, 'hidden'],
    ['outsider', 'outsider', closed, 'hidden'],
  ] as const)('%s: view -> %s', (_name, who, proposal, expected) => {
    expect(outcome(who, 'viewDecision', proposal, after)).toBe(expected);
  });

  it.each([
    ['chair, call open', 'chair', submitted, true],
    // A slip found after closing can still be put right.
    ['chair, call closed', 'chair', closed, true],
    ['admin', 'admin', closed, true],
    ['chair, on a draft they see', 'chair', draft, true],
    ['member', 'member', submitted, 'forbidden'],
    ['author', 'author', closed, 'forbidden'],
    ['collaborator', 'collaborator', closed, 'forbidden'],
    ['chair of another committee', 'otherChair', submitted, 'hidden'],
  ] as const)('%s: edit -> %s', (_name, who, proposal, expected) => {
    expect(outcome(who, 'editDecision', proposal, after)).toBe(expected);
  });

  it('lets a chair who wrote the proposal read it as its author, and never write it', () => {
    const decision = (action: 'viewDecision' | 'editDecision', proposal: ProposalResource) => {
      const answer = decide(`proposal.${action}`, chairAuthor, proposal, after);
      return answer === true ? true : answer.kind;
    };
    expect(decision('viewDecision', submitted)).toBe('forbidden');
    expect(decision('viewDecision', closed)).toBe(true);
    expect(decision('editDecision', submitted)).toBe('forbidden');
  });
});

describe('abilities and state names', () => {
  it('sends one answer per action', () => {
    expect(abilitiesOf(proposalPolicy, actors.author, draft, during)).toEqual({
      view: true,
      edit: true,
      submit: true,
      retract: false,
      manageCollaborators: true,
      delete: true,
      lock: true,
      review: false,
      viewReviews: false,
      manageReviewers: false,
      viewDecision: false,
      editDecision: false,
      declareConflicts: true,
      viewConflicts: true,
      manageConflicts: false,
      answerDeclaration: false,
      // The applicant's own timeline.
      viewHistory: true,
      decide: false,
      viewOutcome: false,
    });
    expect(abilitiesOf(proposalPolicy, actors.chair, undeclared, during)).toEqual({
      view: true,
      edit: false,
      submit: false,
      retract: false,
      manageCollaborators: false,
      delete: false,
      lock: false,
      review: false,
      viewReviews: true,
      manageReviewers: true,
      viewDecision: true,
      editDecision: true,
      declareConflicts: false,
      viewConflicts: true,
      manageConflicts: true,
      answerDeclaration: true,
      viewHistory: true,
      // Not while submission is open for it.
      decide: false,
      viewOutcome: true,
    });
  });

  it.each([
    [0, false, 'Draft'],
    [0, true, 'Draft'],
    [1, false, 'Submitted'],
    [1, true, 'Reviewed'],
  ] as const)('stateVal %i, reviewed %s -> %s', (stateVal, reviewed, name) => {
    expect(proposalStateName(stateVal, reviewed)).toBe(name);
  });
});
