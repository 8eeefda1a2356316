import type { ProposalDetail, ProposalReviewList } from '@merit/contract';
import { accountDeletionMessages, messages, userAdminMessages } from '@merit/domain';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  authTokens,
  committeeRoles,
  jobs,
  proposalCollaborators,
  proposalFiles,
  proposalResponses,
  proposalReviewers,
  proposals,
  reviews,
  userIdentities,
  users,
} from '../src/db/schema.js';
import { loggerOptions } from '../src/platform/http/log-options.js';
import { enqueueMail } from '../src/platform/io/mail-job.js';
import { issueToken } from '../src/modules/auth/tokens.queries.js';
import { captureLog } from './log-capture.js';
import { caller } from './admin-fixtures.js';
import { assignReviewers, makeProposal, makeReview } from './call-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  solveCaptcha,
  TEST_PASSWORD,
  type TestContext,
} from './helpers.js';
import { lastMailTo, outbox } from './mail.js';
import { proposalTypeOf } from './proposal-fixtures.js';
import { reviewedProposal, type ReviewedProposal } from './privacy-fixtures.js';

/**
 * POST /auth/account/delete/ (ASVS V8.3.2, the removal half): the rules of
 * packages/domain account-deletion.ts, on a submitted proposal that others reviewed.
 */
const { stream: logStream, lines: logLines } = captureLog();

let ctx: TestContext;
let w: ReviewedProposal;
let typeId: number;
beforeAll(async () => {
  ctx = await createTestApp({ logger: { ...loggerOptions('info'), stream: logStream } });
  w = await reviewedProposal(ctx);
  typeId = await proposalTypeOf(ctx.app, w.callId);
});
afterAll(() => ctx.close());

type Caller = ReviewedProposal['author']['call'];
const deleteAccount = (call: Caller, body: object) => call('POST', '/auth/account/delete/', body);
const userRow = async (id: number) =>
  (await ctx.app.db.select().from(users).where(eq(users.id, id)))[0]!;
const proposalIds = async (ids: number[]) =>
  (await ctx.app.db.select({ id: proposals.id }).from(proposals).where(inArray(proposals.id, ids)))
    .map((row) => row.id)
    .sort((a, b) => a - b);
const post = (url: string, payload: object) =>
  ctx.app.inject({ method: 'POST', url: `/api/v1${url}`, payload });

/** A draft of `authorId`'s in the fixture's call, straight in the database. */
async function draftOf(authorId: number, name: string) {
  const row = await makeProposal(ctx.app, { callId: w.callId, proposalTypeId: typeId, authorId });
  await ctx.app.db.update(proposals).set({ name }).where(eq(proposals.id, row.id));
  return row.id;
}

