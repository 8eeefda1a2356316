import { describe, expect, it } from 'vitest';
import { assignmentMessages } from '../assignment/assignment.js';
import { messages } from '../messages.js';
import type { CommitteeActor } from '../permissions/committee.js';
import { decide } from '../permissions/policies.js';
import { abilitiesOf, type Decision } from '../permissions/policy.js';
import { callMessages } from './call-validation.js';
import {
  callPolicy,
  globalPolicy,
  myCallRoles,
  type CallAbilities,
  type CallResource,
} from './call.policy.js';

const t = (iso: string) => new Date(`2026-${iso}Z`);
const ms = (d: Date, delta: number) => new Date(d.getTime() + delta);
const open: CallResource = {
  committeeId: 7,
  closed: false,
  commencement: t('03-01T00:00:00'),
  termination: t('04-01T00:00:00'),
  reviewCommencement: t('04-15T00:00:00'),
  reviewTermination: t('05-15T00:00:00'),
  actorExtensions: [],
  biddingOpen: false,
};
const closed: CallResource = { ...open, closed: true };
const bidding: CallResource = { ...open, biddingOpen: true };
const duringSubmission = t('03-10T00:00:00');
const afterReview = open.reviewTermination;

const role = (committeeId: number, r: 'CHAIR' | 'MEMBER', from = '01-01', to = '12-31') => ({
  committeeId,
  role: r,
  commencement: t(`${from}T00:00:00`),
  termination: t(`${to}T00:00:00`),
});
const actors = {
  admin: { id: 1, isAdmin: true, roles: [] },
  chair: { id: 2, isAdmin: false, roles: [role(7, 'CHAIR')] },
  formerChair: { id: 3, isAdmin: false, roles: [role(7, 'CHAIR', '01-01', '02-01')] },
  otherChair: { id: 4, isAdmin: false, roles: [role(8, 'CHAIR')] },
  member: { id: 5, isAdmin: false, roles: [role(7, 'MEMBER')] },
  user: { id: 6, isAdmin: false, roles: [] },
} satisfies Record<string, CommitteeActor>;
type Who = keyof typeof actors;

const forbiddenBy = { kind: 'forbidden', message: messages.noPermission } as const;
const closedNoEdit = { kind: 'conflict', message: callMessages.closedNoEdit } as const;

