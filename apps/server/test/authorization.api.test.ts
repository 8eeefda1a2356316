import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proposalCollaborators, proposalFiles, users } from '../src/db/schema.js';
import { issueToken } from '../src/modules/auth/tokens.js';
import { addExtension, saveCall } from '../src/modules/calls/calls.service.js';
import { createUser } from '../src/modules/users/users.service.js';
import { makeForm, makeFormName, simpleSchema } from './admin-fixtures.js';
import {
  assignReviewers,
  callPayload,
  makeCallForms,
  makeProposal,
  makeReview,
  type CallForms,
} from './call-fixtures.js';
import { createTestApp, giveRole, makeCommittee, type TestContext } from './helpers.js';
import { proposalTypeOf } from './proposal-fixtures.js';

/**
 * Every API route and the status each kind of caller gets from it, with a request that
 * is otherwise valid. A route the server registers but this table does not list fails
 * the last test, so a new route cannot ship without deciding who may call it.
 *
 * Every cell is independent: the caller is a new user with a new token, and a row that
 * changes something (deletes a role, closes a call, logs out) makes its own target for
 * each caller, so no row depends on the rows before it or on the order of the callers.
 */
const PERSONAS = [
  'anonymous',
  'deactivated',
  'incomplete',
  'user',
  'member',
  'otherChair',
  'chair',
  'admin',
] as const;
type Persona = (typeof PERSONAS)[number];
type Expected = Record<Persona, number>;

/** The shared, read-only world the rows act in. */
interface World {
  ctx: TestContext;
  committeeId: number;
  otherCommitteeId: number;
  forms: CallForms;
  call: number;
  formName: number;
  form: number;
  admin: { id: number; isAdmin: true };
}

interface Request {
  params?: Record<string, number | string>;
  query?: Record<string, string>;
  payload?: Record<string, unknown> | Buffer;
  /** Headers the route's protocol needs besides the caller's (tus, multipart). */
  headers?: Record<string, string>;
}

interface Row {
  route: string;
  /** The request's parts, made for one cell (and its own targets, when it changes something). */
  request?: (w: World) => Promise<Request> | Request;
  expect: Expected;
  note?: string;
}

/** Open to all: a token changes nothing, and a dead one is ignored. */
const everyone = (status: number): Expected => ({
  anonymous: status,
  deactivated: status,
  incomplete: status,
  user: status,
  member: status,
  otherChair: status,
  chair: status,
  admin: status,
});
/** Any logged-in user whose registration is complete; a deactivated user's token is dead. */
const loggedIn = (status: number): Expected => ({
  ...everyone(status),
  anonymous: 401,
  deactivated: 401,
  incomplete: 403,
});
/** Open to an incomplete registration too: what completing it needs. */
const registering = (status: number): Expected => ({ ...loggedIn(status), incomplete: status });
/** Chairs of the call's committee, and admins, who count as chairs everywhere. */
const chairsOnly = (status: number): Expected => ({
  ...loggedIn(403),
  chair: status,
  admin: status,
});
/** Chairs of any committee. */
const anyChair = (status: number): Expected => ({ ...chairsOnly(status), otherChair: status });
const adminOnly = (status: number): Expected => ({ ...loggedIn(403), admin: status });
/**
 * A proposal none of the callers wrote: only the chairs of its call's committee (and
 * admins) see it; everyone else is told it does not exist.
 */
const seenByChairs = (status: number): Expected => ({
  ...loggedIn(404),
  chair: status,
  admin: status,
});

const unique = () => randomBytes(4).toString('hex');
const DAY = 24 * 60 * 60 * 1000;

/** A user straight in the database; no password, since every caller gets a token directly. */
async function newUser(w: World, overrides: Partial<typeof users.$inferInsert> = {}) {
  const name = `authz_${unique()}`;
  return createUser(w.ctx.app.db, {
    username: name,
    email: `${name}@example.org`,
    firstName: 'Table',
    lastName: 'Caller',
    emailVerified: true,
    password: null,
    ...overrides,
  });
}

