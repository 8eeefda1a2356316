import type { ProposalConflicts, Reviewer } from '@merit/contract';
import { conflictMessages, conflictScreenMessages } from '@merit/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, renderApp, stubApi } from '../../test/render-app';
import { makeCall } from '../calls/calls.fixtures';
import { makeFormOrder, makeProposal } from '../proposals/proposals.fixtures';
import { chairProposalAbilities, makeCommitteeMember } from '../reviews/reviews.fixtures';
import { makeConflictItem, makeProposalConflicts } from './conflicts.fixtures';

/** Carla (3), a chair of the call's committee, who may see and manage its conflicts. */
const carla = makeUser({ id: 3, username: 'carla', first_name: 'Carla', last_name: 'Chair' });

const MEMBERS = [
  makeCommitteeMember({ roleId: 1, userId: 9, name: 'Grace Hopper', email: 'grace@example.org' }),
  makeCommitteeMember({ roleId: 2, userId: 10, name: 'Alan Turing', email: 'alan@example.org' }),
  makeCommitteeMember({
    roleId: 3,
    userId: 11,
    name: 'Mary Somerville',
    email: 'mary@example.org',
  }),
];

/** Grace's conflict is confirmed; Alan's only suggested; Mary's was dismissed. */
const CONFLICTS = makeProposalConflicts({
  abilities: { declare: false, manage: true },
  conflicts: [
    makeConflictItem({ id: 500, userId: 9, state: 'confirmed', type: 'personal' }),
    makeConflictItem({ id: 501, userId: 10, userName: 'Alan Turing', state: 'suggested' }),
    makeConflictItem({ id: 502, userId: 11, userName: 'Mary Somerville', state: 'dismissed' }),
  ],
});

const bodiesOf = (fetchStub: ReturnType<typeof stubApi>) =>
  fetchStub.mock.calls
    .filter(([input, init]) => init?.method === 'POST' && String(input).endsWith('/reviewers/'))
    .map(([, init]) => JSON.parse(String(init!.body)) as unknown);

/**
 * The chair's side of the server: `shown` is what GET /proposals/30/conflicts/ answers,
 * `enforced` what POST /reviewers/ holds to (the same, unless a conflict was recorded
 * after the dialog loaded its list).
 */
function stubChair({
  reviewers = [],
  shown = CONFLICTS,
  enforced = shown,
}: { reviewers?: Reviewer[]; shown?: ProposalConflicts; enforced?: ProposalConflicts } = {}) {
  let assigned = reviewers;
  return stubApi({
    'GET /user_details/': { body: carla },
    'GET /proposals/30/': () => ({
      body: makeProposal({
        state: 'Submitted',
        stateVal: 1,
        reviewers: assigned,
        isReviewed: false,
        reviewScores: [{ name: 'result', value: null }],
        abilities: { ...chairProposalAbilities, viewConflicts: true, manageConflicts: true },
      }),
    }),
    'GET /proposal_form_order/12/': { body: makeFormOrder() },
    'GET /calls/12/': { body: makeCall() },
    'GET /committee_members/?committee=3': { body: MEMBERS },
    'GET /proposals/30/conflicts/': { body: shown },
    'POST /reviewers/': ({ body }) => {
      const { userId, overrideReason } = body as { userId: number; overrideReason?: string };
      const person = MEMBERS.find((member) => member.userId === userId)!;
      // The server's rule: a confirmed conflict needs a reason.
      const conflict = enforced.conflicts.find(
        (item) => item.userId === userId && item.state === 'confirmed',
      );
      if (conflict && !overrideReason)
        return {
          status: 409,
          body: {
            detail: conflictMessages.assignConflicted(person.name, conflict.type),
            code: 'conflict',
          },
        };
      const reviewer = {
        id: userId,
        name: person.name,
        ...(overrideReason ? { overrideReason } : {}),
      };
      assigned = [...assigned, reviewer];
      return { status: 201, body: reviewer };
    },
  });
}