describe('Delete my account', () => {
  it('deletes the author’s own drafts with their answers and files, keeps the submitted, shared and reviewed ones under "Deleted user <id>", and ends every login', async () => {
    const { app } = ctx;
    const author = w.author.user;
    const secondKey = await login(app, author.username);
    const ownDraft = await draftOf(author.id, 'Private notes');
    await app.db.insert(proposalResponses).values({
      proposalId: ownDraft,
      formId: w.forms.proposal,
      entryIndex: 0,
      data: { title: 'Only mine' },
      updatedAt: app.now(),
    });
    await app.files.write('draft-file-key-0000001', Buffer.from('%PDF-1.4 only mine'));
    await app.db.insert(proposalFiles).values({
      proposalId: ownDraft,
      storageKey: 'draft-file-key-0000001',
      name: 'notes.pdf',
      size: 18,
      contentType: 'application/pdf',
      uploadedBy: author.id,
      uploadedAt: app.now(),
    });
    const sharedDraft = await draftOf(author.id, 'Shared draft');
    await app.db
      .insert(proposalCollaborators)
      .values({ proposalId: sharedDraft, userId: w.collaborator.user.id });
    const reviewedDraft = await draftOf(author.id, 'Retracted after a review');
    await makeReview(app, reviewedDraft, w.ben.user.id);
    const otherCommittee = (await makeCommittee(app)).id;
    await giveRole(app, author.id, otherCommittee, 'MEMBER', app.now());
    const hashBefore = (await userRow(author.id)).hash;
    const mailsBefore = (await outbox(ctx)).length;

    const res = await deleteAccount(w.author.call, { password: TEST_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ detail: accountDeletionMessages.deleted });

    expect(await proposalIds([w.proposalId, ownDraft, sharedDraft, reviewedDraft])).toEqual(
      [w.proposalId, sharedDraft, reviewedDraft].sort((a, b) => a - b),
    );
    expect(
      await app.db
        .select()
        .from(proposalResponses)
        .where(eq(proposalResponses.proposalId, ownDraft)),
    ).toEqual([]);
    expect(
      await app.db.select().from(proposalFiles).where(eq(proposalFiles.proposalId, ownDraft)),
    ).toEqual([]);
    // The bytes go once the deletion has committed, by the files job.
    await app.jobs.drain();
    await expect(app.files.read('draft-file-key-0000001')).rejects.toThrow();

    const anonymised = await userRow(author.id);
    expect(anonymised).toMatchObject({
      username: `deleted#${author.id}`,
      email: `deleted#${author.id}@deleted.invalid`,
      firstName: 'Deleted',
      lastName: `user ${author.id}`,
      institution: '',
      gender: null,
      phoneNumber: '',
      passwordHash: null,
      isActive: false,
      isAdmin: false,
      emailVerified: false,
      privacyConsentAt: null,
    });
    expect(anonymised.hash).not.toBe(hashBefore);
    expect(
      await app.db.select().from(committeeRoles).where(eq(committeeRoles.userId, author.id)),
    ).toEqual([]);
    expect(await app.db.select().from(authTokens).where(eq(authTokens.userId, author.id))).toEqual(
      [],
    );

    // The chair still has the proposal, its collaborator and both reviews.
    const detail = await w.chair.call('GET', `/proposals/${w.proposalId}/`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect((detail.json() as ProposalDetail).author).toBe(`Deleted user ${author.id}`);
    expect(detail.body).not.toContain(author.email);
    const list = await w.chair.call('GET', `/calls/${w.callId}/proposals/${w.proposalId}/reviews/`);
    expect((list.json() as ProposalReviewList).reviews).toHaveLength(2);

    // Both of their logins are dead, and the old credentials are refused as an unknown user's.
    for (const key of [secondKey]) {
      const me = await app.inject({
        method: 'GET',
        url: '/api/v1/user_details/',
        headers: auth(key),
      });
      expect(me.statusCode).toBe(401);
    }
    expect((await w.author.call('GET', '/user_details/')).statusCode).toBe(401);
    const old = await post('/auth/login/', { username: author.username, password: TEST_PASSWORD });
    const unknown = await post('/auth/login/', { username: 'nobody-at-all', password: 'x' });
    expect([old.statusCode, old.json().detail]).toEqual([400, messages.invalidCredentials]);
    expect(old.json()).toEqual(unknown.json());

    // A mail to the old address, and a security event with the id alone.
    const mails = await outbox(ctx);
    expect(mails.length).toBeGreaterThan(mailsBefore);
    const notice = await lastMailTo(ctx, author.email);
    expect(notice.subject).toBe('Your Merit account was deleted');
    expect(notice.text).toContain('Deleted user');
    const event = logLines
      .filter((line) => line.includes('"account.deleted"'))
      .map((line) => ({ line, entry: JSON.parse(line) as Record<string, unknown> }));
    expect(event).toHaveLength(1);
    expect(event[0]!.entry).toMatchObject({ securityEvent: 'account.deleted', userId: author.id });
    for (const personal of [author.email, author.username, 'Ada'])
      expect(event[0]!.line).not.toContain(personal);
    const [audit] = await app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.delete'), eq(auditLog.entityId, author.id)));
    expect(audit!.changes).toEqual({ draftsDeleted: { after: 1 } });
  });

  it('frees the email address and username for someone else to register', async () => {
    const res = await post('/auth/registration/', {
      username: w.author.user.username,
      email: w.author.user.email.toUpperCase(),
      first_name: 'Ada',
      last_name: 'Again',
      institution: 'Example University',
      gender: 'FEMALE',
      phone_number: '+61 2 5550 0100',
      password1: 'a long and unusual passphrase',
      password2: 'a long and unusual passphrase',
      is_student: false,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('keeps a reviewer’s review and score for the chair under the anonymised name, and removes their roles and the assignments they had not reviewed', async () => {
    const { app } = ctx;
    const rita = w.rita.user;
    const other = await makeProposal(app, {
      callId: w.callId,
      proposalTypeId: typeId,
      authorId: w.ben.user.id,
      stateVal: 1,
    });
    await assignReviewers(app, other.id, [rita.id]);

    const res = await deleteAccount(w.rita.call, { password: TEST_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);

    const list = await w.chair.call('GET', `/calls/${w.callId}/proposals/${w.proposalId}/reviews/`);
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json() as ProposalReviewList;
    expect(body.reviews.find((r) => r.authorId === rita.id)).toMatchObject({
      author: `Deleted user ${rita.id}`,
      score: 4,
    });
    expect(body.reviewers).toContainEqual({ id: rita.id, name: `Deleted user ${rita.id}` });
    expect(list.body).not.toContain(rita.email);
    expect(
      await app.db
        .select({ proposalId: proposalReviewers.proposalId })
        .from(proposalReviewers)
        .where(eq(proposalReviewers.userId, rita.id)),
    ).toEqual([{ proposalId: w.proposalId }]);
    expect(
      await app.db.select().from(committeeRoles).where(eq(committeeRoles.userId, rita.id)),
    ).toEqual([]);
    expect(
      await app.db.select({ id: reviews.id }).from(reviews).where(eq(reviews.reviewerId, rita.id)),
    ).toHaveLength(1);
  });

  it('takes a collaborator off the proposals they worked on, which stay', async () => {
    const { app } = ctx;
    const col = w.collaborator.user;
    const res = await deleteAccount(w.collaborator.call, { password: TEST_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      await app.db
        .select()
        .from(proposalCollaborators)
        .where(eq(proposalCollaborators.userId, col.id)),
    ).toEqual([]);
    expect(await proposalIds([w.proposalId])).toEqual([w.proposalId]);
  });

  it('refuses a wrong password with the field message, changes nothing, and counts it as a failed login', async () => {
    const { app } = ctx;
    const user = await makeUser(app);
    const call = caller(app, auth(await login(app, user.username)));
    const before = await userRow(user.id);
    const wrong = await deleteAccount(call, { password: 'not my password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ password: [accountDeletionMessages.wrongPassword] });
    const missing = await deleteAccount(call, {});
    expect(missing.json().fields).toEqual({ password: [accountDeletionMessages.required] });
    expect(await userRow(user.id)).toEqual(before);
    expect((await call('GET', '/user_details/')).statusCode).toBe(200);
    // The login throttle's limit for one username from one address (5) holds here too.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await deleteAccount(call, { password: `guess ${i}` })).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    expect(await userRow(user.id)).toEqual(before);
  });

  it('refuses the last active admin with 409 and changes nothing, and deletes an admin when another is left', async () => {
    const { app } = ctx;
    await app.db.update(users).set({ isAdmin: false }).where(eq(users.isAdmin, true));
    const only = await makeUser(app, { isAdmin: true });
    const onlyCall = caller(app, auth(await login(app, only.username)));
    const before = await userRow(only.id);
    const refused = await deleteAccount(onlyCall, { password: TEST_PASSWORD });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(accountDeletionMessages.lastActiveAdmin);
    expect(await userRow(only.id)).toEqual(before);
    expect((await onlyCall('GET', '/user_details/')).statusCode).toBe(200);

    const next = await makeUser(app, { isAdmin: true });
    const done = await deleteAccount(onlyCall, { password: TEST_PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    const admins = await app.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.isAdmin, true), eq(users.isActive, true)));
    expect(admins).toEqual([{ id: next.id }]);
  });

  it('lets no admin make a deleted account active or an admin again', async () => {
    const { app } = ctx;
    const user = await makeUser(app);
    const own = caller(app, auth(await login(app, user.username)));
    expect((await deleteAccount(own, { password: TEST_PASSWORD })).statusCode).toBe(200);
    const admin = await makeUser(app, { isAdmin: true });
    const asAdmin = caller(app, auth(await login(app, admin.username)));
    const before = await userRow(user.id);
    for (const body of [{ is_active: true }, { is_admin: true }]) {
      const refused = await asAdmin('PATCH', `/users/${user.id}/`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(409);
      expect(refused.json().detail).toBe(userAdminMessages.deletedAccount);
    }
    expect(await userRow(user.id)).toEqual(before);
    // Leaving it as it is stays allowed.
    expect((await asAdmin('PATCH', `/users/${user.id}/`, { is_active: false })).statusCode).toBe(
      200,
    );
  });

  it('asks a federated user without a password for their username, and deletes their federated login', async () => {
    const { app } = ctx;
    const user = await makeUser(app, { isAaf: true, password: '' });
    expect(user.passwordHash).toBeNull();
    await app.db.insert(userIdentities).values({
      userId: user.id,
      issuer: 'https://idp.example.org',
      subject: `subject-${user.id}`,
      createdAt: app.now(),
    });
    const key = await issueToken(app.db, user.id, app.now(), {
      method: 'federated',
      userAgent: undefined,
    });
    const call = caller(app, auth(key));

    const noName = await deleteAccount(call, { password: 'anything' });
    expect(noName.json().fields).toEqual({ username: [accountDeletionMessages.required] });
    const wrongName = await deleteAccount(call, { username: 'someone-else' });
    expect(wrongName.json().fields).toEqual({ username: [accountDeletionMessages.wrongUsername] });
    expect((await userRow(user.id)).isActive).toBe(true);

    const res = await deleteAccount(call, { username: ` ${user.username.toUpperCase()} ` });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      await app.db.select().from(userIdentities).where(eq(userIdentities.userId, user.id)),
    ).toEqual([]);
    expect((await call('GET', '/user_details/')).statusCode).toBe(401);
  });

  it('drops the notices that would go to an anonymised account, as when a call it submitted to closes', async () => {
    const before = (await outbox(ctx)).length;
    await ctx.app.writeAs({ id: w.chair.user.id, isAdmin: false }, (work) =>
      enqueueMail(work, {
        to: `deleted#${w.author.user.id}@deleted.invalid`,
        subject: 'Decisions are available',
        text: 'A decision on your proposal is available.',
        html: '<p>A decision on your proposal is available.</p>',
      }),
    );
    expect(await outbox(ctx)).toHaveLength(before);
    const [failed] = await ctx.app.db.select().from(jobs).where(isNotNull(jobs.failedAt));
    expect(failed).toBeUndefined();
  });

  it('needs a login', async () => {
    const res = await post('/auth/account/delete/', { password: TEST_PASSWORD });
    expect(res.statusCode).toBe(401);
  });
});
