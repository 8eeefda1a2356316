import { randomBytes } from 'node:crypto';
import type { ConflictSource, ConflictState } from '@merit/domain';
import { and, eq, gte } from 'drizzle-orm';
import {
  calls,
  committeeRoles,
  conflicts,
  decisionLetters,
  proposalCollaborators,
  proposalDecisions,
  proposalFiles,
  proposals,
  reviewResponses,
  reviews,
  users,
} from '../../src/db/schema.js';
import { issueToken } from '../../src/modules/auth/tokens.queries.js';
import { saveCall } from '../../src/modules/calls/calls.service.js';
import { PdfWorkerPool } from '../../src/modules/files/files-access.js';
import { letterPdf } from '../../src/modules/letters/letter-pdf.js';
import { createUser } from '../../src/modules/users/users.queries.js';
import { makeForm, makeFormName } from '../admin-fixtures.js';
import { assignReviewers, callPayload, makeCallForms, type CallForms } from '../call-fixtures.js';
import {
  createTestApp,
  giveRole,
  makeCommittee,
  TEST_PASSWORD,
  type TestAppOptions,
  type TestContext,
} from '../helpers.js';
import { proposalTypeOf } from '../proposal-fixtures.js';
import type { Persona } from './personas.js';
import { CANARY_IDS_FROM, SecretRegistry, type SecretOwner, type Viewer } from './secrets.js';

const DAY = 24 * 60 * 60 * 1000;

/** A call the rows make proposals in, with what the visibility rules need of it. */
export interface CallInfo {
  id: number;
  committeeId: number;
  /** Its review window is open and submission has closed: assigned reviewers may review. */
  reviewing: boolean;
  /** Closed by its chairs: decision summaries reach the proposals' people. */
  closed: boolean;
  /** Closed, and its decisions released (issue 29): outcomes and awards reach them too. */
  released?: boolean;
  /** Any member of its committee may review, not only those assigned (spec section 4). */
  reviewOpenToMembers?: boolean;
  /** Its proposal type, once looked up. */
  typeId?: number;
}

/** The shared world the rows act in: read-only but for what each cell makes for itself. */
export interface World {
  ctx: TestContext;
  /** The committee of the calls the rows act on. */
  committeeId: number;
  otherCommitteeId: number;
  forms: CallForms;
  /** A proposal form with a file field, `cv`. */
  fileForm: number;
  /** Submission open now; its review window a week away. */
  call: CallInfo;
  /** Submission closed a day ago; its review window open now. */
  reviewCall: CallInfo;
  /** In its review period like `reviewCall`, and any member of the committee may review. */
  openReviewCall: CallInfo;
  /** Reviewed and closed, its decisions not released. */
  closedCall: CallInfo;
  /** Closed with its decisions released (issue 29). */
  releasedCall: CallInfo;
  /** A call of the other committee, submission open. */
  otherCall: CallInfo;
  formName: number;
  form: number;
  admin: { id: number; isAdmin: true };
  secrets: SecretRegistry;
  /** Each seeded proposal's owner of secrets, for canaries added to it later (its letters). */
  owners: Map<number, SecretOwner>;
  /** The worker thread the letters' PDFs are made in: one for the world, not one a letter. */
  pdfWorkers: PdfWorkerPool;
  /** Closes the app and the PDF worker. */
  close(): Promise<void>;
}

/** One cell's caller: a new user of the persona's kind, with a new token. */
export interface Caller {
  persona: Persona;
  /** Null for callers without an account they can use (anonymous, unverified). */
  id: number | null;
  headers: Record<string, string>;
  viewer: Viewer;
}

export const unique = () => randomBytes(4).toString('hex');

let userSeq = 0;

/**
 * A user straight in the database, with no password (every caller gets a token directly)
 * and a random collaborator hash: one insert, where the service also checks the hash.
 */
export async function newUser(w: World, overrides: Partial<typeof users.$inferInsert> = {}) {
  userSeq += 1;
  const name = `authz_${userSeq}_${unique()}`;
  const [row] = await w.ctx.app.db
    .insert(users)
    .values({
      username: name,
      email: `${name}@example.org`,
      firstName: 'Table',
      lastName: 'Caller',
      emailVerified: true,
      hash: randomBytes(5).toString('hex'),
      ...overrides,
    })
    .returning();
  return row!;
}

/** A current member of the shared committee, to be assigned as a reviewer. */
export async function newMember(w: World) {
  const user = await newUser(w);
  await giveRole(w.ctx.app, user.id, w.committeeId, 'MEMBER', w.ctx.clock.now());
  return user;
}

