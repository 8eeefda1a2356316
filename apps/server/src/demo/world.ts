/**
 * The demo world (issue 30): a facility-access committee's year, written through the
 * product's own services as its people would have written it (as bench/lib/setup.ts and
 * bench/lib/service-writer.ts do), so the demo never holds anything the product would
 * refuse. The app's clock is moved to each moment something happens: every date is
 * relative to `now`, the day the demo is built, so the open call is open whenever it runs.
 *
 * What it makes is in content.ts; the accounts are in accounts.ts.
 */
import { and, eq } from 'drizzle-orm';
import type { App } from '../app.js';
import { proposalTypes, users } from '../db/schema.js';
import { addExtension, closeCall, saveCall } from '../modules/calls/calls.service.js';
import { createCommittee } from '../modules/committees/committees.service.js';
import { addConflict } from '../modules/conflicts/conflicts.service.js';
import { saveCapacity, saveDecision } from '../modules/decisions/decisions.service.js';
import { recordUpload } from '../modules/files/files.service.js';
import { newStorageKey } from '../modules/files/uploads.js';
import { FORM_EXAMPLES } from '../modules/forms/form-examples.js';
import { createFormName, saveForm } from '../modules/forms/forms.service.js';
import { releaseDecisions } from '../modules/letters/letters.service.js';
import { saveResponse } from '../modules/proposals/answers.service.js';
import { saveDecisionSummary } from '../modules/proposals/chair.service.js';
import { changeProposalState } from '../modules/proposals/proposals.service.js';
import { addCollaborator } from '../modules/proposals/team.service.js';
import { assignReviewer, saveReviewResponse } from '../modules/reviews/reviews.service.js';
import { createRole } from '../modules/roles/roles.service.js';
import { createUser } from '../modules/users/users.queries.js';
import { DEMO_ACCOUNTS, demoEmail, type DemoAccount } from './accounts.js';
import {
  COMMITTEE_NAME,
  DEMO_CALLS,
  DEMO_PROPOSALS,
  EXTENSION,
  REVIEW_TEXT,
  type CallKey,
  type DemoProposalSpec,
  type TypeKey,
} from './content.js';
import { demoPdf } from './pdf.js';

const DAY = 24 * 60 * 60 * 1000;

/** Each proposal type's forms, by the form builder's example keys. */
const TYPE_FORMS: Record<TypeKey, { name: string; forms: string[] }> = {
  compute: {
    name: 'Computing and data',
    forms: ['project-description', 'team-member', 'resource-request'],
  },
  instrument: {
    name: 'Instrument time',
    forms: ['project-description', 'team-member', 'instrument-request'],
  },
};
const REVIEW_FORMS = ['review', 'review-score'];

export interface DemoClock {
  /** Moves the app's clock (`app.now()`) to `at`. */
  set(at: Date): void;
}

export interface DemoWorldOptions {
  /** The day the demo starts: every date is counted from it. */
  now: Date;
  /** Every demo account's password. */
  password: string;
  clock: DemoClock;
}

export interface DemoWorld {
  committeeId: number;
  /** User ids by username. */
  users: Record<string, number>;
  calls: Record<CallKey, { id: number; name: string }>;
  proposals: {
    id: number;
    name: string;
    call: CallKey;
    callId: number;
    author: string;
    submitted: boolean;
  }[];
}