async function headersOf(w: World, persona: Persona): Promise<Record<string, string>> {
  if (persona === 'anonymous') return {};
  const now = w.ctx.clock.now();
  const user = await newUser(w, {
    isAdmin: persona === 'admin',
    registrationComplete: persona !== 'incomplete',
  });
  if (persona === 'member') await giveRole(w.ctx.app, user.id, w.committeeId, 'MEMBER', now);
  if (persona === 'chair') await giveRole(w.ctx.app, user.id, w.committeeId, 'CHAIR', now);
  if (persona === 'otherChair')
    await giveRole(w.ctx.app, user.id, w.otherCommitteeId, 'CHAIR', now);
  const key = await issueToken(w.ctx.app.db, user.id, now);
  if (persona === 'deactivated')
    await w.ctx.app.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
  return { authorization: `Token ${key}` };
}

const newCall = (w: World, daysAgo = 0) =>
  w.ctx.app.writeAs(w.admin, (work) =>
    saveCall(
      work,
      callPayload(w.committeeId, w.forms, new Date(w.ctx.clock.now().getTime() - daysAgo * DAY)),
    ),
  );

/** A proposal of a fresh author in the shared call, a Draft unless told. */
async function newProposal(w: World, stateVal = 0) {
  const author = await newUser(w);
  return makeProposal(w.ctx.app, {
    callId: w.call,
    proposalTypeId: await proposalTypeOf(w.ctx.app, w.call),
    authorId: author.id,
    stateVal,
  });
}

/** A current member of the shared committee, to be assigned as a reviewer. */
async function newMember(w: World) {
  const user = await newUser(w);
  await giveRole(w.ctx.app, user.id, w.committeeId, 'MEMBER', w.ctx.clock.now());
  return user;
}

/** A file of a fresh proposal, its bytes in the app's storage. */
async function newFile(w: World) {
  const proposal = await newProposal(w);
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

/** A multipart form with one small file, as the spec's upload endpoints take it. */
async function multipartRequest(fields: Record<string, string>): Promise<Request> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob(['%PDF-1.4 a file']), 'cv.pdf');
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}

const tusHeaders = { 'tus-resumable': '1.0.0' };
/** An upload id no upload has. */
const NO_UPLOAD = '0123456789abcdef0123456789abcdef';

