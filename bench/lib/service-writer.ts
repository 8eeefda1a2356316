/**
 * The plan written the slow way, one request's worth at a time through the product's
 * services, as people using the app would write it: each author saves their forms (the
 * first save creates the proposal), adds collaborators by their hash, declares conflicts
 * in its Conflicts panel and submits; then the chair opens bidding, the members bid, the
 * chair closes it and assigns reviewers, each reviewer saves both review forms, and members
 * answer a proposal's declaration with a conflict. Used only by
 * apps/server/test/bench-data.api.test.ts, to prove that bench/lib/bulk.ts writes the
 * same thing: its users are made by `createUser`, one password hash each.
 */
import { eq } from 'drizzle-orm';
import type { App } from '../../apps/server/src/app.js';
import { users } from '../../apps/server/src/db/schema.js';
import { patchSettings } from '../../apps/server/src/modules/assignment/assignment.service.js';
import { saveBid } from '../../apps/server/src/modules/assignment/bidding.service.js';
import {
  answerDeclaration,
  saveDeclarations,
} from '../../apps/server/src/modules/conflicts/conflicts.service.js';
import { changeProposalState } from '../../apps/server/src/modules/proposals/proposals.service.js';
import { addCollaborator } from '../../apps/server/src/modules/proposals/team.service.js';
import { saveResponse } from '../../apps/server/src/modules/proposals/answers.service.js';
import {
  assignReviewer,
  saveReviewResponse,
} from '../../apps/server/src/modules/reviews/reviews.service.js';
import { createUser } from '../../apps/server/src/modules/users/users.queries.js';
import type { Plan } from './plan.js';
import type { SetUp } from './setup.js';

/** The plan's users by `createUser`, in order; returns their ids. */
export async function createUsers(app: App, plan: Plan, password: string): Promise<number[]> {
  const ids: number[] = [];
  for (const user of plan.users) {
    const row = await createUser(
      app.db,
      { ...user, emailVerified: true, password },
      app.keys.passwordPepper,
    );
    ids.push(row.id);
  }
  return ids;
}

/** Writes the plan's proposals and reviews through the services; `setNow` moves the app's clock. */
export async function writeViaServices(
  app: App,
  setNow: (at: Date) => void,
  plan: Plan,
  setUp: SetUp,
  userIds: number[],
): Promise<number[]> {
  const publicUrl = app.config.publicUrl;
  const as = (index: number) => ({ id: userIds[index]!, isAdmin: false });
  const proposalIds: number[] = [];
  let batch = 0;

  for (const proposal of plan.proposals) {
    setNow(proposal.at);
    const author = as(proposal.author);
    const call = proposal.call === 'main' ? setUp.mainCallId : setUp.openCallId;
    const typeId = (proposal.call === 'main' ? setUp.mainTypeIds : setUp.openTypeIds)[
      proposal.type
    ]!;
    let id: number | null = null;
    batch += 1;
    for (const answer of proposal.answers) {
      const saved = await app.writeAs(author, (work) =>
        saveResponse(work, {
          call,
          proposalTypeId: typeId,
          proposal: id,
          new: id === null,
          proposalName: proposal.name,
          hash: batch,
          formId: setUp.formIds[answer.form],
          index: answer.index,
          singleSave: false,
          validate: true,
          data: answer.data,
        }),
      );
      id = saved.proposalId;
    }
    const proposalId = id!;
    for (const collaborator of proposal.collaborators) {
      const [person] = await app.db
        .select({ hash: users.hash })
        .from(users)
        .where(eq(users.id, userIds[collaborator]!));
      await app.writeAs(author, (work) =>
        addCollaborator(work, { proposalId, hash: person!.hash }, publicUrl),
      );
    }
    if (proposal.declared.length > 0)
      await app.writeAs(author, (work) =>
        saveDeclarations(work, proposalId, {
          version: 0,
          declarations: proposal.declared.map((d) => ({
            userId: userIds[d.user]!,
            type: d.type,
            reason: d.reason,
          })),
        }),
      );
    if (proposal.submitted)
      await app.writeAs(author, (work) =>
        changeProposalState(work, { proposalId, state: 1 }, publicUrl),
      );
    proposalIds.push(proposalId);
  }

  // Bidding, between submission closing and review opening.
  const admin = { id: userIds[plan.admin]!, isAdmin: true };
  setNow(plan.bidding.from);
  await app.writeAs(admin, (work) => patchSettings(work, setUp.mainCallId, { biddingOpen: true }));
  for (const bid of plan.bids) {
    setNow(bid.at);
    await app.writeAs(as(bid.user), (work) =>
      saveBid(work, setUp.mainCallId, {
        proposalId: proposalIds[bid.proposal]!,
        preference: bid.preference,
      }),
    );
  }
  setNow(plan.bidding.to);
  await app.writeAs(admin, (work) => patchSettings(work, setUp.mainCallId, { biddingOpen: false }));

  // Review time: the chair assigns once submission has closed, then the reviewers write.
  const chair = as(plan.chairs[0]!);
  for (const [i, proposal] of plan.proposals.entries()) {
    const proposalId = proposalIds[i]!;
    setNow(plan.mainWindows.reviewCommencement);
    // The plan gives each proposal more reviewers than the call's k, so some members go
    // past their default cap (issue 27): the chair insists, as the bulk writer's rows do.
    for (const reviewer of proposal.reviewers)
      await app.writeAs(chair, (work) =>
        assignReviewer(work, { proposalId, userId: userIds[reviewer]!, overCap: true }, publicUrl),
      );
    for (const review of proposal.reviews) {
      setNow(review.at);
      batch += 1;
      // A Save All: each form's save names the review and version the one before answered.
      let saved: { reviewId: number; version: number } | undefined;
      for (const [formId, data] of [
        [setUp.formIds.reviewComments, review.comments],
        [setUp.formIds.reviewScores, review.scores],
      ] as const) {
        saved = await app.writeAs(as(review.reviewer), (work) =>
          saveReviewResponse(work, {
            call: setUp.mainCallId,
            proposal: proposalId,
            formId,
            hash: batch,
            data,
            validate: true,
            reviewId: saved?.reviewId,
            version: saved?.version,
          }),
        );
      }
    }
  }

  for (const declaration of plan.memberDeclarations) {
    setNow(declaration.at);
    await app.writeAs(as(declaration.user), (work) =>
      answerDeclaration(
        work,
        proposalIds[declaration.proposal]!,
        { conflict: true, type: declaration.type, reason: declaration.reason },
        publicUrl,
      ),
    );
  }
  return proposalIds;
}