/** Makes the demo world on an empty database. Leaves the clock at `now`. */
export async function buildDemoWorld(app: App, options: DemoWorldOptions): Promise<DemoWorld> {
  const { now, clock } = options;
  const at = (days: number, hours = 10) => new Date(now.getTime() + days * DAY + hours * 3600_000);
  const publicUrl = app.config.publicUrl;
  let hash = 0;

  clock.set(at(-200));
  const ids: Record<string, number> = {};
  for (const account of DEMO_ACCOUNTS)
    ids[account.username] = await makeAccount(app, account, options.password);
  const admin = { id: ids.admin!, isAdmin: true };
  const as = (username: string) => ({ id: ids[username]!, isAdmin: false });

  // The committee, its two chairs and four members, for this year and the next.
  const committee = await app.writeAs(admin, (work) =>
    createCommittee(work, { name: COMMITTEE_NAME }),
  );
  for (const account of DEMO_ACCOUNTS) {
    if (account.role !== 'chair' && account.role !== 'member') continue;
    await app.writeAs(admin, (work) =>
      createRole(work, ids[account.username]!, {
        committeeId: committee.id,
        role: account.role === 'chair' ? 'CHAIR' : 'MEMBER',
        commencement: at(-365).toISOString(),
        termination: at(365).toISOString(),
      }),
    );
  }

  // The six forms, each from the form builder's example as an admin would load and save it.
  const formIds: Record<string, number> = {};
  for (const example of FORM_EXAMPLES) {
    formIds[example.key] = await app.writeAs(admin, async (work) => {
      const name = await createFormName(work, {
        name: example.name,
        display_name: example.display_name,
        type: example.type,
      });
      const form = await saveForm(work, {
        isNew: true,
        name: name.id,
        version: '1.0',
        jsonSchema: example.jsonSchema,
        uiSchema: example.uiSchema,
        initialData: null,
        options: example.options as Record<string, unknown> | null,
      });
      return form.id;
    });
  }

  // The calls, made by the chair well before the first opens.
  const calls = {} as DemoWorld['calls'];
  const typeIds = {} as Record<CallKey, Record<TypeKey, number>>;
  for (const spec of Object.values(DEMO_CALLS)) {
    const [open, close, reviewOpen, reviewClose] = spec.days;
    clock.set(at(Math.min(-190, open - 20)));
    const callId = await app.writeAs(as('chair'), (work) =>
      saveCall(work, {
        new: true,
        id: null,
        committee: committee.id,
        name: spec.name,
        openDateTime: at(open, 9).toISOString(),
        closeDateTime: at(close, 17).toISOString(),
        reviewOpenDateTime: at(reviewOpen, 17).toISOString(),
        reviewCloseDateTime: at(reviewClose, 17).toISOString(),
        isReviewOpen: false,
        conflicts: { enabled: true, declarationRequired: false },
        description: spec.description,
        proposalTypes: (['compute', 'instrument'] as const).map((type) => ({
          typeName: TYPE_FORMS[type].name,
          typeId: null,
          proposalForms: TYPE_FORMS[type].forms.map((key) => formIds[key]!),
          reviewForms: REVIEW_FORMS.map((key) => formIds[key]!),
        })),
      }),
    );
    calls[spec.key] = { id: callId, name: spec.name };
    const types = await app.db
      .select({ id: proposalTypes.id, name: proposalTypes.name })
      .from(proposalTypes)
      .where(eq(proposalTypes.callId, callId));
    typeIds[spec.key] = {
      compute: types.find((t) => t.name === TYPE_FORMS.compute.name)!.id,
      instrument: types.find((t) => t.name === TYPE_FORMS.instrument.name)!.id,
    };
  }

  const proposals: DemoWorld['proposals'] = [];
  const idOf = (spec: DemoProposalSpec) =>
    proposals.find((p) => p.name === spec.name && p.call === spec.call)!.id;

  /** One proposal written by its author: each form saved, files, collaborators, submitted. */
  const writeProposal = async (spec: DemoProposalSpec) => {
    clock.set(at(spec.day));
    const author = as(spec.author);
    const call = calls[spec.call].id;
    const proposalTypeId = typeIds[spec.call][spec.type];
    hash += 1;
    let proposalId: number | null = null;
    const save = async (
      formKey: string,
      data: Record<string, unknown>,
      index = 0,
      over?: { entryId: string; version: number },
    ) => {
      const saved = await app.writeAs(author, (work) =>
        saveResponse(work, {
          call,
          proposalTypeId,
          proposal: proposalId,
          new: proposalId === null,
          proposalName: spec.name,
          hash,
          formId: formIds[formKey]!,
          index,
          singleSave: false,
          validate: true,
          data,
          ...over,
        }),
      );
      proposalId = saved.proposalId;
      return saved;
    };
    const description = projectDescription(spec, at(spec.day + 90));
    const first = await save('project-description', description);
    const team = [spec.author, ...(spec.collaborators ?? [])];
    for (const [index, username] of team.entries())
      await save('team-member', teamEntry(username, index === 0), index);
    for (const [index, entry] of (spec.resources ?? []).entries())
      await save('resource-request', { ...entry }, index);
    for (const [index, entry] of (spec.instruments ?? []).entries())
      await save('instrument-request', { ...entry }, index);
    const id = proposalId!;
    if (spec.pdf) {
      const fileId = await uploadPdf(app, author, id, {
        formId: formIds['project-description']!,
        field: 'supporting_document',
        name: `${spec.name} - supporting document.pdf`,
        title: spec.name,
        lines: [spec.summary, '', 'Figures, letters of support and the data management plan.'],
      });
      // A second Save All: the form's answer once more, now naming the file.
      hash += 1;
      await save(
        'project-description',
        { ...description, supporting_document: String(fileId) },
        0,
        { entryId: first.entryId, version: first.version },
      );
      await uploadPdf(app, author, id, {
        formId: null,
        field: null,
        name: 'Letter of support.pdf',
        title: 'Letter of support',
        lines: [`We support the proposal "${spec.name}".`, 'Facility staff, Northern Lights RI'],
      });
    }
    for (const username of spec.collaborators ?? []) {
      const [person] = await app.db
        .select({ hash: users.hash })
        .from(users)
        .where(eq(users.id, ids[username]!));
      await app.writeAs(author, (work) =>
        addCollaborator(work, { proposalId: id, hash: person!.hash }, publicUrl),
      );
    }
    if (spec.submitted)
      await app.writeAs(author, (work) =>
        changeProposalState(work, { proposalId: id, state: 1 }, publicUrl),
      );
    proposals.push({
      id,
      name: spec.name,
      call: spec.call,
      callId: call,
      author: spec.author,
      submitted: spec.submitted,
    });
  };

  /** The chair assigns the reviewers once submission has closed, and they write. */
  const review = async (spec: DemoProposalSpec) => {
    const proposalId = idOf(spec);
    const call = calls[spec.call].id;
    clock.set(at(DEMO_CALLS[spec.call].days[2], 18));
    for (const reviewer of spec.reviewers ?? [])
      await app.writeAs(as('chair'), (work) =>
        assignReviewer(work, { proposalId, userId: ids[reviewer]!, overCap: true }, publicUrl),
      );
    for (const r of spec.reviews ?? []) {
      clock.set(at(r.day, 15));
      hash += 1;
      const forms: [string, Record<string, unknown>][] = [
        [
          'review',
          {
            strengths: REVIEW_TEXT.strengths,
            weaknesses: REVIEW_TEXT.weaknesses,
            comments_to_committee: REVIEW_TEXT.comments,
            recommendation: r.recommendation ?? 'Fund with changes',
            conflict_of_interest: false,
          },
        ],
      ];
      if (r.state === 'done' && r.scores) {
        const [significance, feasibility, team, value] = r.scores;
        forms.push(['review-score', { significance, feasibility, team, value_for_money: value }]);
      }
      let saved: { reviewId: number; version: number } | undefined;
      for (const [key, data] of forms)
        saved = await app.writeAs(as(r.by), (work) =>
          saveReviewResponse(work, {
            call,
            proposal: proposalId,
            formId: formIds[key]!,
            hash,
            data,
            validate: true,
            reviewId: saved?.reviewId,
            version: saved?.version,
          }),
        );
    }
  };

  const ofCall = (key: CallKey) => DEMO_PROPOSALS.filter((p) => p.call === key);

  // The closed call: written, reviewed, closed, decided, and its letters sent.
  for (const spec of ofCall('closed')) await writeProposal(spec);
  for (const spec of ofCall('closed')) await review(spec);
  await decideClosedCall(app, {
    chair: as('chair'),
    callId: calls.closed.id,
    specs: ofCall('closed'),
    idOf,
    at,
    clock,
  });

  // The rapid call, then the call in review, then the open one.
  for (const spec of ofCall('late')) await writeProposal(spec);
  for (const spec of ofCall('review')) await writeProposal(spec);
  // A chair's conflict: the member at the applicant's own university reviews none of theirs.
  const downscaling = DEMO_PROPOSALS.find((p) => p.author === 'applicant4' && p.call === 'review')!;
  clock.set(at(-13));
  await app.writeAs(as('chair'), (work) =>
    addConflict(work, idOf(downscaling), {
      userId: ids.member3!,
      type: 'institutional',
      reason: 'Same department at Uppsala University.',
      pinned: true,
    }),
  );
  for (const spec of ofCall('late')) await review(spec);
  for (const spec of ofCall('review')) await review(spec);

  for (const spec of ofCall('open')) await writeProposal(spec);
  // An applicant declares a conflict with a member they wrote a paper with.
  const arcs = DEMO_PROPOSALS.find((p) => p.call === 'open' && p.author === 'applicant1')!;
  clock.set(at(-1, 12));
  await app.writeAs(as('applicant1'), (work) =>
    addConflict(work, idOf(arcs), {
      userId: ids.member2!,
      type: 'collaborator',
      reason: 'Co-authors of a 2025 paper on auroral radio emission.',
      pinned: false,
    }),
  );
  await app.writeAs(as('chair'), (work) =>
    addExtension(work, {
      callId: calls.open.id,
      user: ids[EXTENSION.applicant]!,
      commencement: at(EXTENSION.days[0], 9).toISOString(),
      termination: at(EXTENSION.days[1], 17).toISOString(),
      reason: EXTENSION.reason,
    }),
  );

  clock.set(now);
  // Mail, conflict detection and letters queued on the way, done before anyone looks.
  await app.jobs.drain();
  return { committeeId: committee.id, users: ids, calls, proposals };
}

