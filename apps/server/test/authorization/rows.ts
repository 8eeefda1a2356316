import { OUTCOMES } from '@merit/domain';
import { DEFAULT_LETTER_TEMPLATES } from '@merit/domain/letters';
import { and, desc, eq, gte } from 'drizzle-orm';
import {
  assignmentRuns,
  authTokens,
  calls,
  proposalCollaborators,
  proposalResponses,
  reviews,
  securityKeys,
} from '../../src/db/schema.js';
import { issueToken } from '../../src/modules/auth/tokens.queries.js';
import { addExtension } from '../../src/modules/calls/calls.service.js';
import { invitationToken } from '../../src/modules/setup/invitations.js';
import { makeForm, makeFormName, simpleSchema } from '../admin-fixtures.js';
import { assignReviewers, callPayload } from '../call-fixtures.js';
import { giveRole, makeCommittee } from '../helpers.js';
import { proposalTypeOf } from '../proposal-fixtures.js';
import {
  adminOnly,
  anyChair,
  chairsOnly,
  everyone,
  loggedIn,
  onProposal,
  registering,
  type Expected,
} from './personas.js';
import {
  canaryReviewOf,
  newCall,
  newConflict,
  newFile,
  newLetter,
  newMember,
  newProposal,
  newUser,
  seedProposal,
  unique,
  type CallInfo,
  type Caller,
  type World,
} from './world.js';
import { CANARY_IDS_FROM } from './secrets.js';

export interface Request {
  params?: Record<string, number | string>;
  query?: Record<string, string>;
  payload?: Record<string, unknown> | Buffer;
  /** Headers the route's protocol needs besides the caller's (tus, multipart). */
  headers?: Record<string, string>;
}

export interface Row {
  route: string;
  /** Tells apart two rows of one route. */
  note?: string;
  /**
   * The request's parts, made for one cell: a row that reads or changes a proposal makes
   * its own, in the caller's relation to it (theirs for the author, and so on).
   */
  request?: (w: World, caller: Caller) => Promise<Request> | Request;
  expect: Expected;
  /** Its answers are PDFs whose text is searched too (not only their bytes). */
  pdf?: boolean;
  /**
   * Its answer lists the call's committee by name and user id (the applicants' Conflicts
   * panel, issue 26: "name and institution, nothing else"): there a canary reviewer's name
   * and id say that they sit on the committee, nothing of what they review, so only the
   * rest of the canaries (their email among them) are searched for.
   */
  listsCommittee?: boolean;
}

/**
 * The id of a new security key of `userId` (put straight in the table: adding one through
 * the API needs two-step verification on and a key's answer), or of no key for a caller
 * without an account.
 */
async function newSecurityKeyOf(w: World, userId: number | null): Promise<number> {
  if (userId === null) return 1;
  const [row] = await w.ctx.app.db
    .insert(securityKeys)
    .values({
      userId,
      credentialId: `credential-${unique()}`,
      publicKey: new Uint8Array(8),
      name: 'Table key',
      createdAt: w.ctx.app.now(),
    })
    .returning({ id: securityKeys.id });
  return row!.id;
}

/** A key's answer in the shape the routes take (base64url fields); no key made it. */
const keyAnswer = (response: Record<string, string>) => ({
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', ...response },
  clientExtensionResults: {},
});

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

/**
 * The id of a new session of `userId` (a second login), or of no session for a caller
 * without an account: what a row that ends a session acts on.
 */
async function newSessionOf(w: World, userId: number | null): Promise<number> {
  if (userId === null) return 1;
  const { db } = w.ctx.app;
  await issueToken(db, userId, w.ctx.app.now());
  const [row] = await db
    .select({ id: authTokens.id })
    .from(authTokens)
    .where(eq(authTokens.userId, userId))
    .orderBy(desc(authTokens.id))
    .limit(1);
  return row!.id;
}

/** The canary reviewer of a submitted proposal (assigned to it, with a review): their user id. */
async function canaryReviewerOf(w: World, proposalId: number): Promise<number> {
  const [row] = await w.ctx.app.db
    .select({ id: reviews.reviewerId })
    .from(reviews)
    .where(and(eq(reviews.proposalId, proposalId), gte(reviews.reviewerId, CANARY_IDS_FROM)));
  return row!.id;
}

/**
 * A proposed assignment of the shared open call's reviewers, straight in the table: the
 * caller's submitted proposal (in their relation to it) given its canary reviewer, whose
 * name the preview shows to those who may know its reviewers only. `state` running: its
 * chairs may read it, but not apply it yet.
 */
async function newAssignmentRun(
  w: World,
  c: Caller,
  state: 'running' | 'ready' = 'ready',
): Promise<number> {
  const proposal = await newProposal(w, c, { stateVal: 1 });
  const reviewer = await canaryReviewerOf(w, proposal.id);
  const [run] = await w.ctx.app.db
    .insert(assignmentRuns)
    .values({
      callId: w.call.id,
      state,
      redo: false,
      seed: 1,
      inputDigest: 'table',
      result: {
        added: [{ proposalId: proposal.id, userId: reviewer, preference: 'neutral' }],
        removed: [],
        loads: [],
        unfilled: [],
        cost: 0,
      },
      createdAt: w.ctx.app.now(),
    })
    .returning({ id: assignmentRuns.id });
  return run!.id;
}

/** Current members of the call's committee by role, chairs too (an admin's standing is not one). */
const committeeMembers = (status: number) => ({
  member: status,
  reviewer: status,
  conflictedMember: status,
  chair: status,
  chairAuthor: status,
  conflictedChair: status,
});

const tusHeaders = { 'tus-resumable': '1.0.0' };
/** An upload id no upload has. */
const NO_UPLOAD = '0123456789abcdef0123456789abcdef';

/**
 * Those who see a draft: its people, the committee's chairs and admins (a conflict of
 * interest keeps them from its reviews and decision, not from the proposal).
 */
