import type { ProposalDetail } from '@merit/contract';
import { eq } from 'drizzle-orm';
import type { App } from '../src/app.js';
import { proposalTypes } from '../src/db/schema.js';
import { saveCall } from '../src/modules/calls/calls.service.js';
import { makeForm, makeFormName, type caller } from './admin-fixtures.js';
import { callPayload, makeCallForms, type CallForms } from './call-fixtures.js';

const DAY = 24 * 60 * 60 * 1000;

/** A one-entry proposal form whose fields have titles, one of them required. */
export const projectSchema = {
  type: 'object',
  required: ['title'],
  properties: {
    title: { type: 'string', title: 'Project title', maxLength: 100 },
    summary: { type: 'string', title: 'Summary' },
    contact: { type: 'string', title: 'Contact email', format: 'email' },
  },
};

/** A multi-entry form: one entry per team member. */
export const memberSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', title: 'Name' },
    hours: { type: 'integer', title: 'Hours', minimum: 0 },
    skills: { type: 'array', items: { type: 'string', minLength: 2 } },
  },
};

/** The forms a proposal call needs: a project form, a team (multi-entry) form, review forms. */
export async function makeProposalForms(app: App) {
  const review = await makeCallForms(app);
  const project = await makeForm(app, (await makeFormName(app, { type: 0 })).id, {
    jsonSchema: projectSchema,
    uiSchema: { summary: { 'ui:widget': 'textarea' } },
  });
  const team = await makeForm(app, (await makeFormName(app, { type: 1 })).id, {
    jsonSchema: memberSchema,
  });
  return { review, project: project.id, team: team.id };
}
export type ProposalForms = Awaited<ReturnType<typeof makeProposalForms>>;

/**
 * A call of `committeeId` with one proposal type (its forms, or the project form then the team form),
 * its submission window opening `opensDaysAgo` days ago for a week. Made by an admin.
 */
export async function makeProposalCall(
  app: App,
  input: {
    committeeId: number;
    forms: ProposalForms;
    admin: { id: number; isAdmin: boolean };
    opensDaysAgo?: number;
    /** The proposal type's forms, in order; the project form, then the team form, unless told. */
    proposalForms?: number[];
  },
) {
  const { forms } = input;
  const at = new Date(app.now().getTime() - ((input.opensDaysAgo ?? 1) - 1) * DAY);
  const callForms: CallForms = forms.review;
  const callId = await app.writeAs(input.admin, (work) =>
    saveCall(
      work,
      callPayload(input.committeeId, callForms, at, {
        proposalTypes: [
          {
            typeName: 'Standard',
            typeId: null,
            proposalForms: input.proposalForms ?? [forms.project, forms.team],
            reviewForms: [callForms.review, callForms.score],
          },
        ],
      }),
    ),
  );
  return { callId, typeId: await proposalTypeOf(app, callId) };
}

/** The (first) proposal type of a call. */
export async function proposalTypeOf(app: App, callId: number): Promise<number> {
  const [type] = await app.db
    .select({ id: proposalTypes.id })
    .from(proposalTypes)
    .where(eq(proposalTypes.callId, callId))
    .orderBy(proposalTypes.position);
  return type!.id;
}

/**
 * The saved entry `index` of a form of a proposal as its editor reads it (GET
 * /proposals/{id}/): its id and version, which a save that changes it names. Nothing
 * (`{}`) when there is no such entry, so a save spread with it adds one.
 */
export async function savedEntry(
  call: ReturnType<typeof caller>,
  proposalId: number,
  formId: number,
  index = 0,
): Promise<{ entryId?: string; version?: number }> {
  const res = await call('GET', `/proposals/${proposalId}/`);
  if (res.statusCode !== 200) throw new Error(`GET /proposals/${proposalId}/: ${res.body}`);
  const entry = (res.json() as ProposalDetail).entries[String(formId)]?.[index];
  return entry ? { entryId: entry.entryId, version: entry.version } : {};
}