async function makeAccount(app: App, account: DemoAccount, password: string): Promise<number> {
  const row = await createUser(
    app.db,
    {
      username: account.username,
      email: demoEmail(account),
      firstName: account.firstName,
      lastName: account.lastName,
      institution: account.institution,
      gender: 'OTHER',
      isAdmin: account.role === 'admin',
      emailVerified: true,
      registrationComplete: true,
      password,
    },
    app.keys.passwordPepper,
  );
  return row.id;
}

function projectDescription(spec: DemoProposalSpec, start: Date): Record<string, unknown> {
  return {
    title: spec.name,
    summary: spec.summary,
    aims: `${spec.summary} The project will publish its data openly within a year of the last measurement.`,
    methods:
      spec.type === 'instrument'
        ? 'Observations or measurements in the requested mode, reduced with the facility pipeline and our own open-source tools.'
        : 'Simulations and analysis on the requested systems, with checkpoints so a failed run costs at most a day.',
    start_date: start.toISOString().slice(0, 10),
    duration_months: 12,
    keywords: spec.keywords,
  };
}

function teamEntry(username: string, lead: boolean): Record<string, unknown> {
  const person = DEMO_ACCOUNTS.find((a) => a.username === username)!;
  return {
    full_name: `${person.firstName} ${person.lastName}`,
    email: demoEmail(person),
    institution: person.institution,
    project_role: lead ? 'Lead investigator' : 'Co-investigator',
    time_commitment: lead ? 0.5 : 0.2,
  };
}