describe('call policy: who may do what, and how a refusal reads', () => {
  const cases: [string, Who, keyof CallAbilities, CallResource, Date, Decision][] = [
    ['anyone views a call', 'user', 'view', open, duringSubmission, true],
    ['the chair edits an open call', 'chair', 'edit', open, duringSubmission, true],
    ['an admin edits any call', 'admin', 'edit', open, duringSubmission, true],
    ['a member may not edit', 'member', 'edit', open, duringSubmission, forbiddenBy],
    [
      'a chair of another committee may not edit',
      'otherChair',
      'edit',
      open,
      duringSubmission,
      forbiddenBy,
    ],
    ['a former chair may not edit', 'formerChair', 'edit', open, duringSubmission, forbiddenBy],
    ['nobody edits a closed call', 'chair', 'edit', closed, duringSubmission, closedNoEdit],
    [
      'a member may not edit a closed call either',
      'member',
      'edit',
      closed,
      duringSubmission,
      forbiddenBy,
    ],
    ['the chair manages a closed call', 'chair', 'manage', closed, afterReview, true],
    ['a plain user does not manage', 'user', 'manage', open, duringSubmission, forbiddenBy],
    [
      'the chair may not close during review',
      'chair',
      'close',
      open,
      ms(afterReview, -1),
      { kind: 'conflict', message: callMessages.notYetClosable(afterReview.toISOString()) },
    ],
    ['the chair closes once review has ended', 'chair', 'close', open, afterReview, true],
    [
      'nobody closes a call twice',
      'chair',
      'close',
      closed,
      afterReview,
      { kind: 'conflict', message: callMessages.alreadyClosed },
    ],
    ['a member may not close', 'member', 'close', open, afterReview, forbiddenBy],
    [
      'the chair manages extensions of an open call',
      'chair',
      'manageExtensions',
      open,
      afterReview,
      true,
    ],
    ['not once the call is closed', 'chair', 'manageExtensions', closed, afterReview, closedNoEdit],
    [
      'anyone adds a proposal while submission is open',
      'user',
      'addProposal',
      open,
      duringSubmission,
      true,
    ],
    [
      'nobody adds one at the deadline',
      'chair',
      'addProposal',
      open,
      open.termination,
      { kind: 'conflict', message: callMessages.submissionClosed },
    ],
    ['the chair opens the Assignment page', 'chair', 'assign', open, duringSubmission, true],
    ['an admin opens it for any call', 'admin', 'assign', open, duringSubmission, true],
    ['it reads once the call is closed', 'chair', 'assign', closed, afterReview, true],
    [
      'a member does not assign',
      'member',
      'assign',
      open,
      duringSubmission,
      { kind: 'forbidden', message: assignmentMessages.chairsOnly },
    ],
    [
      'nor does a chair of another committee',
      'otherChair',
      'assign',
      open,
      duringSubmission,
      { kind: 'forbidden', message: assignmentMessages.chairsOnly },
    ],
    ['a member bids while bidding is open', 'member', 'bid', bidding, duringSubmission, true],
    ['a chair is a member and bids too', 'chair', 'bid', bidding, duringSubmission, true],
    [
      'an admin with no role on the committee does not bid',
      'admin',
      'bid',
      bidding,
      duringSubmission,
      { kind: 'forbidden', message: assignmentMessages.biddingMembersOnly },
    ],
    [
      'nor does a former chair',
      'formerChair',
      'bid',
      bidding,
      duringSubmission,
      { kind: 'forbidden', message: assignmentMessages.biddingMembersOnly },
    ],
    [
      'nobody bids before the chairs open bidding',
      'member',
      'bid',
      open,
      duringSubmission,
      { kind: 'conflict', message: assignmentMessages.biddingClosed },
    ],
    [
      'nor on a closed call',
      'member',
      'bid',
      { ...bidding, closed: true },
      afterReview,
      { kind: 'conflict', message: assignmentMessages.biddingClosed },
    ],
  ];
  it.each(cases)('%s (%s, %s)', (_name, who, action, call, now, expected) => {
    expect(decide(`call.${action}`, actors[who], call, now)).toEqual(expected);
  });

  it('lets a user with an extension add a proposal after the deadline, and nobody else', () => {
    const extension = { commencement: open.termination, termination: t('04-08T00:00:00') };
    const withExtension = { ...open, actorExtensions: [extension] };
    expect(decide('call.addProposal', actors.user, withExtension, open.termination)).toBe(true);
    expect(decide('call.addProposal', actors.user, withExtension, extension.termination)).not.toBe(
      true,
    );
    expect(decide('call.addProposal', actors.user, open, open.termination)).not.toBe(true);
  });

  it('sends the same answers as abilities, one per action', () => {
    expect(abilitiesOf(callPolicy, actors.chair, open, duringSubmission)).toEqual({
      view: true,
      edit: true,
      manage: true,
      close: false,
      manageExtensions: true,
      addProposal: true,
      assign: true,
      bid: false,
      followReview: true,
      remind: true,
      decide: true,
      // Not before the call is closed.
      releaseDecisions: false,
    });
    expect(abilitiesOf(callPolicy, actors.member, closed, afterReview)).toEqual({
      view: true,
      edit: false,
      manage: false,
      close: false,
      manageExtensions: false,
      addProposal: false,
      assign: false,
      bid: false,
      followReview: false,
      remind: false,
      decide: false,
      releaseDecisions: false,
    });
  });
});

describe('committee policy: creating calls', () => {
  it.each([
    ['chair', 7, true],
    ['chair', 8, false],
    ['admin', 99, true],
    ['member', 7, false],
    ['formerChair', 7, false],
  ] as const)('%s in committee %s -> %s', (who, committeeId, allowed) => {
    const decision = decide('committee.createCall', actors[who], { committeeId }, duringSubmission);
    expect(decision === true).toBe(allowed);
    if (!allowed)
      expect(decision).toEqual({ kind: 'forbidden', message: callMessages.notYourCommittee });
  });
});

describe('global policy: what the menus show', () => {
  it.each([
    ['admin', { createCall: true, readForms: true, lookUpUsers: true, review: true }],
    ['chair', { createCall: true, readForms: true, lookUpUsers: true, review: true }],
    ['otherChair', { createCall: true, readForms: true, lookUpUsers: true, review: true }],
    ['formerChair', { createCall: false, readForms: false, lookUpUsers: false, review: false }],
    ['member', { createCall: false, readForms: false, lookUpUsers: false, review: true }],
    ['user', { createCall: false, readForms: false, lookUpUsers: false, review: false }],
  ] as const)('%s -> %j', (who, expected) => {
    expect(abilitiesOf(globalPolicy, actors[who], null, duringSubmission)).toEqual(expected);
  });
});

describe('myCallRoles', () => {
  it.each([
    ['user', false, false, []],
    ['user', true, false, ['Author']],
    ['user', true, true, ['Author', 'Collaborator']],
    ['member', false, true, ['Collaborator', 'Committee']],
    ['chair', false, false, ['Committee']],
    // An admin counts as a member everywhere, but that is not a role in this call.
    ['admin', false, false, []],
    ['formerChair', false, false, []],
  ] as const)('%s, author %s, collaborator %s -> %j', (who, authored, collaborating, roles) => {
    expect(myCallRoles(actors[who], open, { authored, collaborating }, duringSubmission)).toEqual(
      roles,
    );
  });
});