async function openDialog() {
  const user = userEvent.setup();
  renderApp('/calls/12/proposals/30/', { token: 'k' });
  await screen.findByRole('heading', { name: 'Dark matter survey' }, AFTER_NAVIGATION);
  await user.click(screen.getByRole('button', { name: 'Manage' }));
  await user.click(screen.getByRole('menuitem', { name: 'Manage Reviewers' }));
  const dialog = await screen.findByRole('dialog', { name: 'Manage Reviewers' });
  const members = await within(dialog).findByRole('list', { name: 'Committee members' });
  return { user, dialog, members };
}

const itemOf = (list: HTMLElement, name: string) =>
  within(list)
    .getAllByRole('listitem')
    .find((item) => item.textContent?.startsWith(name))!;

describe('Manage Reviewers with conflicts of interest', () => {
  it('marks conflicted members, and asks the reason before assigning a confirmed one', async () => {
    const fetchStub = stubChair();
    const { user, dialog, members } = await openDialog();
    expect(await within(itemOf(members, 'Grace Hopper')).findByText('Conflict')).toBeVisible();
    expect(within(itemOf(members, 'Alan Turing')).getByText('Possible conflict')).toBeVisible();
    // A dismissed one is no conflict.
    expect(itemOf(members, 'Mary Somerville')).not.toHaveTextContent(/conflict/i);

    await user.click(within(dialog).getByRole('button', { name: 'Assign Grace Hopper' }));
    const ask = await screen.findByRole('dialog', { name: 'Assign despite a conflict?' });
    expect(ask).toHaveTextContent(conflictMessages.assignConflicted('Grace Hopper', 'personal'));
    // Nothing is sent before there is a reason.
    expect(bodiesOf(fetchStub)).toEqual([]);
    await user.click(within(ask).getByRole('button', { name: 'Assign Anyway' }));
    expect(within(ask).getByText('Give the reason for assigning them.')).toBeVisible();
    expect(bodiesOf(fetchStub)).toEqual([]);

    await user.type(
      within(ask).getByRole('textbox', { name: /Reason for assigning/ }),
      'The only expert in the field',
    );
    await user.click(within(ask).getByRole('button', { name: 'Assign Anyway' }));
    expect(
      await screen.findByText('Grace Hopper is now a reviewer of this proposal.'),
    ).toBeVisible();
    expect(bodiesOf(fetchStub)).toEqual([
      { proposalId: 30, userId: 9, overrideReason: 'The only expert in the field' },
    ]);
    // Beside the assignment, the reason.
    const reviewers = await within(dialog).findByRole('list', { name: 'Reviewers' });
    expect(
      await within(reviewers).findByText(
        conflictScreenMessages.overrideShown('The only expert in the field'),
      ),
    ).toBeVisible();
  });

  it('assigns a member with a suggested conflict at once', async () => {
    const fetchStub = stubChair();
    const { user, dialog } = await openDialog();
    await within(dialog).findByText('Possible conflict');
    await user.click(within(dialog).getByRole('button', { name: 'Assign Alan Turing' }));
    expect(
      await screen.findByText('Alan Turing is now a reviewer of this proposal.'),
    ).toBeVisible();
    expect(bodiesOf(fetchStub)).toEqual([{ proposalId: 30, userId: 10 }]);
    expect(screen.queryByRole('dialog', { name: 'Assign despite a conflict?' })).toBeNull();
  });

  it('asks for the reason when the server names a conflict the dialog did not know of', async () => {
    const fetchStub = stubChair({
      shown: makeProposalConflicts({ conflicts: [] }),
      enforced: makeProposalConflicts({
        conflicts: [makeConflictItem({ userId: 9, state: 'confirmed', type: 'financial' })],
      }),
    });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Assign Grace Hopper' }));
    const ask = await screen.findByRole('dialog', { name: 'Assign despite a conflict?' });
    expect(ask).toHaveTextContent(conflictMessages.assignConflicted('Grace Hopper', 'financial'));
    // The refusal is the question, not an error in red.
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await user.type(within(ask).getByRole('textbox', { name: /Reason for assigning/ }), 'Agreed');
    await user.click(within(ask).getByRole('button', { name: 'Assign Anyway' }));
    expect(
      await screen.findByText('Grace Hopper is now a reviewer of this proposal.'),
    ).toBeVisible();
    expect(bodiesOf(fetchStub)).toEqual([
      { proposalId: 30, userId: 9 },
      { proposalId: 30, userId: 9, overrideReason: 'Agreed' },
    ]);
  });
});
