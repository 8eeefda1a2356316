/**
 * What an admin does by hand before a call takes proposals, done through the product's
 * own services (the same functions the admin routes call, with their checks and audit
 * rows): the committee, its chairs and members, the form names and forms as the form
 * builder saves them, the two calls with their proposal types, the main call's k and one
 * more reminder for its reviewers. Done at `plan.setUpAt`, before either call opens, as an
 * admin would (so the reminder counts from then). A few dozen transactions (the roles
 * in one), so there is no reason to write them any other way.
 */
import type { App } from '../../apps/server/src/app.js';
import { patchSettings } from '../../apps/server/src/modules/assignment/assignment.service.js';
import { saveCall } from '../../apps/server/src/modules/calls/calls.service.js';
import { createCommittee } from '../../apps/server/src/modules/committees/committees.service.js';
import { createFormName, saveForm } from '../../apps/server/src/modules/forms/forms.service.js';
import { getRules, saveRules } from '../../apps/server/src/modules/reminders/reminders.service.js';
import { createRole } from '../../apps/server/src/modules/roles/roles.service.js';
import { eq } from 'drizzle-orm';
import { proposalTypes } from '../../apps/server/src/db/schema.js';
import {
  FORM_KEYS,
  formDefinitions,
  MAIN_TYPES,
  OPEN_TYPES,
  REVIEW_FORMS,
  REVIEW_STARTED_REMINDER,
  type CallWindows,
  type FormKey,
  type Plan,
} from './plan.js';

const DAY = 24 * 60 * 60 * 1000;

export interface SetUp {
  committeeId: number;
  formIds: Record<FormKey, number>;
  mainCallId: number;
  openCallId: number;
  /** Proposal type ids of each call, in the plan's order. */
  mainTypeIds: number[];
  openTypeIds: number[];
}

/**
 * Sets the plan's calls up as `plan.users[plan.admin]`, whose id (with every other
 * user's) is `userIds`. `stamp` names this run's form and committee names, so a second
 * generation into one database does not collide with the first. `setNow` moves the app's
 * clock: to `plan.setUpAt` while setting up, back to `plan.now` at the end.
 */
export async function setUpCalls(
  app: App,
  plan: Plan,
  userIds: number[],
  stamp: string,
  setNow: (at: Date) => void,
) {
  setNow(plan.setUpAt);
  const admin = { id: userIds[plan.admin]!, isAdmin: true };
  const committee = await app.writeAs(admin, (work) =>
    createCommittee(work, { name: `Benchmark committee ${stamp}` }),
  );
  const roleDates = {
    commencement: new Date(plan.now.getTime() - 400 * DAY).toISOString(),
    termination: new Date(plan.now.getTime() + 400 * DAY).toISOString(),
  };
  // Every role by `createRole`, in one transaction: its audit row each, and one detection
  // job for the committee (each role's queueing finds the one before waiting). A thousand
  // commits of one row each took over two minutes on a busy machine.
  await app.writeAs(admin, async (work) => {
    for (const [role, people] of [
      ['CHAIR', plan.chairs],
      ['MEMBER', plan.members],
    ] as const)
      for (const person of people)
        await createRole(work, userIds[person]!, {
          committeeId: committee.id,
          role,
          ...roleDates,
        });
  });

  const definitions = formDefinitions(plan.facilities);
  const formIds = {} as Record<FormKey, number>;
  for (const key of FORM_KEYS) {
    const definition = definitions[key];
    formIds[key] = await app.writeAs(admin, async (work) => {
      const name = await createFormName(work, {
        name: `bench_${key}_${stamp}`,
        display_name: definition.displayName,
        type: definition.type,
      });
      const form = await saveForm(work, {
        isNew: true,
        name: name.id,
        version: '1.0',
        jsonSchema: definition.jsonSchema,
        uiSchema: definition.uiSchema,
        initialData: null,
        options: definition.options as Record<string, unknown> | null,
      });
      return form.id;
    });
  }

  const makeCall = (name: string, windows: CallWindows, types: typeof MAIN_TYPES) =>
    app.writeAs(admin, (work) =>
      saveCall(work, {
        new: true,
        id: null,
        committee: committee.id,
        name,
        openDateTime: windows.commencement.toISOString(),
        closeDateTime: windows.termination.toISOString(),
        reviewOpenDateTime: windows.reviewCommencement.toISOString(),
        reviewCloseDateTime: windows.reviewTermination.toISOString(),
        isReviewOpen: false,
        // Conflicts recorded and enforced; the generated reviewers write without first
        // answering each proposal's declaration (the data has none to give).
        conflicts: { enabled: true, declarationRequired: false },
        description: '<p>A generated call for the benchmarks.</p>',
        proposalTypes: types.map((type) => ({
          typeName: type.name,
          typeId: null,
          proposalForms: type.forms.map((key) => formIds[key]),
          reviewForms: REVIEW_FORMS.map((key) => formIds[key]),
        })),
      }),
    );
  const mainCallId = await makeCall(`Benchmark call ${stamp}`, plan.mainWindows, MAIN_TYPES);
  const openCallId = await makeCall(`Benchmark open call ${stamp}`, plan.openWindows, OPEN_TYPES);
  // k as the chair sets it in Assignment's settings: the reviewers the plan gives each.
  await app.writeAs(admin, (work) =>
    patchSettings(work, mainCallId, { reviewsPerProposal: plan.reviewsPerProposal }),
  );
  // One more reviewers' reminder besides the defaults, already due when the data is made.
  await app.writeAs(admin, async (work) => {
    const current = await getRules(work, mainCallId);
    await saveRules(work, mainCallId, {
      version: current.version,
      rules: [
        ...current.rules.map(({ nextDueAt: _next, ...rule }) => rule),
        { ...REVIEW_STARTED_REMINDER },
      ],
    });
  });
  setNow(plan.now);
  const typesOf = async (callId: number) =>
    (
      await app.db
        .select({ id: proposalTypes.id })
        .from(proposalTypes)
        .where(eq(proposalTypes.callId, callId))
        .orderBy(proposalTypes.position)
    ).map((t) => t.id);
  return {
    committeeId: committee.id,
    formIds,
    mainCallId,
    openCallId,
    mainTypeIds: await typesOf(mainCallId),
    openTypeIds: await typesOf(openCallId),
  } satisfies SetUp;
}
