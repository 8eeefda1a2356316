/**
 * What the reminders, progress and history journeys need: the assignment journey's world
 * (a committee with a chair and three members, a call in review, three submitted
 * proposals), with reviewers assigned by the chair and one review saved.
 *
 * - Grace reviews the Bridge and has saved her review (scores 4 and 3).
 * - Hedy reviews the Bridge and the Stream and has saved nothing.
 */
import { api, logInApi } from '../calls-support/api';
import { createAssignmentWorld, type AssignmentWorld } from '../assignment-support/world';

export type ProgressWorld = AssignmentWorld;

export async function createProgressWorld(): Promise<ProgressWorld> {
  const world = await createAssignmentWorld();
  const { call, proposals, chair, grace, hedy, forms } = world;
  const chairToken = await logInApi(chair);
  for (const [proposal, member] of [
    [proposals.bridge, grace],
    [proposals.bridge, hedy],
    [proposals.stream, hedy],
  ] as const)
    await api('POST', '/reviewers/', {
      token: chairToken,
      body: { proposalId: proposal.id, userId: member.id },
    });

  const graceToken = await logInApi(grace);
  const first = await api<{ reviewId: number; version: number }>('POST', '/review_responses/', {
    token: graceToken,
    body: {
      call: call.id,
      proposal: proposals.bridge.id,
      formId: forms.review,
      hash: 2801,
      data: { strengths: 'A clear plan', weaknesses: 'Needs dark time' },
    },
  });
  await api('POST', '/review_responses/', {
    token: graceToken,
    body: {
      call: call.id,
      proposal: proposals.bridge.id,
      reviewId: first.reviewId,
      version: first.version,
      formId: forms.scores,
      hash: 2802,
      data: { significance: 4, feasibility: 3 },
    },
  });
  return world;
}