/**
 * A call of `committeeId` made by an admin, its submission open from `daysAgo` + 1 days ago
 * for a week and its review the week after, one proposal type with the call forms and the
 * form with a file field.
 */
export const newCall = (w: World, daysAgo = 0, committeeId = w.committeeId, isReviewOpen = false) =>
  w.ctx.app.writeAs(w.admin, (work) =>
    saveCall(
      work,
      callPayload(committeeId, w.forms, new Date(w.ctx.clock.now().getTime() - daysAgo * DAY), {
        isReviewOpen,
        proposalTypes: [
          {
            typeName: 'Standard',
            typeId: null,
            proposalForms: [w.forms.proposal, w.forms.proposalMulti, w.fileForm],
            reviewForms: [w.forms.review, w.forms.score],
          },
        ],
      }),
    ),
  );

/** The owner of secrets that belong to no proposal. */
const NOBODY: SecretOwner = {
  committeeId: 0,
  team: [],
  reviewing: [],
  reviewOpenToMembers: false,
  submitted: false,
  callClosed: false,
  decisionsReleased: false,
  conflicted: [],
};

/** The caller for one cell: a new user of the persona's kind and a token of theirs. */
export async function makeCaller(w: World, persona: Persona): Promise<Caller> {
  const viewer: Viewer = { id: null, isAdmin: false, chairOf: [], memberOf: [] };
  // The unverified account exists (beforeAll made it and saw its login refused), but
  // without a token its calls are anonymous ones.
  if (persona === 'anonymous' || persona === 'unverified')
    return { persona, id: null, headers: {}, viewer };
  const now = w.ctx.clock.now();
  // Plain users and deactivated ones are on no committee and no proposal (but their own):
  // their emails are theirs and the admins' to see.
  const lone = persona === 'user' || persona === 'deactivated';
  const email = lone ? `${w.secrets.word('account')}@example.org` : undefined;
  const user = await newUser(w, {
    isAdmin: persona === 'admin' || persona === 'conflictedAdmin',
    registrationComplete: persona !== 'incomplete',
    isAaf: persona === 'incomplete',
    ...(email ? { email } : {}),
  });
  viewer.id = user.id;
  if (email)
    w.secrets.add({
      kind: 'account',
      what: "a plain user's email",
      value: email,
      accountOf: user.id,
      owner: NOBODY,
    });
  if (persona === 'member' || persona === 'reviewer' || persona === 'conflictedMember') {
    await giveRole(w.ctx.app, user.id, w.committeeId, 'MEMBER', now);
    viewer.memberOf = [w.committeeId];
  }
  if (persona === 'chair' || persona === 'chairAuthor' || persona === 'conflictedChair') {
    await giveRole(w.ctx.app, user.id, w.committeeId, 'CHAIR', now);
    viewer.chairOf = viewer.memberOf = [w.committeeId];
  }
  if (persona === 'otherChair') {
    await giveRole(w.ctx.app, user.id, w.otherCommitteeId, 'CHAIR', now);
    viewer.chairOf = viewer.memberOf = [w.otherCommitteeId];
  }
  if (persona === 'expiredChair')
    await w.ctx.app.db.insert(committeeRoles).values({
      userId: user.id,
      committeeId: w.committeeId,
      role: 'CHAIR',
      commencement: new Date(now.getTime() - 400 * DAY),
      termination: new Date(now.getTime() - DAY),
    });
  if (persona === 'admin' || persona === 'conflictedAdmin') viewer.isAdmin = true;
  const key = await issueToken(w.ctx.app.db, user.id, now);
  if (persona === 'deactivated')
    await w.ctx.app.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
  return { persona, id: user.id, headers: { authorization: `Token ${key}` }, viewer };
}

/**
 * A review of `proposalId` by a new canary reviewer (a member of the committee, assigned),
 * with a canary comment and a canary score, all of them registered as secrets of `owner`.
 */