/** A PDF stored and recorded on the proposal as its author uploads one (files service). */
async function uploadPdf(
  app: App,
  author: { id: number; isAdmin: boolean },
  proposalId: number,
  file: {
    formId: number | null;
    field: string | null;
    name: string;
    title: string;
    lines: string[];
  },
): Promise<number> {
  const bytes = demoPdf(file.title, file.lines);
  const storageKey = newStorageKey();
  await app.files.write(storageKey, bytes);
  const row = await app.writeAs(author, (work) =>
    recordUpload(
      work,
      {
        proposalId,
        formId: file.formId,
        field: file.field,
        name: file.name,
        contentType: 'application/pdf',
        size: bytes.length,
        storageKey,
        uploadId: null,
      },
      bytes.subarray(0, 16),
      app.config.uploadQuotaBytes,
    ),
  );
  return row.id;
}

type Amounts = Record<string, Record<string, number>>;

/** What a proposal asks for, per facility (or instrument) and field, as its forms say. */
function requestedOf(spec: DemoProposalSpec): Amounts {
  const amounts: Amounts = {};
  const add = (facility: string, field: string, amount: number) => {
    if (amount <= 0) return;
    const fields = (amounts[facility] ??= {});
    fields[field] = (fields[field] ?? 0) + amount;
  };
  for (const r of spec.resources ?? []) {
    add(r.facility, 'cpu_hours', r.cpu_hours);
    add(r.facility, 'gpu_hours', r.gpu_hours);
    add(r.facility, 'storage_tb', r.storage_tb);
  }
  for (const i of spec.instruments ?? []) add(i.instrument, 'hours', i.hours);
  return amounts;
}

