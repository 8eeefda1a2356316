import type { CallDetail, CallSave } from '@merit/contract';
import type { App } from '../src/app.js';
import { proposalReviewers, proposals, reviews } from '../src/db/schema.js';
import { makeForm, makeFormName } from './admin-fixtures.js';

const DAY = 24 * 60 * 60 * 1000;

/** One form of each kind a call needs: two proposal forms and two review forms. */
export async function makeCallForms(app: App) {
  const proposalName = await makeFormName(app, { type: 0 });
  const multiName = await makeFormName(app, { type: 1 });
  const reviewName = await makeFormName(app, { type: 2 });
  const scoreName = await makeFormName(app, { type: 3 });
  return {
    proposal: (await makeForm(app, proposalName.id)).id,
    proposalMulti: (await makeForm(app, multiName.id)).id,
    review: (await makeForm(app, reviewName.id)).id,
    score: (
      await makeForm(app, scoreName.id, { options: { method: 'average', fields: ['score'] } })
    ).id,
  };
}
export type CallForms = Awaited<ReturnType<typeof makeCallForms>>;

/** A saved call's proposal types as an edit of it sends them back, unchanged. */
export const typesToSave = (call: Pick<CallDetail, 'proposalTypes'>): CallSave['proposalTypes'] =>
  call.proposalTypes.map(({ typeId, typeName, proposalForms, reviewForms }) => ({
    typeId,
    typeName,
    proposalForms,
    reviewForms,
  }));

/**
 * A valid new-call payload around `now`: submission open from a day ago for a week,
 * review the week after.
 */
export function callPayload(
  committee: number,
  forms: CallForms,
  now: Date,
  overrides: Partial<CallSave> = {},
): CallSave {
  const at = (days: number) => new Date(now.getTime() + days * DAY).toISOString();
  return {
    new: true,
    id: null,
    committee,
    name: 'Telescope time 2026',
    openDateTime: at(-1),
    closeDateTime: at(7),
    reviewOpenDateTime: at(7),
    reviewCloseDateTime: at(14),
    isReviewOpen: false,
    // Conflicts recorded and enforced, but no declaration gate unless a test asks for one.
    conflicts: { enabled: true, declarationRequired: false },
    description: '<p>Apply for <strong>observing time</strong>.</p>',
    proposalTypes: [
      {
        typeName: 'Standard',
        typeId: null,
        proposalForms: [forms.proposal, forms.proposalMulti],
        reviewForms: [forms.review, forms.score],
      },
    ],
    ...overrides,
  };
}

/** A proposal straight in the database, as the proposals feature will make them. */
export async function makeProposal(
  app: App,
  input: { callId: number; proposalTypeId: number; authorId: number; stateVal?: number },
) {
  const now = app.now();
  const [row] = await app.db
    .insert(proposals)
    .values({ name: 'A proposal', stateVal: 0, createdAt: now, updatedAt: now, ...input })
    .returning();
  return row!;
}

export async function makeReview(app: App, proposalId: number, reviewerId: number) {
  const now = app.now();
  const [row] = await app.db
    .insert(reviews)
    .values({ proposalId, reviewerId, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

/** Reviewers a chair assigned, straight in the database, as the reviews feature will. */
export async function assignReviewers(app: App, proposalId: number, userIds: number[]) {
  if (userIds.length === 0) return;
  await app.db.insert(proposalReviewers).values(userIds.map((userId) => ({ proposalId, userId })));
}