async function seedReview(w: World, proposalId: number, owner: SecretOwner) {
  const { db } = w.ctx.app;
  const s = w.secrets;
  const now = w.ctx.clock.now();
  const id = s.userId();
  const [reviewer] = await db
    .insert(users)
    .overridingSystemValue()
    .values({
      id,
      username: s.word('rvwuser'),
      email: `${s.word('rvwmail')}@example.org`,
      firstName: 'Canary',
      lastName: s.word('rvwname'),
      emailVerified: true,
      hash: randomBytes(5).toString('hex'),
    })
    .returning();
  await giveRole(w.ctx.app, id, owner.committeeId, 'MEMBER', now);
  await assignReviewers(w.ctx.app, proposalId, [id]);
  const score = s.score();
  const comment = s.word('comment');
  const [review] = await db
    .insert(reviews)
    .values({
      proposalId,
      reviewerId: id,
      score,
      scores: [{ name: 'score', value: score }],
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await db.insert(reviewResponses).values([
    { reviewId: review!.id, formId: w.forms.review, data: { title: comment }, updatedAt: now },
    { reviewId: review!.id, formId: w.forms.score, data: { score }, updatedAt: now },
  ]);
  s.add({ kind: 'review', what: 'review comment', value: comment, owner });
  s.add({ kind: 'review', what: 'review score', value: String(score), numeric: true, owner });
  s.add({ kind: 'reviewer', what: "reviewer's name", value: reviewer!.lastName, owner });
  s.add({ kind: 'reviewer', what: "reviewer's email", value: reviewer!.email, owner });
  s.add({ kind: 'reviewer', what: "reviewer's id", value: String(id), numeric: true, owner });
}

interface SeedInput {
  call: CallInfo;
  /** The author; a new user with a canary email when absent. */
  authorId?: number;
  collaboratorIds?: number[];
  /** Adds a new collaborator with a canary email. */
  canaryCollaborator?: boolean;
  /** Callers assigned to review it (besides the canary reviewer of a submitted proposal). */
  reviewerIds?: number[];
  /** Callers with a confirmed conflict of interest with it (recorded by a chair). */
  conflictedIds?: number[];
  stateVal?: number;
}

/**
 * A canary decision (issue 29) of a submitted proposal: approved, with an award of a canary
 * amount of a canary facility and a canary note on it, straight in the table.
 */
async function seedDecision(w: World, proposalId: number, owner: SecretOwner) {
  const s = w.secrets;
  const facility = s.word('facility');
  const amount = s.score();
  const note = s.word('awardnote');
  await w.ctx.app.db.insert(proposalDecisions).values({
    proposalId,
    outcome: 'approved',
    awards: { [facility]: { hours: amount } },
    awardNotes: { [facility]: note },
    version: 1,
    decidedAt: w.ctx.clock.now(),
  });
  s.add({ kind: 'outcome', what: 'awarded facility', value: facility, owner });
  s.add({ kind: 'outcome', what: 'award', value: String(amount), numeric: true, owner });
  s.add({ kind: 'awardNote', what: 'award note', value: note, owner });
}

/**
 * A proposal with its secrets: a canary decision summary, and once it is submitted a canary
 * review and a canary decision (its award and note); an author or collaborator made here
 * has a canary email.
 */
export async function seedProposal(w: World, input: SeedInput) {
  const { db } = w.ctx.app;
  const s = w.secrets;
  const stateVal = input.stateVal ?? 0;
  const emails: string[] = [];
  const person = async () => {
    const email = `${s.word('email')}@example.org`;
    emails.push(email);
    return (await newUser(w, { email })).id;
  };
  const authorId = input.authorId ?? (await person());
  const collaboratorIds = [
    ...(input.collaboratorIds ?? []),
    ...(input.canaryCollaborator ? [await person()] : []),
  ];
  const decision = s.word('decision');
  const now = w.ctx.clock.now();
  const [proposal] = await db
    .insert(proposals)
    .values({
      callId: input.call.id,
      proposalTypeId: (input.call.typeId ??= await proposalTypeOf(w.ctx.app, input.call.id)),
      authorId,
      name: 'A proposal',
      stateVal,
      decisionSummary: `<p>The committee decided: ${decision}</p>`,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (collaboratorIds.length > 0)
    await db
      .insert(proposalCollaborators)
      .values(collaboratorIds.map((userId) => ({ proposalId: proposal!.id, userId })));
  const reviewerIds = stateVal >= 1 ? (input.reviewerIds ?? []) : [];
  await assignReviewers(w.ctx.app, proposal!.id, reviewerIds);
  const conflictedIds = input.conflictedIds ?? [];
  if (conflictedIds.length > 0)
    await db.insert(conflicts).values(
      conflictedIds.map((userId) => ({
        proposalId: proposal!.id,
        userId,
        type: 'personal' as const,
        source: 'chair' as const,
        state: 'confirmed' as const,
        changedAt: now,
      })),
    );
  const owner: SecretOwner = {
    committeeId: input.call.committeeId,
    team: [authorId, ...collaboratorIds],
    reviewing: input.call.reviewing ? reviewerIds : [],
    reviewOpenToMembers: input.call.reviewing && input.call.reviewOpenToMembers === true,
    submitted: stateVal >= 1,
    callClosed: input.call.closed,
    decisionsReleased: input.call.released === true,
    // Every call of the world has conflicts turned on.
    conflicted: conflictedIds,
  };
  w.owners.set(proposal!.id, owner);
  s.add({ kind: 'decision', what: 'decision summary', value: decision, owner });
  for (const email of emails)
    s.add({ kind: 'email', what: "a proposer's email", value: email, owner });
  if (stateVal >= 1) {
    await seedReview(w, proposal!.id, owner);
    await seedDecision(w, proposal!.id, owner);
  }
  return proposal!;
}

/**
 * The proposal a row acts on, in the caller's relation to it: theirs when they are the
 * author, with them as a collaborator or an assigned reviewer when they are those, with a
 * confirmed conflict of interest of theirs when they are conflicted (the conflicted member
 * assigned as well, as one who declared after being assigned), and nothing to do with them
 * otherwise. A Draft in the shared open call unless told.
 */
export function newProposal(
  w: World,
  caller: Caller,
  options: { stateVal?: number; call?: CallInfo } = {},
) {
  const is = (persona: Persona) => caller.persona === persona && caller.id !== null;
  return seedProposal(w, {
    call: options.call ?? w.call,
    stateVal: options.stateVal ?? 0,
    ...(is('author') || is('chairAuthor') ? { authorId: caller.id! } : {}),
    ...(is('collaborator') ? { collaboratorIds: [caller.id!] } : {}),
    ...(is('reviewer') || is('conflictedMember') ? { reviewerIds: [caller.id!] } : {}),
    ...(is('conflictedMember') || is('conflictedChair') || is('conflictedAdmin')
      ? { conflictedIds: [caller.id!] }
      : {}),
  });
}

/**
 * A conflict of interest of a new member of the committee with the caller's submitted
 * proposal (in their relation to it) in the call open for submission: its id.
 */
export async function newConflict(
  w: World,
  caller: Caller,
  facts: { source: ConflictSource; state: ConflictState },
): Promise<number> {
  const proposal = await newProposal(w, caller, { stateVal: 1 });
  const member = await newMember(w);
  const [row] = await w.ctx.app.db
    .insert(conflicts)
    .values({
      proposalId: proposal.id,
      userId: member.id,
      type: 'personal',
      ...facts,
      changedAt: w.ctx.clock.now(),
    })
    .returning({ id: conflicts.id });
  return row!.id;
}

/** The id of the canary reviewer's review of a submitted proposal. */
export async function canaryReviewOf(w: World, proposalId: number): Promise<number> {
  const [row] = await w.ctx.app.db
    .select({ id: reviews.id })
    .from(reviews)
    .where(and(eq(reviews.proposalId, proposalId), gte(reviews.reviewerId, CANARY_IDS_FROM)));
  return row!.id;
}

/** A file of the caller's proposal (in their relation to it), its bytes in the app's storage. */
export async function newFile(w: World, caller: Caller) {
  const proposal = await newProposal(w, caller);
  const storageKey = randomBytes(18).toString('base64url');
  await w.ctx.app.files.write(storageKey, Buffer.from('%PDF-1.4 a file'));
  const [file] = await w.ctx.app.db
    .insert(proposalFiles)
    .values({
      proposalId: proposal.id,
      storageKey,
      name: 'cv.pdf',
      size: 15,
      contentType: 'application/pdf',
      uploadedBy: proposal.authorId,
      uploadedAt: w.ctx.clock.now(),
    })
    .returning();
  return { proposal, file: file! };
}

/**
 * A decision letter (issue 29) of a seeded submitted proposal, straight in the table as
 * the release and the letter job leave one, its PDF made and stored: its subject and body
 * carry a canary of the proposal's outcome, which only those who may read its outcome may
 * see (its people once the decisions are released). `state` as the job or a correction
 * left it: sent, failed (its PDF made, its mail refused) or superseded. Rows that never
 * read the PDF leave it out (`pdf: false`), one render a persona fewer.
 */
export async function newLetter(
  w: World,
  proposalId: number,
  state: 'sent' | 'failed' | 'superseded' = 'sent',
  { pdf = true }: { pdf?: boolean } = {},
): Promise<number> {
  const now = w.ctx.clock.now();
  const canary = w.secrets.word('letter');
  w.secrets.add({
    kind: 'outcome',
    what: "a decision letter's text",
    value: canary,
    owner: w.owners.get(proposalId)!,
  });
  const subject = `Your proposal: ${canary}`;
  const html = `<p>The committee approved your proposal: ${canary}.</p>`;
  const storageKey = pdf ? randomBytes(18).toString('base64url') : null;
  if (storageKey)
    await w.ctx.app.files.write(
      storageKey,
      await letterPdf(
        { committeeName: 'The committee', subject, html, date: now },
        { pool: w.pdfWorkers },
      ),
    );
  const [letter] = await w.ctx.app.db
    .insert(decisionLetters)
    .values({
      proposalId,
      decisionVersion: 1,
      lettersVersion: 0,
      outcome: 'approved',
      subject,
      bodyText: `The committee approved your proposal: ${canary}.`,
      bodyHtml: html,
      storageKey,
      state,
      error: state === 'failed' ? 'The mail server refused it.' : null,
      createdAt: now,
      sentAt: state === 'sent' ? now : null,
    })
    .returning({ id: decisionLetters.id });
  return letter!.id;
}

/**
 * The world: two committees, the forms, a call open for submission, two in their review
 * period (one open to all members), one closed and one closed with its decisions released
 * (all of the committee the rows act on),
 * a call of the other committee, and in each a submitted proposal and a draft with their secrets, so every
 * list has something to leak.
 */
export async function createWorld(options: TestAppOptions = {}): Promise<World> {
  const ctx = await createTestApp(options);
  const { app } = ctx;
  const pdfWorkers = new PdfWorkerPool(1);
  const committee = await makeCommittee(app);
  const otherCommittee = await makeCommittee(app);
  const forms = await makeCallForms(app);
  const adminUser = await createUser(app.db, {
    username: `authz_admin_${unique()}`,
    email: `authz_admin_${unique()}@example.org`,
    isAdmin: true,
    emailVerified: true,
    password: null,
  });
  const formName = await makeFormName(app);
  const fileForm = await makeForm(app, (await makeFormName(app, { type: 0 })).id, {
    jsonSchema: {
      type: 'object',
      properties: {
        title: { type: 'string', title: 'Title' },
        cv: { type: 'string', format: 'data-url', title: 'CV (PDF)' },
      },
    },
  });
  const w: World = {
    ctx,
    committeeId: committee.id,
    otherCommitteeId: otherCommittee.id,
    forms,
    fileForm: fileForm.id,
    call: { id: 0, committeeId: committee.id, reviewing: false, closed: false },
    reviewCall: { id: 0, committeeId: committee.id, reviewing: true, closed: false },
    openReviewCall: {
      id: 0,
      committeeId: committee.id,
      reviewing: true,
      closed: false,
      reviewOpenToMembers: true,
    },
    closedCall: { id: 0, committeeId: committee.id, reviewing: false, closed: true },
    releasedCall: {
      id: 0,
      committeeId: committee.id,
      reviewing: false,
      closed: true,
      released: true,
    },
    otherCall: { id: 0, committeeId: otherCommittee.id, reviewing: false, closed: false },
    formName: formName.id,
    form: (await makeForm(app, formName.id)).id,
    admin: { id: adminUser.id, isAdmin: true },
    secrets: new SecretRegistry(),
    owners: new Map(),
    pdfWorkers,
    close: async () => {
      await pdfWorkers.close();
      await ctx.close();
    },
  };
  w.call.id = await newCall(w);
  // Submission [-9 d, -1 d), review [-1 d, +6 d).
  w.reviewCall.id = await newCall(w, 8);
  w.openReviewCall.id = await newCall(w, 8, committee.id, true);
  w.closedCall.id = await newCall(w, 60);
  await app.db
    .update(calls)
    .set({ closed: true, closedAt: ctx.clock.now() })
    .where(eq(calls.id, w.closedCall.id));
  w.releasedCall.id = await newCall(w, 60);
  await app.db
    .update(calls)
    .set({ closed: true, closedAt: ctx.clock.now(), decisionsReleasedAt: ctx.clock.now() })
    .where(eq(calls.id, w.releasedCall.id));
  w.otherCall.id = await newCall(w, 0, otherCommittee.id);
  const everyCall = [w.call, w.reviewCall, w.openReviewCall, w.closedCall, w.releasedCall];
  for (const call of [...everyCall, w.otherCall]) {
    await seedProposal(w, { call, stateVal: 1, canaryCollaborator: true });
    await seedProposal(w, { call, stateVal: 0, canaryCollaborator: true });
  }
  return w;
}

/** The unverified persona's account, registered with a password and never verified. */
export async function makeUnverifiedAccount(w: World) {
  const name = `authz_unverified_${unique()}`;
  return createUser(
    w.ctx.app.db,
    { username: name, email: `${name}@example.org`, emailVerified: false, password: TEST_PASSWORD },
    w.ctx.app.keys.passwordPepper,
  );
}
