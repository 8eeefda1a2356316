import { privacyMessages } from '@merit/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { users } from '../src/db/schema.js';
import { issueToken } from '../src/modules/auth/tokens.queries.js';
import { auth, createTestApp, makeUser, solveCaptcha, type TestContext } from './helpers.js';

const NOTICE = 'https://merit.example.org/privacy.html';

let withNotice: TestContext;
let without: TestContext;
beforeAll(async () => {
  withNotice = await createTestApp({ env: { PRIVACY_NOTICE_URL: NOTICE } });
  without = await createTestApp();
});
afterAll(async () => {
  await withNotice?.close();
  await without?.close();
});

let seq = 0;
async function registration(ctx: TestContext, overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    username: `consenter${seq}`,
    email: `consenter${seq}@example.org`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    institution: 'Analytical Engines',
    gender: 'FEMALE',
    phone_number: '+44 20 7946 0000',
    password1: 'a long and unusual passphrase',
    password2: 'a long and unusual passphrase',
    is_student: false,
    captcha: await solveCaptcha(ctx.app),
    ...overrides,
  };
}

const register = (ctx: TestContext, payload: object) =>
  ctx.app.inject({ method: 'POST', url: '/api/v1/auth/registration/', payload });

async function consentOf(ctx: TestContext, username: string) {
  const [row] = await ctx.app.db
    .select({ at: users.privacyConsentAt })
    .from(users)
    .where(eq(users.username, username));
  return row;
}

/** A federated account that has not completed its registration, logged in. */
async function federatedNewcomer(ctx: TestContext) {
  const user = await makeUser(ctx.app, {
    isAaf: true,
    registrationComplete: false,
    password: null,
    institution: '',
    phoneNumber: '',
    gender: null,
  });
  return { user, headers: auth(await issueToken(ctx.app.db, user.id, ctx.clock.now())) };
}
const completion = {
  institution: 'Analytical Engines',
  gender_choice: 'FEMALE',
  phone_number: '+44 20 7946 0001',
  is_student: true,
};

describe('PRIVACY_NOTICE_URL', () => {
  it('is checked at start as an http(s) address', () => {
    expect(loadConfig({ PRIVACY_NOTICE_URL: NOTICE }).privacyNoticeUrl).toBe(NOTICE);
    expect(loadConfig({}).privacyNoticeUrl).toBeUndefined();
    expect(() => loadConfig({ PRIVACY_NOTICE_URL: 'javascript:alert(1)' })).toThrow(
      /^PRIVACY_NOTICE_URL must start with http:\/\/ or https:\/\//,
    );
    expect(() => loadConfig({ PRIVACY_NOTICE_URL: 'privacy.html' })).toThrow(
      /^PRIVACY_NOTICE_URL must be a URL/,
    );
  });

  it('is named by GET /auth/methods/ when set, and absent when not', async () => {
    const named = await withNotice.app.inject({ method: 'GET', url: '/api/v1/auth/methods/' });
    expect(named.json()).toEqual({ oidc: null, privacyNoticeUrl: NOTICE });
    const plain = await without.app.inject({ method: 'GET', url: '/api/v1/auth/methods/' });
    expect(plain.json()).toEqual({ oidc: null });
  });
});

describe('consent at registration, with a privacy notice', () => {
  it('refuses a registration without the consent, with a field error, and creates nothing', async () => {
    for (const consent of [{}, { privacy_consent: false }]) {
      const body = await registration(withNotice, consent);
      const res = await register(withNotice, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_error',
        fields: { privacy_consent: [privacyMessages.consentRequired] },
      });
      expect(await consentOf(withNotice, body.username)).toBeUndefined();
    }
  });

  it('lists the missing consent beside the other problems of the form', async () => {
    const res = await register(withNotice, await registration(withNotice, { first_name: '' }));
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields as object).sort()).toEqual([
      'first_name',
      'privacy_consent',
    ]);
  });

  it('registers with the consent and records when it was given', async () => {
    const body = await registration(withNotice, { privacy_consent: true });
    const res = await register(withNotice, body);
    expect(res.statusCode).toBe(201);
    expect((await consentOf(withNotice, body.username))!.at).toEqual(withNotice.clock.now());
  });

  it('asks a federated user completing their registration for the same consent', async () => {
    const { user, headers } = await federatedNewcomer(withNotice);
    const url = '/api/v1/auth/complete_registration/';
    const refused = await withNotice.app.inject({
      method: 'POST',
      url,
      headers,
      payload: completion,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ privacy_consent: [privacyMessages.consentRequired] });
    expect((await consentOf(withNotice, user.username))!.at).toBeNull();

    const done = await withNotice.app.inject({
      method: 'POST',
      url,
      headers,
      payload: { ...completion, privacy_consent: true },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ registration_complete: true });
    expect((await consentOf(withNotice, user.username))!.at).toEqual(withNotice.clock.now());
  });
});

describe('without a privacy notice', () => {
  it('registers as the spec says, with no consent asked for or recorded', async () => {
    const body = await registration(without);
    const res = await register(without, body);
    expect(res.statusCode).toBe(201);
    expect((await consentOf(without, body.username))!.at).toBeNull();
  });

  it('completes a federated registration without the consent', async () => {
    const { user, headers } = await federatedNewcomer(without);
    const res = await without.app.inject({
      method: 'POST',
      url: '/api/v1/auth/complete_registration/',
      headers,
      payload: completion,
    });
    expect(res.statusCode).toBe(200);
    expect((await consentOf(without, user.username))!.at).toBeNull();
  });
});