const scaled = (amounts: Amounts, share: number): Amounts =>
  Object.fromEntries(
    Object.entries(amounts).map(([facility, fields]) => [
      facility,
      Object.fromEntries(
        Object.entries(fields).map(([field, amount]) => [field, Math.floor(amount * share)]),
      ),
    ]),
  );

/** What each facility can give this round: less than everyone asks, so the line matters. */
const CLOSED_CALL_CAPACITY: Amounts = {
  'Aurora 2.5 m Telescope': { hours: 60 },
  'Cryo-EM Microscope': { hours: 40 },
  'Borealis Beamline': { hours: 30 },
  'HPC Cluster': { cpu_hours: 300000 },
  'GPU Cloud': { gpu_hours: 8000, storage_tb: 10 },
  'Research Data Store': { storage_tb: 50 },
};

const SUMMARIES: Record<NonNullable<DemoProposalSpec['outcome']>, string> = {
  approved:
    '<p>The committee ranked this proposal among the strongest of the round: a clear question, a feasible plan and a strong team. Approved in full.</p>',
  partly_approved:
    '<p>A strong proposal, but the microscope is oversubscribed: approved with half of the requested time. Please prioritise the first two proteins.</p>',
  waitlisted:
    '<p>Scientifically sound, but below the line for GPU time this round. Waitlisted: if time is returned by an approved project, it goes to this one first.</p>',
  declined:
    '<p>The reviewers found the sampling plan too thin to date the cores reliably. Declined this round; a resubmission with the pilot results is welcome.</p>',
};

/** The decision meeting of the closed call, and the letters that follow it. */
async function decideClosedCall(
  app: App,
  input: {
    chair: { id: number; isAdmin: boolean };
    callId: number;
    specs: DemoProposalSpec[];
    idOf: (spec: DemoProposalSpec) => number;
    at: (days: number, hours?: number) => Date;
    clock: DemoClock;
  },
): Promise<void> {
  const { chair, callId, specs, idOf, at, clock } = input;
  const publicUrl = app.config.publicUrl;
  const reviewClose = DEMO_CALLS.closed.days[3];
  clock.set(at(reviewClose + 1));
  await app.writeAs(chair, (work) => closeCall(work, callId, publicUrl));
  clock.set(at(reviewClose + 3));
  await app.writeAs(chair, (work) =>
    saveCapacity(work, callId, { capacity: CLOSED_CALL_CAPACITY, version: 0 }),
  );
  for (const spec of specs) {
    const proposalId = idOf(spec);
    const outcome = spec.outcome!;
    const requested = requestedOf(spec);
    const awards =
      outcome === 'approved'
        ? requested
        : outcome === 'partly_approved'
          ? scaled(requested, 0.5)
          : {};
    await app.writeAs(chair, (work) =>
      saveDecision(work, proposalId, { outcome, awards, awardNotes: {}, version: 0 }),
    );
    await app.writeAs(chair, (work) =>
      saveDecisionSummary(work, { proposalId, summary: SUMMARIES[outcome], version: 0 }),
    );
  }
  clock.set(at(reviewClose + 5));
  await app.writeAs(chair, (work) => releaseDecisions(work, callId, publicUrl));
  // The letters are written and sent now, dated the day of the release.
  await app.jobs.drain();
}

/** The demo accounts that exist, by username (a later start sets their password). */
export async function demoAccountIds(app: App): Promise<number[]> {
  const found: number[] = [];
  for (const account of DEMO_ACCOUNTS) {
    const [row] = await app.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.username, account.username), eq(users.email, demoEmail(account))));
    if (row) found.push(row.id);
  }
  return found;
}