const seeDraft = (status: number) => ({
  author: status,
  collaborator: status,
  chair: status,
  chairAuthor: status,
  admin: status,
  conflictedChair: status,
  conflictedAdmin: status,
});
/** Those who see a submitted proposal: also the committee's members. */
const seeSubmitted = (status: number) => ({
  ...seeDraft(status),
  member: status,
  reviewer: status,
  conflictedMember: status,
});
/** Whoever has a conflict of interest with the proposal: what it is hidden from, 404. */
const conflicted = (status: number) => ({
  conflictedMember: status,
  conflictedChair: status,
  conflictedAdmin: status,
});
/** May edit a draft: its author and collaborators; chairs see it and are refused. */
const editDraft = (status: number) => ({
  ...seeDraft(403),
  author: status,
  collaborator: status,
  chairAuthor: status,
});
/** Only the author: collaborators and chairs see it and are refused. */
const authorOnly = (status: number) => ({ ...seeDraft(403), author: status, chairAuthor: status });
/** The proposal's people, a chair among them. */
const teamOf = (status: number) => ({ author: status, collaborator: status, chairAuthor: status });
/** The chair and the admin with a conflict of interest with the proposal. */
const conflictedChairs = (status: number) => ({ conflictedChair: status, conflictedAdmin: status });
/**
 * Chairs' business on a submitted proposal: everyone else who sees it is refused, its
 * author and collaborators above all, a chair among them too.
 */
const chairsOfSubmitted = (status: number) => ({
  ...seeSubmitted(403),
  chair: status,
  admin: status,
});

