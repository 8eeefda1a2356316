import type { Reviewer } from '@merit/contract';
import { assignmentMessages, reviewMessages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';
import { makeCall } from '../calls/calls.fixtures';
import { makeFormOrder, makeProposal } from '../proposals/proposals.fixtures';
import { reviewerCandidates } from './ReviewersDialog';
import {
  chairProposalAbilities,
  makeCommitteeMember,
  makeReviewList,
  makeReviewSummary,
  reviewerAbilities,
} from './reviews.fixtures';

/** Carla, who chairs committee 3 (and is a member of it too). */
const carla = makeUser({ id: 3, username: 'carla', first_name: 'Carla', last_name: 'Chair' });

const MEMBERS = [
  makeCommitteeMember({ roleId: 1, userId: 9, name: 'Grace Hopper', email: 'grace@example.org' }),
  makeCommitteeMember({ roleId: 2, userId: 10, name: 'Alan Turing', email: 'alan@example.org' }),
  // The author and a collaborator are members too, but may not review their proposal.
  makeCommitteeMember({ roleId: 3, userId: 7, name: 'Ada Lovelace', email: 'ada@example.org' }),
  makeCommitteeMember({ roleId: 4, userId: 8, name: 'Charles Babbage', email: 'cb@example.org' }),
  // A chair with a member's role as well is listed once.
  ...(['MEMBER', 'CHAIR'] as const).map((role, index) =>
    makeCommitteeMember({
      roleId: 5 + index,
      userId: 3,
      name: 'Carla Chair',
      email: 'carla@example.org',
      role,
    }),
  ),
  makeCommitteeMember({ roleId: 7, userId: 12, name: 'Mary Gone', is_active: false }),
];

const proposalOf = (reviewers: Reviewer[]) =>
  makeProposal({
    state: 'Submitted',
    stateVal: 1,
    collaboratorIds: [8],
    collaborators: [{ id: 8, name: 'Charles Babbage', email: 'charles@example.org' }],
    reviewers,
    isReviewed: false,
    reviewScores: [{ name: 'result', value: null }],
    abilities: chairProposalAbilities,
  });

/** The bodies of every call to /reviewers/ with `method`, in order. */
const bodiesOf = (fetchStub: ReturnType<typeof stubApi>, method: string) =>
  fetchStub.mock.calls
    .filter(([input, init]) => init?.method === method && String(input).endsWith('/reviewers/'))
    .map(([, init]) => JSON.parse(String(init!.body)) as unknown);

const menuItems = () =>
  within(screen.getByRole('menu'))
    .getAllByRole('menuitem')
    .map((item) => item.textContent);

async function openEditor() {
  renderApp('/calls/12/proposals/30/', { token: 'k' });
  await screen.findByRole('heading', { name: 'Dark matter survey' }, AFTER_NAVIGATION);
}

describe('reviewerCandidates', () => {
  it('lists the active members once each, without the proposal’s people or its reviewers', () => {
    const candidates = reviewerCandidates(MEMBERS, {
      authorId: 7,
      collaboratorIds: [8],
      reviewers: [{ id: 10, name: 'Alan Turing' }],
    });
    expect(candidates.map(({ name, role }) => [name, role])).toEqual([
      ['Carla Chair', 'CHAIR'],
      ['Grace Hopper', 'MEMBER'],
    ]);
  });
});

describe('Manage Reviewers', () => {
  it('assigns a member found by search, shows a refusal in red, and removes after asking', async () => {
    const user = userEvent.setup();
    let reviewers: Reviewer[] = [];
    const fetchStub = stubApi({
      'GET /user_details/': { body: carla },
      'GET /proposals/30/': () => ({ body: proposalOf(reviewers) }),
      'GET /proposal_form_order/12/': { body: makeFormOrder() },
      'GET /calls/12/': { body: makeCall() },
      'GET /committee_members/?committee=3': { body: MEMBERS },
      'POST /reviewers/': ({ body }) => {
        const { userId } = body as { userId: number };
        if (userId === 3)
          return {
            status: 400,
            body: {
              detail: 'The request is not valid. Check the highlighted fields.',
              code: 'validation_error',
              fields: { userId: [reviewMessages.reviewerNotMember] },
            },
          };
        const person = { id: userId, name: userId === 9 ? 'Grace Hopper' : 'Alan Turing' };
        reviewers = [...reviewers, person];
        return { status: 201, body: person };
      },
      'DELETE /reviewers/': ({ body }) => {
        reviewers = reviewers.filter((person) => person.id !== (body as { userId: number }).userId);
        return { status: 204 };
      },
    });
    await openEditor();
    // Chairs see who reviews it; never the author (see ProposalEditorPage's tests).
    expect(screen.getByText(/No reviewers assigned · Review score: N\/A/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Manage' }));
    expect(menuItems()).toEqual([
      'Save PDF',
      'View Reviews',
      'Manage Reviewers',
      'Manage Uploaded Files',
    ]);
    expect(screen.getByRole('menuitem', { name: 'View Reviews' })).toHaveAttribute(
      'href',
      '/calls/12/proposals/30/reviews/',
    );
    await user.click(screen.getByRole('menuitem', { name: 'Manage Reviewers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage Reviewers' });
    expect(dialog).toHaveTextContent('This proposal has no reviewers yet.');
    const members = await within(dialog).findByRole('list', { name: 'Committee members' });
    // Neither the author nor the collaborator, the inactive member, nor Carla twice.
    expect(
      within(members)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Alan Turingalan@example.orgAssign',
      'Carla Chair (chair)carla@example.orgAssign',
      'Grace Hoppergrace@example.orgAssign',
    ]);

    // The server refuses: its words in red.
    await user.click(within(dialog).getByRole('button', { name: 'Assign Carla Chair' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      reviewMessages.reviewerNotMember,
    );

    await user.type(
      within(dialog).getByRole('searchbox', { name: 'Search committee members' }),
      'grace',
    );
    expect(within(members).getAllByRole('listitem')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Assign Grace Hopper' }));
    expect(
      await screen.findByText('Grace Hopper is now a reviewer of this proposal.'),
    ).toBeVisible();
    const assigned = await within(dialog).findByRole('list', { name: 'Reviewers' });
    expect(assigned).toHaveTextContent('Grace Hopper');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(bodiesOf(fetchStub, 'POST')).toEqual([
      { proposalId: 30, userId: 3 },
      { proposalId: 30, userId: 9 },
    ]);
    // Once assigned, Grace is no longer a candidate.
    await waitFor(() =>
      expect(
        within(dialog).queryByRole('button', { name: 'Assign Grace Hopper' }),
      ).not.toBeInTheDocument(),
    );

    // Removing asks first: it takes back the work she was asked to do.
    await user.click(within(dialog).getByRole('button', { name: 'Remove Grace Hopper' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove this reviewer?' });
    expect(confirm).toHaveTextContent('Grace Hopper will no longer be asked to review');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(apiCalls(fetchStub)).not.toContain('DELETE /reviewers/');

    // Found once the confirmation has gone, and the dialog under it is in reach again.
    await user.click(await within(dialog).findByRole('button', { name: 'Remove Grace Hopper' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove this reviewer?' })).getByRole(
        'button',
        { name: 'Remove' },
      ),
    );
    expect(
      await screen.findByText('Grace Hopper is no longer a reviewer of this proposal.'),
    ).toBeVisible();
    expect(await within(dialog).findByText('This proposal has no reviewers yet.')).toBeVisible();
    expect(bodiesOf(fetchStub, 'DELETE')).toEqual([{ proposalId: 30, userId: 9 }]);
  });

  it('asks before assigning a member past their cap, and assigns anyway when told to', async () => {
    const user = userEvent.setup();
    const detail = assignmentMessages.overCap('Grace Hopper', 4);
    let reviewers: Reviewer[] = [];
    const fetchStub = stubApi({
      'GET /user_details/': { body: carla },
      'GET /proposals/30/': () => ({ body: proposalOf(reviewers) }),
      'GET /proposal_form_order/12/': { body: makeFormOrder() },
      'GET /calls/12/': { body: makeCall() },
      'GET /committee_members/?committee=3': { body: MEMBERS },
      'POST /reviewers/': ({ body }) => {
        if (!(body as { overCap?: boolean }).overCap)
          return { status: 409, body: { detail, code: 'over_cap' } };
        reviewers = [{ id: 9, name: 'Grace Hopper' }];
        return { status: 201, body: reviewers[0] };
      },
    });
    await openEditor();
    await user.click(screen.getByRole('button', { name: 'Manage' }));
    await user.click(screen.getByRole('menuitem', { name: 'Manage Reviewers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage Reviewers' });
    const assignGrace = () => within(dialog).findByRole('button', { name: 'Assign Grace Hopper' });

    await user.click(await assignGrace());
    let ask = await screen.findByRole('dialog', { name: 'Assign over the cap?' });
    expect(ask).toHaveTextContent(`${detail} Assign anyway?`);
    // Cancelled: nothing assigned, and the refusal is no error to show.
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Assign over the cap?' })).toBeNull(),
    );
    expect(within(dialog).queryByRole('alert')).toBeNull();

    await user.click(await assignGrace());
    ask = await screen.findByRole('dialog', { name: 'Assign over the cap?' });
    await user.click(within(ask).getByRole('button', { name: 'Assign anyway' }));
    expect(
      await screen.findByText('Grace Hopper is now a reviewer of this proposal.'),
    ).toBeVisible();
    expect(await within(dialog).findByRole('list', { name: 'Reviewers' })).toHaveTextContent(
      'Grace Hopper',
    );
    expect(bodiesOf(fetchStub, 'POST')).toEqual([
      { proposalId: 30, userId: 9 },
      { proposalId: 30, userId: 9 },
      { proposalId: 30, userId: 9, overCap: true },
    ]);
  });

  it('shows its author no reviewer, no score and no review entries', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      // As the server sends it to its author: no reviewers, scores or state of review.
      'GET /proposals/30/': { body: makeProposal({ state: 'Submitted', stateVal: 1 }) },
      'GET /proposal_form_order/12/': { body: makeFormOrder() },
      'GET /lock/30/': { body: { holderId: null, holder: null, mine: false } },
      'DELETE /lock/30/': { status: 204 },
    });
    await openEditor();
    expect(screen.queryByText(/Reviewers|Review score/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Manage' }));
    expect(menuItems()).not.toEqual(expect.arrayContaining([expect.stringMatching(/Review/)]));
    expect(apiCalls(fetchStub).filter((call) => call.includes('review'))).toEqual([]);
  });

  it('offers a reviewer Add Review, then Edit Review once they have one', async () => {
    const user = userEvent.setup();
    let reviews = makeReviewList({ reviews: [] });
    stubApi({
      'GET /user_details/': { body: makeUser({ id: 11, username: 'grace' }) },
      'GET /proposals/30/': {
        body: makeProposal({ state: 'Submitted', stateVal: 1, abilities: reviewerAbilities }),
      },
      'GET /proposal_form_order/12/': { body: makeFormOrder() },
      'GET /calls/12/proposals/30/reviews/': () => ({ body: reviews }),
    });
    const view = renderApp('/calls/12/proposals/30/', { token: 'k' });
    await screen.findByRole('heading', { name: 'Dark matter survey' }, AFTER_NAVIGATION);
    await user.click(screen.getByRole('button', { name: 'Manage' }));
    await waitFor(() =>
      expect(menuItems()).toEqual([
        'Save PDF',
        'Add Review',
        'View Reviews',
        'Manage Uploaded Files',
      ]),
    );
    expect(screen.getByRole('menuitem', { name: 'Add Review' })).toHaveAttribute(
      'href',
      '/calls/12/proposals/30/review/',
    );
    await user.keyboard('{Escape}');
    view.unmount();

    reviews = makeReviewList({ reviews: [makeReviewSummary({ id: 95, authorId: 11 })] });
    renderApp('/calls/12/proposals/30/', { token: 'k' });
    await screen.findByRole('heading', { name: 'Dark matter survey' }, AFTER_NAVIGATION);
    await user.click(screen.getByRole('button', { name: 'Manage' }));
    expect(await screen.findByRole('menuitem', { name: 'Edit Review' })).toHaveAttribute(
      'href',
      '/calls/12/proposals/30/reviews/95/',
    );
  });
});