const table: Row[] = [
  { route: 'GET /api/v1/health', expect: everyone(200) },
  { route: 'GET /api/v1/live', expect: everyone(200) },
  // Wrong credentials on purpose: the route is open to all, and a bad login is a 400 for anyone.
  {
    route: 'POST /api/v1/auth/login/',
    request: () => ({ payload: { username: `nobody_${unique()}`, password: 'wrong password' } }),
    expect: everyone(400),
  },
  { route: 'GET /api/v1/auth/captcha/', expect: everyone(200) },
  {
    route: 'POST /api/v1/auth/registration/',
    request: () => ({ payload: {} }),
    expect: everyone(400),
  },
  {
    route: 'POST /api/v1/auth/registration/verify-email/',
    request: () => ({ payload: { key: 'no-such-key' } }),
    expect: everyone(404),
  },
  {
    route: 'POST /api/v1/auth/registration/resend-email/',
    request: () => ({ payload: { email: 'nobody@example.org' } }),
    expect: everyone(200),
  },
  {
    route: 'POST /api/v1/auth/password/reset/',
    request: () => ({ payload: { email: 'nobody@example.org' } }),
    expect: everyone(200),
  },
  {
    route: 'POST /api/v1/auth/password/reset/confirm/',
    request: () => ({
      payload: {
        uid: 'MQ',
        token: 'not-a-token',
        newPassword1: 'a new pass phrase',
        newPassword2: 'a new pass phrase',
      },
    }),
    expect: everyone(400),
  },
  {
    // Callers have no password, so the change is refused as bad input for everyone let in.
    route: 'POST /api/v1/auth/password/change/',
    request: () => ({
      payload: {
        oldPassword: 'wrong password',
        newPassword1: 'a new pass phrase',
        newPassword2: 'a new pass phrase',
      },
    }),
    expect: loggedIn(400),
  },
  { route: 'GET /api/v1/auth/methods/', expect: everyone(200) },
  // Federated login is off in this app (no OIDC_ISSUER), so its routes answer 404;
  // oidc.api.test.ts covers them switched on.
  { route: 'GET /api/v1/auth/oidc/login/', expect: everyone(404) },
  { route: 'GET /api/v1/auth/oidc/callback/', expect: everyone(404) },
  {
    route: 'POST /api/v1/auth/oidc/exchange/',
    request: () => ({ payload: { code: 'x' } }),
    expect: everyone(404),
  },
  { route: 'POST /api/v1/auth/oidc/link/', expect: loggedIn(404) },
  {
    // Only an incomplete registration can be completed; a complete one is a conflict.
    route: 'POST /api/v1/auth/complete_registration/',
    request: () => ({
      payload: {
        institution: 'Example University',
        gender_choice: 'OTHER',
        phone_number: '+61 2 1234 5678',
        is_student: false,
      },
    }),
    expect: { ...registering(409), incomplete: 200 },
  },
  { route: 'POST /api/v1/auth/logout/', expect: registering(200) },
  { route: 'GET /api/v1/user_details/', expect: registering(200) },
  {
    route: 'PATCH /api/v1/user_details/',
    request: () => ({ payload: { is_student: true } }),
    expect: loggedIn(200),
  },
  { route: 'GET /api/v1/user_hash/', expect: loggedIn(200) },
  { route: 'POST /api/v1/user_hash/', expect: loggedIn(200) },
  // Administration.
  { route: 'GET /api/v1/users/', expect: adminOnly(200) },
  {
    route: 'GET /api/v1/users/:id/',
    request: async (w) => ({ params: { id: (await newUser(w)).id } }),
    expect: adminOnly(200),
  },
  {
    route: 'PATCH /api/v1/users/:id/',
    request: async (w) => ({
      params: { id: (await newUser(w)).id },
      payload: { is_admin: false, is_active: true },
    }),
    expect: adminOnly(200),
  },
  {
    route: 'GET /api/v1/roles/:userId/',
    request: async (w) => ({ params: { userId: (await newUser(w)).id } }),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/v1/roles/:userId/',
    request: async (w) => ({
      params: { userId: (await newUser(w)).id },
      payload: {
        committeeId: w.committeeId,
        role: 'MEMBER',
        commencement: '2026-01-01',
        termination: '2026-12-31',
      },
    }),
    expect: adminOnly(201),
  },
  {
    route: 'PATCH /api/v1/roles/:userId/',
    request: async (w) => {
      const target = await newUser(w);
      const role = await giveRole(w.ctx.app, target.id, w.committeeId, 'MEMBER', w.ctx.clock.now());
      return {
        params: { userId: target.id },
        payload: {
          id: role.id,
          committeeId: w.committeeId,
          role: 'CHAIR',
          commencement: '2026-01-01',
          termination: '2027-12-31',
        },
      };
    },
    expect: adminOnly(200),
  },
  {
    route: 'DELETE /api/v1/roles/:id/',
    request: async (w) => {
      const target = await newUser(w);
      const role = await giveRole(w.ctx.app, target.id, w.committeeId, 'MEMBER', w.ctx.clock.now());
      return { params: { id: role.id } };
    },
    expect: adminOnly(204),
  },
  {
    // Its chairs read it too, to choose reviewers.
    route: 'GET /api/v1/committee_members/',
    request: (w) => ({ query: { committee: String(w.committeeId) } }),
    expect: chairsOnly(200),
  },
  { route: 'GET /api/v1/committees/', expect: adminOnly(200) },
  {
    route: 'GET /api/v1/committees/:id/',
    request: (w) => ({ params: { id: w.committeeId } }),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/v1/committees/',
    request: () => ({ payload: { name: `Committee ${unique()}` } }),
    expect: adminOnly(201),
  },
  {
    route: 'DELETE /api/v1/committees/',
    request: async (w) => ({ payload: { id: (await makeCommittee(w.ctx.app)).id } }),
    expect: adminOnly(204),
  },
  { route: 'GET /api/v1/form_names/', expect: adminOnly(200) },
  {
    route: 'POST /api/v1/form_names/',
    request: () => ({
      payload: { name: `authz_${unique()}`, display_name: 'Authorization table', type: 0 },
    }),
    expect: adminOnly(201),
  },
  {
    route: 'DELETE /api/v1/form_names/',
    request: async (w) => ({ payload: { id: (await makeFormName(w.ctx.app)).id } }),
    expect: adminOnly(204),
  },
  // Chairs of any committee read forms too, to choose them for their calls.
  { route: 'GET /api/v1/forms/', expect: anyChair(200) },
  {
    route: 'GET /api/v1/forms/',
    note: 'one form',
    request: (w) => ({ query: { id: String(w.form) } }),
    expect: anyChair(200),
  },
  {
    route: 'GET /api/v1/users/lookup/',
    request: () => ({ query: { q: 'Table' } }),
    expect: anyChair(200),
  },
  {
    route: 'POST /api/v1/forms/',
    request: (w) => ({
      payload: {
        isNew: true,
        name: w.formName,
        version: `authz ${unique()}`,
        jsonSchema: simpleSchema,
        uiSchema: {},
        options: null,
      },
    }),
    expect: adminOnly(201),
  },
  {
    route: 'DELETE /api/v1/forms/',
    request: async (w) => ({ payload: { id: (await makeForm(w.ctx.app, w.formName)).id } }),
    expect: adminOnly(204),
  },
  { route: 'GET /api/v1/form_examples/', expect: adminOnly(200) },
  // Calls.
  { route: 'GET /api/v1/calls/', expect: loggedIn(200) },
  { route: 'GET /api/v1/calls/open/', expect: loggedIn(200) },
  { route: 'GET /api/v1/calls/closed/', expect: loggedIn(200) },
  {
    route: 'GET /api/v1/calls/:id/',
    request: (w) => ({ params: { id: w.call } }),
    expect: loggedIn(200),
  },
  {
    route: 'GET /api/v1/calls/:id/manage/',
    request: (w) => ({ params: { id: w.call } }),
    expect: chairsOnly(200),
  },
  {
    route: 'GET /api/v1/proposal_form_order/:callId/',
    request: (w) => ({ params: { callId: w.call } }),
    expect: loggedIn(200),
  },
  {
    route: 'GET /api/v1/review_form_order/:callId/',
    request: (w) => ({ params: { callId: w.call } }),
    expect: loggedIn(200),
  },
  {
    // A chair of another committee chairs calls, but not in this committee.
    route: 'POST /api/v1/new_call/',
    request: (w) => ({
      payload: callPayload(w.committeeId, w.forms, w.ctx.clock.now()) as Record<string, unknown>,
    }),
    expect: chairsOnly(201),
  },
  {
    route: 'POST /api/v1/new_extension/',
    request: async (w) => ({
      payload: {
        callId: w.call,
        user: (await newUser(w)).id,
        commencement: '2026-06-10T00:00:00Z',
        termination: '2026-06-12T00:00:00Z',
        reason: 'Illness',
      },
    }),
    expect: chairsOnly(201),
  },
  {
    route: 'DELETE /api/v1/delete_extension/',
    request: async (w) => {
      const now = w.ctx.clock.now();
      const user = await newUser(w);
      const extension = await w.ctx.app.writeAs(w.admin, (work) =>
        addExtension(work, {
          callId: w.call,
          user: user.id,
          commencement: now.toISOString(),
          termination: now.toISOString(),
          reason: '',
        }),
      );
      return { payload: { callId: w.call, extensionId: extension.id } };
    },
    expect: chairsOnly(204),
  },
  {
    // A call whose review period ended: closable once, by each chair on their own copy.
    route: 'POST /api/v1/close_call/',
    request: async (w) => ({ payload: { callId: await newCall(w, 60) } }),
    expect: chairsOnly(200),
  },
  // Proposals. The callers are never the author or a collaborator of the proposal a cell
  // acts on (proposals.api.test.ts covers those): they see it as chairs, or not at all.
  { route: 'GET /api/v1/proposals/', expect: loggedIn(200) },
  {
    route: 'GET /api/v1/calls/:callId/proposals/',
    request: (w) => ({ params: { callId: w.call } }),
    expect: loggedIn(200),
  },
  {
    route: 'GET /api/v1/proposals/:id/',
    note: 'a draft',
    request: async (w) => ({ params: { id: (await newProposal(w)).id } }),
    expect: seenByChairs(200),
  },
  {
    // Members see submitted proposals of their committee's calls, to review them.
    route: 'GET /api/v1/proposals/:id/',
    note: 'submitted',
    request: async (w) => ({ params: { id: (await newProposal(w, 1)).id } }),
    expect: { ...seenByChairs(200), member: 200 },
  },
  {
    route: 'DELETE /api/v1/proposals/:id/',
    request: async (w) => ({ params: { id: (await newProposal(w)).id } }),
    expect: seenByChairs(403),
  },
  {
    // Submission to the call is open: anyone may start a proposal.
    route: 'POST /api/v1/update_proposal_name/',
    note: 'create',
    request: async (w) => ({
      payload: {
        callId: w.call,
        isNew: true,
        name: 'A proposal',
        type: await proposalTypeOf(w.ctx.app, w.call),
      },
    }),
    expect: loggedIn(201),
  },
  {
    route: 'POST /api/v1/update_proposal_name/',
    note: 'rename',
    request: async (w) => ({
      payload: { callId: w.call, isNew: false, proposalId: (await newProposal(w)).id, name: 'B' },
    }),
    expect: seenByChairs(403),
  },
  {
    route: 'POST /api/v1/proposal_responses/',
    note: 'new: true creates the proposal',
    request: async (w) => ({
      payload: {
        call: w.call,
        proposalTypeId: await proposalTypeOf(w.ctx.app, w.call),
        new: true,
        proposalName: 'A proposal',
        hash: 1,
        formId: w.forms.proposal,
        data: { title: 'Answers' },
      },
    }),
    expect: loggedIn(201),
  },
  {
    route: 'POST /api/v1/proposal_responses/',
    note: 'an existing proposal',
    request: async (w) => {
      const proposal = await newProposal(w);
      return {
        payload: {
          call: w.call,
          proposalTypeId: proposal.proposalTypeId,
          proposal: proposal.id,
          new: false,
          hash: 1,
          formId: w.forms.proposal,
          data: { title: 'Answers' },
        },
      };
    },
    expect: seenByChairs(403),
  },
  {
    route: 'DELETE /api/v1/delete_multi_form/',
    request: async (w) => ({
      payload: {
        callId: w.call,
        proposalId: (await newProposal(w)).id,
        formId: w.forms.proposalMulti,
        formIndex: 0,
      },
    }),
    expect: seenByChairs(403),
  },
  {
    route: 'POST /api/v1/collaborators/',
    request: async (w) => ({
      payload: { proposalId: (await newProposal(w)).id, hash: (await newUser(w)).hash },
    }),
    expect: seenByChairs(403),
  },
  {
    route: 'DELETE /api/v1/collaborators/',
    request: async (w) => {
      const proposal = await newProposal(w);
      const collaborator = await newUser(w);
      await w.ctx.app.db
        .insert(proposalCollaborators)
        .values({ proposalId: proposal.id, userId: collaborator.id });
      return { payload: { proposalId: proposal.id, userId: collaborator.id } };
    },
    expect: seenByChairs(403),
  },
  {
    route: 'POST /api/v1/proposal_state/',
    request: async (w) => ({ payload: { proposalId: (await newProposal(w)).id, state: 1 } }),
    expect: seenByChairs(403),
  },
  {
    // Chairs write decisions; members see a submitted proposal, and are refused.
    route: 'POST /api/v1/update_decision_summary/',
    request: async (w) => ({
      payload: { proposalId: (await newProposal(w, 1)).id, summary: '<p>Funded.</p>' },
    }),
    expect: { ...seenByChairs(200), member: 403 },
  },
  {
    // Those who see it but may not edit are told who holds the lock, and never take it.
    route: 'GET /api/v1/lock/:proposalId/',
    request: async (w) => ({ params: { proposalId: (await newProposal(w)).id } }),
    expect: seenByChairs(200),
  },
  {
    route: 'DELETE /api/v1/lock/:proposalId/',
    request: async (w) => ({ params: { proposalId: (await newProposal(w)).id } }),
    expect: seenByChairs(204),
  },
  // Files: whoever may edit the proposal uploads and deletes (callers here never may:
  // chairs see it and are refused, the rest do not see it), whoever sees it downloads.
  {
    route: 'POST /api/v1/uploads/',
    request: async (w) => ({
      headers: {
        ...tusHeaders,
        'upload-length': '10',
        'upload-metadata': `proposal ${Buffer.from(String((await newProposal(w)).id)).toString('base64')}`,
      },
    }),
    expect: seenByChairs(403),
  },
  {
    route: 'PATCH /api/v1/uploads/:uploadId',
    request: () => ({
      params: { uploadId: NO_UPLOAD },
      headers: {
        ...tusHeaders,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      payload: Buffer.from('bytes'),
    }),
    expect: loggedIn(404),
  },
  {
    route: 'DELETE /api/v1/uploads/:uploadId',
    request: () => ({ params: { uploadId: NO_UPLOAD }, headers: tusHeaders }),
    expect: loggedIn(404),
  },
  {
    route: 'POST /api/v1/proposal_file/',
    request: async (w) => multipartRequest({ proposal: String((await newProposal(w)).id) }),
    expect: seenByChairs(403),
  },
  {
    route: 'POST /api/v1/proposal_response_pdf/',
    request: async (w) =>
      multipartRequest({
        proposal: String((await newProposal(w)).id),
        form: String(w.forms.proposal),
        field: 'cv',
      }),
    expect: seenByChairs(403),
  },
  {
    route: 'GET /api/v1/proposal_files/:proposalId/',
    request: async (w) => ({ params: { proposalId: (await newProposal(w)).id } }),
    expect: seenByChairs(200),
  },
  {
    route: 'DELETE /api/v1/proposal_file/',
    request: async (w) => {
      const { proposal, file } = await newFile(w);
      return { payload: { proposal: proposal.id, file: file.id } };
    },
    expect: seenByChairs(403),
  },
  {
    route: 'POST /api/v1/download_tickets/',
    request: async (w) => ({ payload: { fileId: (await newFile(w)).file.id } }),
    expect: seenByChairs(200),
  },
  {
    route: 'GET /api/v1/proposal_file/',
    request: async (w) => {
      const { proposal, file } = await newFile(w);
      return { query: { proposal: String(proposal.id), file: String(file.id) } };
    },
    expect: seenByChairs(200),
  },
  {
    route: 'GET /api/v1/proposal_response_pdf/',
    request: async (w) => {
      const { proposal, file } = await newFile(w);
      return { query: { proposal: String(proposal.id), file: String(file.id) } };
    },
    expect: seenByChairs(200),
  },
  {
    route: 'GET /api/v1/files/:fileId/',
    note: 'with the Authorization header; tickets in files.api.test.ts',
    request: async (w) => ({ params: { fileId: (await newFile(w)).file.id } }),
    expect: seenByChairs(200),
  },
  {
    route: 'GET /api/v1/download_proposal_extract/:proposalId/',
    request: async (w) => ({ params: { proposalId: (await newProposal(w)).id } }),
    expect: seenByChairs(200),
  },
  // Reviews. The shared call's proposals are submitted here only where a row says so; its
  // review window is a week away, so nobody may save a review (reviews.api.test.ts does).
  {
    route: 'POST /api/v1/reviewers/',
    request: async (w) => ({
      payload: { proposalId: (await newProposal(w, 1)).id, userId: (await newMember(w)).id },
    }),
    // Members see a submitted proposal, and are refused.
    expect: { ...seenByChairs(201), member: 403 },
  },
  {
    route: 'DELETE /api/v1/reviewers/',
    request: async (w) => {
      const proposal = await newProposal(w, 1);
      const reviewer = await newMember(w);
      await assignReviewers(w.ctx.app, proposal.id, [reviewer.id]);
      return { payload: { proposalId: proposal.id, userId: reviewer.id } };
    },
    expect: { ...seenByChairs(204), member: 403 },
  },
  {
    // Members see submitted proposals, but nobody reviews before the review window.
    route: 'POST /api/v1/review_responses/',
    request: async (w) => ({
      payload: {
        call: w.call,
        proposal: (await newProposal(w, 1)).id,
        formId: w.forms.review,
        hash: 1,
        data: {},
      },
    }),
    expect: { ...seenByChairs(403), member: 403 },
  },
  {
    route: 'GET /api/v1/reviews/:proposalId/:reviewId/',
    request: async (w) => {
      const proposal = await newProposal(w, 1);
      const review = await makeReview(w.ctx.app, proposal.id, (await newMember(w)).id);
      return { params: { proposalId: proposal.id, reviewId: review.id } };
    },
    expect: seenByChairs(200),
  },
  {
    route: 'GET /api/v1/calls/:callId/proposals/:proposalId/reviews/',
    request: async (w) => ({
      params: { callId: w.call, proposalId: (await newProposal(w, 1)).id },
    }),
    expect: seenByChairs(200),
  },
  { route: 'GET /api/v1/pending_reviews/', expect: loggedIn(200) },
  { route: 'GET /api/v1/reviews/', expect: loggedIn(200) },
];

let world: World;

beforeAll(async () => {
  const ctx = await createTestApp();
  const committee = await makeCommittee(ctx.app);
  const otherCommittee = await makeCommittee(ctx.app);
  const forms = await makeCallForms(ctx.app);
  const adminUser = await createUser(ctx.app.db, {
    username: `authz_admin_${unique()}`,
    email: `authz_admin_${unique()}@example.org`,
    isAdmin: true,
    emailVerified: true,
    password: null,
  });
  const formName = await makeFormName(ctx.app);
  world = {
    ctx,
    committeeId: committee.id,
    otherCommitteeId: otherCommittee.id,
    forms,
    call: 0,
    formName: formName.id,
    form: (await makeForm(ctx.app, formName.id)).id,
    admin: { id: adminUser.id, isAdmin: true },
  };
  world.call = await newCall(world);
});
afterAll(() => world.ctx.close());

describe('authorization table', () => {
  for (const row of table) {
    for (const persona of PERSONAS) {
      const name = `${row.route}${row.note ? ` (${row.note})` : ''} as ${persona} -> ${row.expect[persona]}`;
      it(name, async () => {
        const [method, path] = row.route.split(' ') as [
          'GET' | 'POST' | 'PATCH' | 'DELETE',
          string,
        ];
        const request = row.request ? await row.request(world) : {};
        const url = path.replace(/:(\w+)/g, (_m, key: string) => String(request.params?.[key]));
        const res = await world.ctx.app.inject({
          method,
          url,
          headers: { ...request.headers, ...(await headersOf(world, persona)) },
          ...(request.query ? { query: request.query } : {}),
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        expect(res.statusCode, res.body).toBe(row.expect[persona]);
        if (res.statusCode === 403 && persona === 'incomplete')
          expect(res.json()).toMatchObject({ code: 'registration_incomplete' });
      });
    }
  }

  it('lists every API route the server registers', () => {
    const registered = world.ctx.app.routes
      .map((r) => `${r.method} ${r.url}`)
      .filter((r) => r.split(' ')[1]!.startsWith('/api/v1/'));
    const listed = table.map((r) => r.route);
    expect(
      registered.filter((r) => !listed.includes(r)),
      'routes missing from the table',
    ).toEqual([]);
    expect(
      listed.filter((r) => !registered.includes(r)),
      'rows for routes that do not exist',
    ).toEqual([]);
  });
});