export const table: Row[] = [
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
  // One's own sessions (ASVS V3.3.4): open to whoever has a live token, as logout is.
  { route: 'GET /api/v1/auth/sessions/', expect: registering(200) },
  {
    route: 'DELETE /api/v1/auth/sessions/:id/',
    note: "another of the caller's own sessions",
    request: async (w, caller) => ({ params: { id: await newSessionOf(w, caller.id) } }),
    expect: registering(204),
  },
  {
    // Someone else's session is not found, for an admin too.
    route: 'DELETE /api/v1/auth/sessions/:id/',
    note: "another user's session",
    request: async (w) => ({ params: { id: await newSessionOf(w, (await newUser(w)).id) } }),
    expect: registering(404),
  },
  { route: 'POST /api/v1/auth/sessions/end-others/', expect: registering(200) },
  // Two-step verification (beyond the spec). A ticket no login made is refused for anyone.
  {
    route: 'POST /api/v1/auth/login/two-factor/',
    request: () => ({ payload: { ticket: `no-ticket-${unique()}`, code: '123456' } }),
    expect: everyone(400),
  },
  // Only one's own: no route reads or changes another user's second step, an admin's neither.
  { route: 'GET /api/v1/auth/two-factor/', expect: loggedIn(200) },
  {
    // Callers have no password, so setting up is refused as bad input for everyone let in.
    route: 'POST /api/v1/auth/two-factor/setup/',
    request: () => ({ payload: { password: 'wrong password' } }),
    expect: loggedIn(400),
  },
  {
    // Nothing was set up, so there is nothing to confirm.
    route: 'POST /api/v1/auth/two-factor/confirm/',
    request: () => ({ payload: { code: '123456' } }),
    expect: loggedIn(409),
  },
  {
    route: 'POST /api/v1/auth/two-factor/disable/',
    request: () => ({ payload: { password: 'wrong password', code: '123456' } }),
    expect: loggedIn(400),
  },
  // Security keys (beyond the spec): only one's own, as the second step's other routes.
  { route: 'GET /api/v1/auth/security-keys/', expect: loggedIn(200) },
  {
    // Callers have no password, so asking to add a key is refused as bad input.
    route: 'POST /api/v1/auth/security-keys/options/',
    request: () => ({ payload: { password: 'wrong password' } }),
    expect: loggedIn(400),
  },
  {
    // Two-step verification is off for every caller: no key can be added.
    route: 'POST /api/v1/auth/security-keys/',
    request: () => ({
      payload: { name: 'Key', credential: keyAnswer({ attestationObject: 'oA' }) },
    }),
    expect: loggedIn(409),
  },
  {
    route: 'DELETE /api/v1/auth/security-keys/:keyId/',
    note: "one of the caller's own keys",
    request: async (w, caller) => ({ params: { keyId: await newSecurityKeyOf(w, caller.id) } }),
    expect: loggedIn(204),
  },
  {
    // Someone else's key is not found, for an admin too.
    route: 'DELETE /api/v1/auth/security-keys/:keyId/',
    note: "another user's key",
    request: async (w) => ({
      params: { keyId: await newSecurityKeyOf(w, (await newUser(w)).id) },
    }),
    expect: loggedIn(404),
  },
  {
    // A ticket no login made is refused for anyone, as for a code.
    route: 'POST /api/v1/auth/login/security-key/options/',
    request: () => ({ payload: { ticket: `no-ticket-${unique()}` } }),
    expect: everyone(400),
  },
  {
    route: 'POST /api/v1/auth/login/security-key/',
    request: () => ({
      payload: {
        ticket: `no-ticket-${unique()}`,
        credential: keyAnswer({ authenticatorData: 'AA', signature: 'AA' }),
      },
    }),
    expect: everyone(400),
  },
  { route: 'GET /api/v1/user_details/', expect: registering(200) },
  {
    route: 'PATCH /api/v1/user_details/',
    request: () => ({ payload: { is_student: true } }),
    expect: loggedIn(200),
  },
  { route: 'GET /api/v1/user_hash/', expect: loggedIn(200) },
  { route: 'POST /api/v1/user_hash/', expect: loggedIn(200) },
  { route: 'GET /api/v1/user_data/', expect: loggedIn(200) },
  {
    // Only one's own account, confirmed: a wrong password (or username, for an account
    // without one) is bad input for everyone let in, so no persona is deleted here.
    route: 'POST /api/v1/auth/account/delete/',
    request: () => ({ payload: { password: 'wrong password', username: 'not-their-username' } }),
    expect: registering(400),
  },
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
    // Its chairs read it too, to choose reviewers: the members' names and emails.
    route: 'GET /api/v1/committee_members/',
    request: (w) => ({ query: { committee: String(w.committeeId) } }),
    expect: chairsOnly(200),
  },
  { route: 'GET /api/v1/committees/', expect: adminOnly(200) },
  // The guided first run (issue 30): the checklist's counts, and invitation links.
  { route: 'GET /api/v1/admin/setup/', expect: adminOnly(200) },
  {
    route: 'GET /api/v1/committees/:id/invitation/',
    request: (w) => ({ params: { id: w.committeeId } }),
    expect: chairsOnly(200),
  },
  {
    // A link names its committee to anyone who opens it, before they have an account.
    route: 'GET /api/v1/invitations/:token',
    request: (w) => ({
      params: { token: invitationToken(w.ctx.app.keys.invitationKey, w.committeeId) },
    }),
    expect: everyone(200),
  },
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
  // Chairs of any committee read forms too, to choose them for their calls; a chair whose
  // role ended is a plain user again.
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
    request: (w) => ({ params: { id: w.call.id } }),
    expect: loggedIn(200),
  },
  {
    route: 'GET /api/v1/calls/:id/manage/',
    request: (w) => ({ params: { id: w.call.id } }),
    expect: chairsOnly(200),
  },
  {
    route: 'GET /api/v1/calls/:id/deadline_impact/',
    request: (w) => ({
      params: { id: w.call.id },
      query: {
        termination: w.ctx.clock.now().toISOString(),
        reviewTermination: w.ctx.clock.now().toISOString(),
      },
    }),
    expect: chairsOnly(200),
  },
  {
    route: 'GET /api/v1/proposal_form_order/:callId/',
    request: (w) => ({ params: { callId: w.call.id } }),
    expect: loggedIn(200),
  },
  {
    route: 'GET /api/v1/review_form_order/:callId/',
    request: (w) => ({ params: { callId: w.call.id } }),
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
        callId: w.call.id,
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
          callId: w.call.id,
          user: user.id,
          commencement: now.toISOString(),
          termination: now.toISOString(),
          reason: '',
        }),
      );
      return { payload: { callId: w.call.id, extensionId: extension.id } };
    },
    expect: chairsOnly(204),
  },
  {
    // A call whose review period ended: closable once, by each chair on their own copy.
    route: 'POST /api/v1/close_call/',
    request: async (w) => ({ payload: { callId: await newCall(w, 60) } }),
    expect: chairsOnly(200),
  },
  // Proposals. Each cell's proposal is the caller's when they are its author, has them as a
  // collaborator or an assigned reviewer when they are those, and carries canaries: a
  // decision summary, and once submitted a review by a canary reviewer.
  {
    route: 'GET /api/v1/proposals/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      return {};
    },
    expect: loggedIn(200),
  },
  {
    route: 'GET /api/v1/calls/:callId/proposals/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1 });
      return { params: { callId: w.call.id } };
    },
    expect: loggedIn(200),
  },
  {
    route: 'GET /api/v1/calls/:callId/proposals/',
    note: 'in review',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      return { params: { callId: w.reviewCall.id } };
    },
    expect: loggedIn(200),
  },
  {
    // Everything the chairs' downloads need, in one read.
    route: 'GET /api/v1/calls/:callId/proposals/export/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      return { params: { callId: w.reviewCall.id } };
    },
    expect: chairsOnly(200),
  },
  {
    route: 'GET /api/v1/proposals/:id/',
    note: 'a draft',
    request: async (w, c) => ({ params: { id: (await newProposal(w, c)).id } }),
    expect: onProposal(seeDraft(200)),
  },
  {
    route: 'GET /api/v1/proposals/:id/',
    note: 'submitted',
    request: async (w, c) => ({ params: { id: (await newProposal(w, c, { stateVal: 1 })).id } }),
    expect: onProposal(seeSubmitted(200)),
  },
  {
    // Its assigned reviewer may review it now, and sees its reviews and scores.
    route: 'GET /api/v1/proposals/:id/',
    note: 'in review',
    request: async (w, c) => ({
      params: { id: (await newProposal(w, c, { stateVal: 1, call: w.reviewCall })).id },
    }),
    expect: onProposal(seeSubmitted(200)),
  },
  {
    // Every member who may review it sees its reviewers and scores.
    route: 'GET /api/v1/proposals/:id/',
    note: 'open to all members',
    request: async (w, c) => ({
      params: { id: (await newProposal(w, c, { stateVal: 1, call: w.openReviewCall })).id },
    }),
    expect: onProposal(seeSubmitted(200)),
  },
  {
    // Its decision summary reaches its people now, its reviews never.
    route: 'GET /api/v1/proposals/:id/',
    note: 'call closed',
    request: async (w, c) => ({
      params: { id: (await newProposal(w, c, { stateVal: 1, call: w.closedCall })).id },
    }),
    expect: onProposal(seeSubmitted(200)),
  },
  {
    route: 'DELETE /api/v1/proposals/:id/',
    request: async (w, c) => ({ params: { id: (await newProposal(w, c)).id } }),
    expect: onProposal(authorOnly(204)),
  },
  {
    // Submission to the call is open: anyone may start a proposal.
    route: 'POST /api/v1/update_proposal_name/',
    note: 'create',
    request: async (w) => ({
      payload: {
        callId: w.call.id,
        isNew: true,
        name: 'A proposal',
        type: await proposalTypeOf(w.ctx.app, w.call.id),
      },
    }),
    expect: loggedIn(201),
  },
  {
    route: 'POST /api/v1/update_proposal_name/',
    note: 'rename',
    request: async (w, c) => ({
      payload: {
        callId: w.call.id,
        isNew: false,
        proposalId: (await newProposal(w, c)).id,
        name: 'B',
      },
    }),
    expect: onProposal(editDraft(200)),
  },
  {
    route: 'POST /api/v1/proposal_responses/',
    note: 'new: true creates the proposal',
    request: async (w) => ({
      payload: {
        call: w.call.id,
        proposalTypeId: await proposalTypeOf(w.ctx.app, w.call.id),
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
    request: async (w, c) => {
      const proposal = await newProposal(w, c);
      return {
        payload: {
          call: w.call.id,
          proposalTypeId: proposal.proposalTypeId,
          proposal: proposal.id,
          new: false,
          hash: 1,
          formId: w.forms.proposal,
          data: { title: 'Answers' },
        },
      };
    },
    expect: onProposal(editDraft(200)),
  },
  {
    // Two entries, so the first can go.
    route: 'DELETE /api/v1/delete_multi_form/',
    request: async (w, c) => {
      const proposal = await newProposal(w, c);
      const now = w.ctx.clock.now();
      await w.ctx.app.db.insert(proposalResponses).values(
        [0, 1].map((entryIndex) => ({
          proposalId: proposal.id,
          formId: w.forms.proposalMulti,
          entryIndex,
          data: { title: `Entry ${entryIndex}` },
          updatedAt: now,
        })),
      );
      return {
        payload: {
          callId: w.call.id,
          proposalId: proposal.id,
          formId: w.forms.proposalMulti,
          formIndex: 0,
        },
      };
    },
    expect: onProposal(editDraft(204)),
  },
  {
    route: 'POST /api/v1/collaborators/',
    request: async (w, c) => ({
      payload: { proposalId: (await newProposal(w, c)).id, hash: (await newUser(w)).hash },
    }),
    expect: onProposal(authorOnly(201)),
  },
  {
    // Another collaborator's removal: the author's business.
    route: 'DELETE /api/v1/collaborators/',
    request: async (w, c) => {
      const proposal = await newProposal(w, c);
      const collaborator = await newUser(w);
      await w.ctx.app.db
        .insert(proposalCollaborators)
        .values({ proposalId: proposal.id, userId: collaborator.id });
      return { payload: { proposalId: proposal.id, userId: collaborator.id } };
    },
    expect: onProposal(authorOnly(204)),
  },
  {
    route: 'POST /api/v1/proposal_state/',
    note: 'submit',
    request: async (w, c) => ({ payload: { proposalId: (await newProposal(w, c)).id, state: 1 } }),
    expect: onProposal(authorOnly(200)),
  },
  {
    // Its author takes it back while submission is open; the answer is their view of it.
    route: 'POST /api/v1/proposal_state/',
    note: 'retract',
    request: async (w, c) => ({
      payload: { proposalId: (await newProposal(w, c, { stateVal: 1 })).id, state: 0 },
    }),
    expect: onProposal({ ...seeSubmitted(403), author: 200, chairAuthor: 200 }),
  },
  {
    // Chairs write decisions; the proposal's own people and the members are refused, and
    // whoever has a conflict of interest with it is not told it has one.
    route: 'POST /api/v1/update_decision_summary/',
    request: async (w, c) => ({
      payload: {
        proposalId: (await newProposal(w, c, { stateVal: 1 })).id,
        summary: '<p>Funded.</p>',
        version: 0,
      },
    }),
    expect: onProposal({ ...chairsOfSubmitted(200), ...conflicted(404) }),
  },
  {
    // Those who see it but may not edit are told who holds the lock, and never take it.
    route: 'GET /api/v1/lock/:proposalId/',
    request: async (w, c) => ({ params: { proposalId: (await newProposal(w, c)).id } }),
    expect: onProposal(seeDraft(200)),
  },
  {
    route: 'DELETE /api/v1/lock/:proposalId/',
    request: async (w, c) => ({ params: { proposalId: (await newProposal(w, c)).id } }),
    expect: onProposal(seeDraft(204)),
  },
  // Files: whoever may edit the proposal uploads and deletes, whoever sees it downloads.
  {
    route: 'POST /api/v1/uploads/',
    request: async (w, c) => ({
      headers: {
        ...tusHeaders,
        'upload-length': '10',
        'upload-metadata': `proposal ${Buffer.from(String((await newProposal(w, c)).id)).toString('base64')}`,
      },
    }),
    expect: onProposal(editDraft(201)),
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
    request: async (w, c) => multipartRequest({ proposal: String((await newProposal(w, c)).id) }),
    expect: onProposal(editDraft(201)),
  },
  {
    route: 'POST /api/v1/proposal_response_pdf/',
    request: async (w, c) =>
      multipartRequest({
        proposal: String((await newProposal(w, c)).id),
        form: String(w.fileForm),
        field: 'cv',
      }),
    expect: onProposal(editDraft(200)),
  },
  {
    route: 'GET /api/v1/proposal_files/:proposalId/',
    request: async (w, c) => ({ params: { proposalId: (await newProposal(w, c)).id } }),
    expect: onProposal(seeDraft(200)),
  },
  {
    route: 'DELETE /api/v1/proposal_file/',
    request: async (w, c) => {
      const { proposal, file } = await newFile(w, c);
      return { payload: { proposal: proposal.id, file: file.id } };
    },
    expect: onProposal(editDraft(204)),
  },
  {
    route: 'POST /api/v1/download_tickets/',
    request: async (w, c) => ({ payload: { fileId: (await newFile(w, c)).file.id } }),
    expect: onProposal(seeDraft(200)),
  },
  {
    route: 'GET /api/v1/proposal_file/',
    request: async (w, c) => {
      const { proposal, file } = await newFile(w, c);
      return { query: { proposal: String(proposal.id), file: String(file.id) } };
    },
    expect: onProposal(seeDraft(200)),
  },
  {
    route: 'GET /api/v1/proposal_response_pdf/',
    request: async (w, c) => {
      const { proposal, file } = await newFile(w, c);
      return { query: { proposal: String(proposal.id), file: String(file.id) } };
    },
    expect: onProposal(seeDraft(200)),
  },
  {
    route: 'GET /api/v1/files/:fileId/',
    note: 'with the Authorization header; tickets in files.api.test.ts',
    request: async (w, c) => ({ params: { fileId: (await newFile(w, c)).file.id } }),
    expect: onProposal(seeDraft(200)),
  },
  {
    // The PDF's text is searched too: its author's copy holds no review and no decision.
    route: 'GET /api/v1/download_proposal_extract/:proposalId/',
    request: async (w, c) => ({
      params: { proposalId: (await newProposal(w, c, { stateVal: 1, call: w.reviewCall })).id },
    }),
    expect: onProposal(seeSubmitted(200)),
    pdf: true,
  },
  {
    route: 'GET /api/v1/download_proposal_extract/:proposalId/',
    note: 'call closed',
    request: async (w, c) => ({
      params: { proposalId: (await newProposal(w, c, { stateVal: 1, call: w.closedCall })).id },
    }),
    expect: onProposal(seeSubmitted(200)),
    pdf: true,
  },
  // Reviews, on proposals of the call in its review period: their assigned reviewers may
  // review them now.
  {
    route: 'POST /api/v1/reviewers/',
    request: async (w, c) => ({
      payload: {
        proposalId: (await newProposal(w, c, { stateVal: 1, call: w.reviewCall })).id,
        userId: (await newMember(w)).id,
      },
    }),
    expect: onProposal(chairsOfSubmitted(201)),
  },
  {
    route: 'DELETE /api/v1/reviewers/',
    request: async (w, c) => {
      const proposal = await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      const reviewer = await newMember(w);
      await assignReviewers(w.ctx.app, proposal.id, [reviewer.id]);
      return { payload: { proposalId: proposal.id, userId: reviewer.id } };
    },
    expect: onProposal(chairsOfSubmitted(204)),
  },
  {
    // Only assigned reviewers review (the call is not open to all members); chairs and
    // admins are not assigned here.
    route: 'POST /api/v1/review_responses/',
    request: async (w, c) => ({
      payload: {
        call: w.reviewCall.id,
        proposal: (await newProposal(w, c, { stateVal: 1, call: w.reviewCall })).id,
        formId: w.forms.review,
        hash: 1,
        data: {},
      },
    }),
    expect: onProposal({ ...seeSubmitted(403), reviewer: 200 }),
  },
  {
    // Review open to all members: any member of the committee may review, chairs and
    // admins too, never the proposal's people nor anyone with a conflict of interest.
    route: 'POST /api/v1/review_responses/',
    note: 'open to all members',
    request: async (w, c) => ({
      payload: {
        call: w.openReviewCall.id,
        proposal: (await newProposal(w, c, { stateVal: 1, call: w.openReviewCall })).id,
        formId: w.forms.review,
        hash: 1,
        data: {},
      },
    }),
    expect: onProposal({
      ...seeSubmitted(200),
      author: 403,
      collaborator: 403,
      chairAuthor: 403,
      ...conflicted(403),
    }),
  },
  {
    // The canary reviewer's review.
    route: 'GET /api/v1/reviews/:proposalId/:reviewId/',
    request: async (w, c) => {
      const proposal = await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      return {
        params: { proposalId: proposal.id, reviewId: await canaryReviewOf(w, proposal.id) },
      };
    },
    expect: onProposal({ reviewer: 200, chair: 200, admin: 200 }),
  },
  {
    route: 'GET /api/v1/calls/:callId/proposals/:proposalId/reviews/',
    request: async (w, c) => ({
      params: {
        callId: w.reviewCall.id,
        proposalId: (await newProposal(w, c, { stateVal: 1, call: w.reviewCall })).id,
      },
    }),
    expect: onProposal({ reviewer: 200, chair: 200, admin: 200 }),
  },
  {
    // Every member who may review it sees its reviews.
    route: 'GET /api/v1/calls/:callId/proposals/:proposalId/reviews/',
    note: 'open to all members',
    request: async (w, c) => ({
      params: {
        callId: w.openReviewCall.id,
        proposalId: (await newProposal(w, c, { stateVal: 1, call: w.openReviewCall })).id,
      },
    }),
    expect: onProposal({ member: 200, reviewer: 200, chair: 200, admin: 200 }),
  },
  {
    // Before its review period even its assigned reviewer sees none of its reviews.
    route: 'GET /api/v1/calls/:callId/proposals/:proposalId/reviews/',
    note: 'submission open',
    request: async (w, c) => ({
      params: { callId: w.call.id, proposalId: (await newProposal(w, c, { stateVal: 1 })).id },
    }),
    expect: onProposal({ chair: 200, admin: 200 }),
  },
  {
    // Once the review period is over, only the chairs.
    route: 'GET /api/v1/calls/:callId/proposals/:proposalId/reviews/',
    note: 'call closed',
    request: async (w, c) => ({
      params: {
        callId: w.closedCall.id,
        proposalId: (await newProposal(w, c, { stateVal: 1, call: w.closedCall })).id,
      },
    }),
    expect: onProposal({ chair: 200, admin: 200 }),
  },
  {
    route: 'GET /api/v1/pending_reviews/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      return {};
    },
    expect: loggedIn(200),
  },
  {
    route: 'GET /api/v1/pending_reviews/count/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      return {};
    },
    expect: loggedIn(200),
  },
  {
    route: 'GET /api/v1/reviews/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      return {};
    },
    expect: loggedIn(200),
  },
  // Conflicts of interest (issue 26), on a submitted proposal of the call open for
  // submission: its people declare theirs; the chairs without a conflict of their own see
  // and judge every one; a chair or admin with one is not told there is anything to see.
  {
    route: 'GET /api/v1/proposals/:id/conflicts/',
    request: async (w, c) => ({ params: { id: (await newProposal(w, c, { stateVal: 1 })).id } }),
    expect: onProposal({ ...chairsOfSubmitted(200), ...teamOf(200), ...conflictedChairs(404) }),
    listsCommittee: true,
  },
  {
    route: 'POST /api/v1/proposals/:id/conflicts/',
    request: async (w, c) => ({
      params: { id: (await newProposal(w, c, { stateVal: 1 })).id },
      payload: { userId: (await newMember(w)).id, type: 'personal' },
    }),
    expect: onProposal({ ...chairsOfSubmitted(201), ...teamOf(201), ...conflictedChairs(404) }),
  },
  {
    // The applicants' panel saved whole: theirs alone, whoever else sees the proposal.
    route: 'PUT /api/v1/proposals/:id/conflicts/',
    request: async (w, c) => ({
      params: { id: (await newProposal(w, c, { stateVal: 1 })).id },
      payload: { version: 0, declarations: [] },
    }),
    expect: onProposal({ ...seeSubmitted(403), ...teamOf(200) }),
    listsCommittee: true,
  },
  {
    // An unpinned declaration by the applicants: theirs to take back, or any chair's.
    route: 'DELETE /api/v1/conflicts/:id/',
    request: async (w, c) => ({
      params: { id: await newConflict(w, c, { source: 'applicant', state: 'confirmed' }) },
    }),
    expect: onProposal({ ...chairsOfSubmitted(204), ...teamOf(204), ...conflictedChairs(404) }),
  },
  {
    // Merit's suggestion: the chairs judge it; the applicants know only their own.
    route: 'POST /api/v1/conflicts/:id/',
    request: async (w, c) => ({
      params: { id: await newConflict(w, c, { source: 'detected', state: 'suggested' }) },
      payload: { state: 'confirmed' },
    }),
    expect: onProposal({ ...chairsOfSubmitted(200), ...teamOf(404), ...conflictedChairs(404) }),
  },
  {
    // Answered for everyone: each conflict the caller may not judge is listed as refused.
    route: 'POST /api/v1/conflicts/bulk/',
    request: async (w, c) => ({
      payload: {
        ids: [await newConflict(w, c, { source: 'detected', state: 'suggested' })],
        state: 'dismissed',
      },
    }),
    expect: loggedIn(200),
  },
  {
    route: 'GET /api/v1/calls/:callId/conflicts/',
    request: async (w, c) => {
      await newConflict(w, c, { source: 'detected', state: 'suggested' });
      return { params: { callId: w.call.id } };
    },
    expect: chairsOnly(200),
    // Its `members`, for the member filter.
    listsCommittee: true,
  },
  {
    // The declaration's facts stay readable to whoever may know of the proposal.
    route: 'GET /api/v1/proposals/:id/conflict_declaration/',
    request: async (w, c) => ({ params: { id: (await newProposal(w, c, { stateVal: 1 })).id } }),
    expect: onProposal(seeSubmitted(200)),
  },
  {
    // Members of the committee (chairs and admins too) answer once; its people never.
    route: 'POST /api/v1/proposals/:id/conflict_declaration/',
    request: async (w, c) => ({
      params: { id: (await newProposal(w, c, { stateVal: 1 })).id },
      payload: { conflict: false },
    }),
    expect: onProposal({ ...seeSubmitted(200), ...teamOf(403) }),
  },
  { route: 'GET /api/v1/recent_collaborators/', expect: loggedIn(200) },
  {
    route: 'PUT /api/v1/recent_collaborators/',
    request: () => ({
      payload: { collaborators: [{ name: 'Ann Other', email: 'ann@example.org' }] },
    }),
    expect: loggedIn(200),
  },
  // Reviewer assignment (issue 27): the Assignment page, Propose and its preview, the
  // matrix, locks and the CSV are the chairs' of the call's committee (and admins');
  // bidding and one's own cap are its current members'. A chair (or admin) with a conflict
  // of interest with a proposal, or of its team, is shown none of its pairs.
  {
    route: 'GET /api/v1/calls/:callId/assignment/settings/',
    request: (w) => ({ params: { callId: w.call.id } }),
    expect: chairsOnly(200),
    // Its members, with their loads and caps.
    listsCommittee: true,
  },
  {
    route: 'PATCH /api/v1/calls/:callId/assignment/settings/',
    request: (w) => ({ params: { callId: w.call.id }, payload: { biddingShowsProposals: false } }),
    expect: chairsOnly(200),
    listsCommittee: true,
  },
  {
    route: 'GET /api/v1/calls/:callId/bids/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1 });
      return { params: { callId: w.call.id } };
    },
    expect: { ...loggedIn(403), ...committeeMembers(200) },
  },
  {
    // Bidding open: never on one's own proposal, nor on one with a conflict of interest.
    route: 'POST /api/v1/calls/:callId/bids/',
    request: async (w, c) => {
      await w.ctx.app.db.update(calls).set({ biddingOpen: true }).where(eq(calls.id, w.call.id));
      const proposal = await newProposal(w, c, { stateVal: 1 });
      return {
        params: { callId: w.call.id },
        payload: { proposalId: proposal.id, preference: 'eager' },
      };
    },
    expect: { ...loggedIn(403), member: 200, reviewer: 200, chair: 200 },
  },
  {
    route: 'POST /api/v1/calls/:callId/assignment/my_cap/',
    request: (w) => ({ params: { callId: w.call.id }, payload: { cap: null } }),
    expect: { ...loggedIn(403), ...committeeMembers(200) },
  },
  {
    // A call of its own for each cell: one proposal at a time runs per call.
    route: 'POST /api/v1/calls/:callId/assignment/proposals/',
    request: async (w) => ({ params: { callId: await newCall(w) }, payload: {} }),
    expect: chairsOnly(202),
  },
  {
    // The preview names the canary reviewer of the caller's proposal.
    route: 'GET /api/v1/calls/:callId/assignment/proposals/:id/',
    request: async (w, c) => ({
      params: { callId: w.call.id, id: await newAssignmentRun(w, c) },
    }),
    expect: chairsOnly(200),
  },
  {
    route: 'DELETE /api/v1/calls/:callId/assignment/proposals/:id/',
    request: async (w, c) => ({
      params: { callId: w.call.id, id: await newAssignmentRun(w, c) },
    }),
    expect: chairsOnly(204),
  },
  {
    // Still being worked out: its chairs are told to wait (409), the others refused.
    route: 'POST /api/v1/calls/:callId/assignment/proposals/:id/apply/',
    note: 'still running',
    request: async (w, c) => ({
      params: { callId: w.call.id, id: await newAssignmentRun(w, c, 'running') },
    }),
    expect: chairsOnly(409),
  },
  {
    route: 'GET /api/v1/calls/:callId/assignment/matrix/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1 });
      return { params: { callId: w.call.id } };
    },
    expect: chairsOnly(200),
    // Its columns are the committee's members, with their loads.
    listsCommittee: true,
  },
  {
    // A proposal none of the callers is on or conflicted with: any chair may lock its reviewer.
    route: 'PATCH /api/v1/calls/:callId/assignment/locks/',
    request: async (w) => {
      const proposal = await seedProposal(w, { call: w.call, stateVal: 1 });
      return {
        params: { callId: w.call.id },
        payload: {
          proposalId: proposal.id,
          userId: await canaryReviewerOf(w, proposal.id),
          locked: true,
        },
      };
    },
    expect: chairsOnly(200),
  },
  {
    route: 'GET /api/v1/calls/:callId/assignment/csv/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1 });
      return { params: { callId: w.call.id } };
    },
    expect: chairsOnly(200),
  },
  {
    // A new member assigned to a proposal none of the callers is on or conflicted with.
    route: 'POST /api/v1/calls/:callId/assignment/csv/',
    request: async (w) => {
      const proposal = await seedProposal(w, { call: w.call, stateVal: 1 });
      const member = await newMember(w);
      return {
        params: { callId: w.call.id },
        headers: { 'content-type': 'text/csv' },
        payload: Buffer.from(
          `proposal_id,username,action\n${proposal.id},${member.username},assign\n`,
        ),
      };
    },
    expect: chairsOnly(200),
  },
  // --- Issue 28: the chair's review progress (modules/progress) ---
  {
    // The caller's submitted proposal, in review, in their relation to it: its team and a
    // chair or admin conflicted with it get no row of it, nor its canary review's score.
    route: 'GET /api/v1/calls/:callId/progress/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      return { params: { callId: w.reviewCall.id } };
    },
    expect: chairsOnly(200),
    // Its members are the committee's, by name and user id, with their counts.
    listsCommittee: true,
  },
  {
    route: 'GET /api/v1/calls/:callId/progress/',
    note: 'closed call',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1, call: w.closedCall });
      return { params: { callId: w.closedCall.id } };
    },
    expect: chairsOnly(200),
    listsCommittee: true,
  },
  // --- Issue 28: reminders (modules/reminders) ---
  {
    route: 'GET /api/v1/calls/:callId/reminders/',
    request: (w) => ({ params: { callId: w.call.id } }),
    expect: chairsOnly(200),
  },
  {
    route: 'GET /api/v1/calls/:callId/reminders/',
    note: 'closed call',
    request: (w) => ({ params: { callId: w.closedCall.id } }),
    expect: chairsOnly(200),
  },
  {
    // A call of its own for each cell, at its first version: saves from one version race.
    route: 'PUT /api/v1/calls/:callId/reminders/',
    request: async (w) => ({
      params: { callId: await newCall(w) },
      payload: { version: 1, rules: [] },
    }),
    expect: chairsOnly(200),
  },
  {
    route: 'PUT /api/v1/calls/:callId/reminders/',
    note: 'closed call',
    request: (w) => ({ params: { callId: w.closedCall.id }, payload: { version: 1, rules: [] } }),
    expect: chairsOnly(409),
  },
  {
    // A new member with a review to write of a proposal none of the callers is on or
    // conflicted with: the chairs remind them.
    route: 'POST /api/v1/calls/:callId/reminders/send/',
    request: async (w) => {
      const member = await newMember(w);
      await seedProposal(w, { call: w.call, stateVal: 1, reviewerIds: [member.id] });
      return { params: { callId: w.call.id }, payload: { userIds: [member.id] } };
    },
    expect: chairsOnly(200),
  },
  {
    route: 'GET /api/v1/my_reminders/',
    expect: loggedIn(200),
  },
  // --- Issue 29: the decision meeting (modules/decisions) ---
  // Each submitted proposal of the world has a canary decision: an award of a canary
  // facility and amount, with a canary note, which its people may read only once the call
  // is closed and its decisions released, and the note never.
  {
    // Submission closed: the chairs set it, but on their own proposal or one they are
    // conflicted on (404, as its decision is to them).
    route: 'POST /api/v1/proposals/:proposalId/decision/',
    request: async (w, c) => ({
      params: { proposalId: (await newProposal(w, c, { stateVal: 1, call: w.reviewCall })).id },
      payload: { outcome: 'declined', awards: {}, awardNotes: {}, version: 1 },
    }),
    expect: onProposal({ ...seeSubmitted(403), chair: 200, admin: 200, ...conflicted(404) }),
  },
  {
    route: 'POST /api/v1/proposals/:proposalId/decision/',
    note: 'submission open',
    request: async (w, c) => ({
      params: { proposalId: (await newProposal(w, c, { stateVal: 1 })).id },
      payload: { outcome: 'declined', awards: {}, awardNotes: {}, version: 1 },
    }),
    expect: onProposal({ ...seeSubmitted(403), chair: 409, admin: 409, ...conflicted(404) }),
  },
  {
    route: 'GET /api/v1/calls/:callId/capacity/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      return { params: { callId: w.reviewCall.id } };
    },
    expect: chairsOnly(200),
  },
  {
    // A call of its own for each cell, at its first version: saves from one version race.
    route: 'PUT /api/v1/calls/:callId/capacity/',
    request: async (w) => ({
      params: { callId: await newCall(w) },
      payload: { capacity: { Parkes: { hours: 100 } }, version: 0 },
    }),
    expect: chairsOnly(200),
  },
  {
    // The caller's submitted proposal, with its canary award: no row of it for its team
    // (a chair among them) nor for a chair or admin conflicted with it.
    route: 'GET /api/v1/calls/:callId/ranking/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      return { params: { callId: w.reviewCall.id } };
    },
    expect: chairsOnly(200),
  },
  {
    route: 'GET /api/v1/calls/:callId/ranking/',
    note: 'decisions released',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1, call: w.releasedCall });
      return { params: { callId: w.releasedCall.id }, query: { facility: 'Parkes' } };
    },
    expect: chairsOnly(200),
  },
  {
    // The chairs move a proposal they may decide; answers the whole ranking.
    route: 'POST /api/v1/calls/:callId/ranking/move/',
    request: async (w, c) => {
      const proposal = await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      return {
        params: { callId: w.reviewCall.id },
        payload: { proposalId: proposal.id, after: null, reason: 'Timely', version: 1 },
      };
    },
    expect: { ...chairsOnly(200), chairAuthor: 403, ...conflictedChairs(404) },
  },
  {
    // A preview writes nothing: every cell of the shared call at once.
    route: 'POST /api/v1/calls/:callId/ranking/outcomes/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1, call: w.reviewCall });
      return { params: { callId: w.reviewCall.id }, payload: { waitlist: 1, apply: false } };
    },
    expect: chairsOnly(200),
  },
  {
    // Applied on a call of its own for each cell, its submission closed.
    route: 'POST /api/v1/calls/:callId/ranking/outcomes/',
    note: 'apply',
    request: async (w, c) => {
      const call = { ...w.reviewCall, id: await newCall(w, 8), typeId: undefined };
      await newProposal(w, c, { stateVal: 1, call });
      return { params: { callId: call.id }, payload: { waitlist: 0, apply: true } };
    },
    expect: chairsOnly(200),
  },
  {
    // Its outcome and award reach its people now (its note never); before, on the closed
    // call's row above, they must not.
    route: 'GET /api/v1/proposals/:id/',
    note: 'decisions released',
    request: async (w, c) => ({
      params: { id: (await newProposal(w, c, { stateVal: 1, call: w.releasedCall })).id },
    }),
    expect: onProposal(seeSubmitted(200)),
  },
  // --- Issue 29: decision letters (modules/letters; their PDFs in modules/files) ---
  // The templates and the letters list are the chairs' (`call.decide`); a preview reads the
  // proposal's outcome (`proposal.viewOutcome`) and is refused to its own people; the
  // release is `call.releaseDecisions`. A letter's PDF is for whoever reads the outcome,
  // its people only once released and only a sent or queued letter; a superseded one for
  // nobody. Each letter made here carries a canary of its outcome in its subject and body.
  {
    route: 'GET /api/v1/calls/:callId/letter_templates/',
    request: (w) => ({ params: { callId: w.call.id } }),
    expect: chairsOnly(200),
  },
  {
    // A call of its own for each cell, at its first version: saves from one version race.
    route: 'PUT /api/v1/calls/:callId/letter_templates/',
    request: async (w) => ({
      params: { callId: await newCall(w) },
      payload: {
        templates: OUTCOMES.map((outcome) => ({ outcome, ...DEFAULT_LETTER_TEMPLATES[outcome] })),
        signature: 'The committee',
        outcomeLabels: Object.fromEntries(OUTCOMES.map((outcome) => [outcome, ''])),
        version: 0,
      },
    }),
    expect: chairsOnly(200),
  },
  {
    // The caller's submitted proposal with its canary award, which the letter shows: its
    // people are refused though its outcome is theirs to read now (a preview is the chairs').
    route: 'GET /api/v1/proposals/:proposalId/letter/preview/',
    request: async (w, c) => ({
      params: {
        proposalId: (await newProposal(w, c, { stateVal: 1, call: w.releasedCall })).id,
      },
    }),
    expect: onProposal({ ...seeSubmitted(403), chair: 200, admin: 200, ...conflicted(404) }),
  },
  {
    route: 'GET /api/v1/proposals/:proposalId/letter/preview/',
    note: 'decisions not released',
    request: async (w, c) => ({
      params: { proposalId: (await newProposal(w, c, { stateVal: 1, call: w.reviewCall })).id },
    }),
    expect: onProposal({ ...seeSubmitted(403), chair: 200, admin: 200, ...conflicted(404) }),
  },
  {
    // Submission still open: the chairs are told to close the call first.
    route: 'POST /api/v1/calls/:callId/release_decisions/',
    note: 'call open',
    request: (w) => ({ params: { callId: w.call.id } }),
    expect: chairsOnly(409),
  },
  {
    // A closed call of its own for each cell (a release is once), with the caller's
    // submitted proposal and its canary decision: its letter is written and queued.
    route: 'POST /api/v1/calls/:callId/release_decisions/',
    note: 'call closed',
    request: async (w, c) => {
      const call: CallInfo = {
        id: await newCall(w, 60),
        committeeId: w.committeeId,
        reviewing: false,
        closed: true,
      };
      await w.ctx.app.db
        .update(calls)
        .set({ closed: true, closedAt: w.ctx.clock.now() })
        .where(eq(calls.id, call.id));
      await newProposal(w, c, { stateVal: 1, call });
      return { params: { callId: call.id } };
    },
    expect: chairsOnly(200),
  },
  {
    // The caller's proposal with its sent letter: no row of it for its team nor for a
    // chair or admin conflicted with it.
    route: 'GET /api/v1/calls/:callId/letters/',
    request: async (w, c) => {
      const proposal = await newProposal(w, c, { stateVal: 1, call: w.releasedCall });
      await newLetter(w, proposal.id, 'sent', { pdf: false });
      return { params: { callId: w.releasedCall.id } };
    },
    expect: chairsOnly(200),
  },
  {
    // A failed letter of a proposal none of the callers is on or conflicted with, queued
    // again; one proposal per cell, so the cells do not race.
    route: 'POST /api/v1/calls/:callId/letters/send/',
    request: async (w) => {
      const proposal = await seedProposal(w, { call: w.releasedCall, stateVal: 1 });
      await newLetter(w, proposal.id, 'failed', { pdf: false });
      return { params: { callId: w.releasedCall.id }, payload: { proposalIds: [proposal.id] } };
    },
    expect: chairsOnly(200),
  },
  {
    route: 'POST /api/v1/calls/:callId/letters/send/',
    note: 'decisions not released',
    request: async (w) => {
      const proposal = await seedProposal(w, { call: w.closedCall, stateVal: 1 });
      return { params: { callId: w.closedCall.id }, payload: { proposalIds: [proposal.id] } };
    },
    expect: chairsOnly(409),
  },
  {
    route: 'POST /api/v1/download_tickets/',
    note: 'a decision letter',
    request: async (w, c) => {
      const proposal = await newProposal(w, c, { stateVal: 1, call: w.releasedCall });
      return { payload: { letterId: await newLetter(w, proposal.id) } };
    },
    expect: onProposal({
      ...seeSubmitted(403),
      ...teamOf(200),
      chair: 200,
      admin: 200,
      ...conflicted(404),
    }),
  },
  {
    // Its PDF's text is searched too. Tickets in letters.api.test.ts.
    route: 'GET /api/v1/decision_letters/:letterId/',
    note: 'sent',
    request: async (w, c) => {
      const proposal = await newProposal(w, c, { stateVal: 1, call: w.releasedCall });
      return { params: { letterId: await newLetter(w, proposal.id) } };
    },
    expect: onProposal({
      ...seeSubmitted(403),
      ...teamOf(200),
      chair: 200,
      admin: 200,
      ...conflicted(404),
    }),
    pdf: true,
  },
  {
    // Its mail was refused: the chairs read it to send it again, its people do not.
    route: 'GET /api/v1/decision_letters/:letterId/',
    note: 'failed',
    request: async (w, c) => {
      const proposal = await newProposal(w, c, { stateVal: 1, call: w.releasedCall });
      return { params: { letterId: await newLetter(w, proposal.id, 'failed') } };
    },
    expect: onProposal({
      ...seeSubmitted(403),
      ...teamOf(404),
      chair: 200,
      admin: 200,
      ...conflicted(404),
    }),
    pdf: true,
  },
  {
    // Replaced by a corrected letter: nobody reads it any more, its people above all.
    route: 'GET /api/v1/decision_letters/:letterId/',
    note: 'superseded',
    request: async (w, c) => {
      const proposal = await newProposal(w, c, { stateVal: 1, call: w.releasedCall });
      return { params: { letterId: await newLetter(w, proposal.id, 'superseded') } };
    },
    expect: onProposal({}),
    pdf: true,
  },
  {
    // No release writes one here, but were a letter there, its people would be refused
    // until the release: the rule itself, on a closed call whose decisions are not out.
    route: 'GET /api/v1/decision_letters/:letterId/',
    note: 'decisions not released',
    request: async (w, c) => {
      const proposal = await newProposal(w, c, { stateVal: 1, call: w.closedCall });
      return { params: { letterId: await newLetter(w, proposal.id) } };
    },
    expect: onProposal({ ...seeSubmitted(403), chair: 200, admin: 200, ...conflicted(404) }),
    pdf: true,
  },
  // --- Issue 28: history and activity (modules/activity) ---
  // A proposal's history: its people read their own timeline, its chairs and admins every
  // row; anyone with a conflict of interest with it is told there is none (404), as for its
  // decision; members who see it are refused (403).
  {
    route: 'GET /api/v1/proposals/:proposalId/history/',
    request: async (w, c) => ({
      params: { proposalId: (await newProposal(w, c, { stateVal: 1 })).id },
    }),
    expect: onProposal({
      ...seeSubmitted(403),
      ...teamOf(200),
      chair: 200,
      admin: 200,
      ...conflicted(404),
    }),
  },
  {
    // The call's chairs (and admins); nothing of a proposal the caller is of or conflicted with.
    route: 'GET /api/v1/calls/:callId/activity/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1 });
      return { params: { callId: w.call.id } };
    },
    expect: chairsOnly(200),
  },
  {
    route: 'GET /api/v1/calls/:callId/activity/',
    note: 'CSV',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1 });
      return { params: { callId: w.call.id }, query: { format: 'csv' } };
    },
    expect: chairsOnly(200),
  },
  {
    // The whole system's, with the security events: administrators (with two-step
    // verification where ADMIN_TWO_FACTOR asks for it: the route's admin access).
    route: 'GET /api/v1/activity/',
    request: async (w, c) => {
      await newProposal(w, c, { stateVal: 1 });
      return {};
    },
    expect: adminOnly(200),
  },
];
