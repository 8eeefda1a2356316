import {
  base32Decode,
  MAX_SECURITY_KEYS,
  SECURITY_KEY_CHALLENGE_TTL_MS,
  securityKeyMessages,
  totpStep,
  TWO_FACTOR_TICKET_MAX_FAILURES,
  twoFactorMessages,
} from '@merit/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loginThrottle,
  securityKeyChallenges,
  securityKeys,
  twoFactorTickets,
  users,
} from '../src/db/schema.js';
import { hotp } from '../src/modules/auth/totp.js';
import { digestKey } from '../src/platform/security/secrets.js';
import { captureSecurityEvents } from './log-capture.js';
import { lastMailTo } from './mail.js';
import {
  auth,
  createTestApp,
  login,
  makeUser,
  TEST_PASSWORD,
  type TestContext,
} from './helpers.js';
import {
  SoftwareAuthenticator,
  type Bend,
  type CreationOptions,
  type RequestOptions,
} from './webauthn-authenticator.js';

/**
 * Security keys (WebAuthn, ASVS V2.3.2): adding and removing them, and the second step of
 * a password login with one. The keys are software authenticators (webauthn-authenticator.ts)
 * with real P-256 keys: every answer is checked by the server's real WebAuthn verification.
 */
let ctx: TestContext;
let origin: string;
const { stream, entries: events } = captureSecurityEvents();
beforeAll(async () => {
  ctx = await createTestApp({ logger: { level: 'info', stream } });
  origin = new URL(ctx.app.config.publicUrl).origin;
});
afterAll(() => ctx.close());

const request = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
  key?: string,
  remoteAddress?: string,
) =>
  ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    ...(payload ? { payload } : {}),
    headers: key ? auth(key) : {},
    ...(remoteAddress ? { remoteAddress } : {}),
  });
const post = (url: string, payload: object, key?: string) => request('POST', url, payload, key);
const get = (url: string, key: string) => request('GET', url, undefined, key);

const newKey = () => new SoftwareAuthenticator(origin);
const codeOf = (secret: string, steps = 0) =>
  hotp(base32Decode(secret)!, totpStep(ctx.clock.now()) + steps);

/** A fresh user with two-step verification on (an authenticator app), and their token. */
async function enrolled() {
  const user = await makeUser(ctx.app);
  const key = await login(ctx.app, user.username);
  const setup = await post('/auth/two-factor/setup/', { password: TEST_PASSWORD }, key);
  const { secret } = setup.json<{ secret: string }>();
  expect((await post('/auth/two-factor/confirm/', { code: codeOf(secret) }, key)).statusCode).toBe(
    200,
  );
  ctx.clock.advance(30_000);
  return { user, key, secret };
}

/** The request to a new key, after the password. */
async function creationOptions(token: string): Promise<CreationOptions> {
  const res = await post('/auth/security-keys/options/', { password: TEST_PASSWORD }, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ options: CreationOptions }>().options;
}

/** Adds `authenticator` to the account of `token`: its answer to a new request. */
async function addKey(token: string, authenticator: SoftwareAuthenticator, name = 'Blue USB key') {
  const options = await creationOptions(token);
  const res = await post(
    '/auth/security-keys/',
    { name, credential: authenticator.register(options) },
    token,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: number; name: string; createdAt: string; lastUsedAt: string | null }>();
}

const listKeys = async (token: string) =>
  (await get('/auth/security-keys/', token)).json<{ id: number; name: string }[]>();

async function passwordStep(username: string) {
  const res = await post('/auth/login/', { username, password: TEST_PASSWORD });
  expect(res.statusCode).toBe(200);
  return res.json<{ twoFactorRequired?: true; ticket: string; securityKeys?: boolean }>();
}

async function loginOptions(ticket: string, remoteAddress?: string): Promise<RequestOptions> {
  const res = await request(
    'POST',
    '/auth/login/security-key/options/',
    { ticket },
    undefined,
    remoteAddress,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ options: RequestOptions }>().options;
}

/** The second step with `authenticator`: a new request for the ticket, and its answer. */
async function keyStep(
  ticket: string,
  authenticator: SoftwareAuthenticator,
  bend: Bend = {},
  remoteAddress?: string,
) {
  const options = await loginOptions(ticket, remoteAddress);
  const credential = authenticator.assert(options, bend);
  return request(
    'POST',
    '/auth/login/security-key/',
    { ticket, credential },
    undefined,
    remoteAddress,
  );
}

const ticketFailures = async (ticket: string) => {
  const [row] = await ctx.app.db
    .select({ failures: twoFactorTickets.failures })
    .from(twoFactorTickets)
    .where(eq(twoFactorTickets.ticketHash, digestKey(ticket)));
  return row?.failures;
};

const refused = (detail: string) => ({ detail, code: 'two_factor' });

describe('adding a key', () => {
  it('needs two-step verification on and the current password', async () => {
    const plain = await makeUser(ctx.app);
    const plainKey = await login(ctx.app, plain.username);
    const off = await post('/auth/security-keys/options/', { password: TEST_PASSWORD }, plainKey);
    expect(off.statusCode).toBe(409);
    expect(off.json().detail).toBe(securityKeyMessages.needsTwoFactor);
    // Nor by skipping the request: an answer is refused for the same reason.
    const skipped = await post(
      '/auth/security-keys/',
      { name: 'Key', credential: newKey().register(fakeOptions()) },
      plainKey,
    );
    expect(skipped.statusCode).toBe(409);
    expect(skipped.json().detail).toBe(securityKeyMessages.needsTwoFactor);

    const { key } = await enrolled();
    const wrong = await post('/auth/security-keys/options/', { password: 'not it' }, key);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ password: [twoFactorMessages.wrongPassword] });
    // No request was made, so there is nothing to answer.
    const unasked = await post(
      '/auth/security-keys/',
      { name: 'Key', credential: newKey().register(fakeOptions()) },
      key,
    );
    expect(unasked.statusCode).toBe(400);
    expect(unasked.json().detail).toBe(securityKeyMessages.expired);
  });

  it('is not for accounts without a Merit password', async () => {
    const { user, key } = await enrolled();
    await ctx.app.db.update(users).set({ isAaf: true }).where(eq(users.id, user.id));
    const res = await post('/auth/security-keys/options/', { password: TEST_PASSWORD }, key);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(twoFactorMessages.federated);
  });

  it('asks the key for presence as Merit, adds it, lists it and tells the owner', async () => {
    const { user, key } = await enrolled();
    const options = await creationOptions(key);
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'Merit' },
      user: { name: user.username },
      attestation: 'none',
      authenticatorSelection: { userVerification: 'discouraged', residentKey: 'discouraged' },
      excludeCredentials: [],
    });
    // The user handle: the same for each of the user's requests, another user's differs,
    // and it is neither the id nor the name.
    const handle = options.user.id;
    expect(handle).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await creationOptions(key)).user.id).toBe(handle);
    const other = await enrolled();
    expect((await creationOptions(other.key)).user.id).not.toBe(handle);
    // 32 random-looking bytes: a short id could turn up among them by chance, so the check
    // is that the handle is not the id encoded, and that the name and address are not in it.
    expect(handle).not.toBe(Buffer.from(String(user.id)).toString('base64url'));
    const handleText = Buffer.from(handle, 'base64url').toString('latin1');
    expect(handleText).not.toContain(user.username);
    expect(handleText).not.toContain(user.email);

    const blue = newKey();
    const added = await addKey(key, blue, '  Blue USB key  ');
    expect(added).toEqual({
      id: expect.any(Number),
      name: 'Blue USB key',
      createdAt: ctx.clock.now().toISOString(),
      lastUsedAt: null,
    });
    expect(await listKeys(key)).toEqual([added]);
    const status = await get('/auth/two-factor/', key);
    expect(status.json()).toMatchObject({ enabled: true, securityKeys: 1 });
    expect(events).toContainEqual(
      expect.objectContaining({
        securityEvent: 'security_key.added',
        userId: user.id,
        keyId: added.id,
      }),
    );
    const notice = await lastMailTo(ctx, user.email);
    expect(notice.subject).toBe('A security key was added to your Merit account');
    expect(notice.text).toContain('“Blue USB key”');
    expect(notice.links).toEqual([expect.stringMatching(/\/auth\/password-reset\/$/)]);

    // The next request excludes the key, so the browser does not add it twice; the list
    // keeps the order keys were added in.
    ctx.clock.advance(1000);
    const next = await creationOptions(key);
    expect(next).toMatchObject({
      excludeCredentials: [{ id: blue.id, type: 'public-key', transports: ['usb'] }],
    });
    const green = await addKey(key, newKey(), 'Green key');
    expect((await listKeys(key)).map((k) => k.name)).toEqual(['Blue USB key', 'Green key']);
    expect(green.id).not.toBe(added.id);
  });

  it('refuses a blank or overlong name, keeping the request for a good one', async () => {
    const { key } = await enrolled();
    const authenticator = newKey();
    const credential = authenticator.register(await creationOptions(key));
    for (const name of ['   ', 'x'.repeat(65)]) {
      const res = await post('/auth/security-keys/', { name, credential }, key);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['name']);
    }
    const named = await post('/auth/security-keys/', { name: 'x'.repeat(64), credential }, key);
    expect(named.statusCode).toBe(201);
  });

  it.each<[string, Bend]>([
    ['from another site', { origin: 'https://evil.example' }],
    ['for another relying party', { rpId: 'evil.example' }],
    ['to another challenge', { challenge: 'bm90LXRoZS1jaGFsbGVuZ2U' }],
    ['of the wrong type', { type: 'webauthn.get' }],
  ])('refuses an answer %s, and the request is used up', async (_, bend) => {
    const { key } = await enrolled();
    const authenticator = newKey();
    const options = await creationOptions(key);
    const bad = await post(
      '/auth/security-keys/',
      { name: 'Key', credential: authenticator.register(options, bend) },
      key,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBe(securityKeyMessages.notVerified);
    // The right answer to the same request comes too late: it was used.
    const late = await post(
      '/auth/security-keys/',
      { name: 'Key', credential: newKey().register(options) },
      key,
    );
    expect(late.statusCode).toBe(400);
    expect(late.json().detail).toBe(securityKeyMessages.expired);
    expect(await listKeys(key)).toEqual([]);
  });

  it('takes only the answer to the latest request, within 5 minutes', async () => {
    const { key } = await enrolled();
    const first = await creationOptions(key);
    const second = await creationOptions(key);
    expect(second.challenge).not.toBe(first.challenge);
    const stale = await post(
      '/auth/security-keys/',
      { name: 'Key', credential: newKey().register(first) },
      key,
    );
    expect(stale.statusCode).toBe(400);
    expect(stale.json().detail).toBe(securityKeyMessages.notVerified);

    const options = await creationOptions(key);
    ctx.clock.advance(SECURITY_KEY_CHALLENGE_TTL_MS);
    const expired = await post(
      '/auth/security-keys/',
      { name: 'Key', credential: newKey().register(options) },
      key,
    );
    expect(expired.statusCode).toBe(400);
    expect(expired.json().detail).toBe(securityKeyMessages.expired);
    expect(await listKeys(key)).toEqual([]);
  });

  it(`holds at most ${MAX_SECURITY_KEYS} keys`, async () => {
    const { key } = await enrolled();
    for (let i = 0; i < MAX_SECURITY_KEYS - 1; i += 1) await addKey(key, newKey(), `Key ${i}`);
    // The last place: asked for, then taken in another way before the answer comes.
    const options = await creationOptions(key);
    await addKey(key, newKey(), 'The tenth');
    const full = await post('/auth/security-keys/options/', { password: TEST_PASSWORD }, key);
    expect(full.statusCode).toBe(409);
    expect(full.json().detail).toBe(securityKeyMessages.tooMany);
    const answer = await post(
      '/auth/security-keys/',
      { name: 'Eleventh', credential: newKey().register(options) },
      key,
    );
    expect(answer.statusCode).toBe(409);
    expect(answer.json().detail).toBe(securityKeyMessages.tooMany);
    expect(await listKeys(key)).toHaveLength(MAX_SECURITY_KEYS);
  });

  it('does not add a key that is already on an account, its owner’s or another', async () => {
    const first = await enrolled();
    const second = await enrolled();
    const shared = newKey();
    await addKey(first.key, shared);
    for (const { key } of [first, second]) {
      const options = await creationOptions(key);
      const res = await post(
        '/auth/security-keys/',
        { name: 'Again', credential: shared.register(options) },
        key,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe(securityKeyMessages.notVerified);
    }
    expect(await listKeys(second.key)).toEqual([]);
  });
});

/** Options for an authenticator to answer when no request was made. */
function fakeOptions(): CreationOptions {
  return {
    challenge: 'bm8tcmVxdWVzdC13YXMtbWFkZQ',
    rp: { id: 'localhost', name: 'Merit' },
    user: { id: 'dXNlcg', name: 'user', displayName: 'user' },
  };
}

describe('removing a key', () => {
  it('removes one’s own key, and tells the owner; another user’s is not found', async () => {
    const { user, key } = await enrolled();
    const other = await enrolled();
    const mine = await addKey(key, newKey(), 'Old key');
    const theirs = await addKey(other.key, newKey(), 'Their key');

    const foreign = await request('DELETE', `/auth/security-keys/${theirs.id}/`, undefined, key);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().detail).toBe(securityKeyMessages.notFound);
    expect(await listKeys(other.key)).toHaveLength(1);

    const res = await request('DELETE', `/auth/security-keys/${mine.id}/`, undefined, key);
    expect(res.statusCode).toBe(204);
    expect(await listKeys(key)).toEqual([]);
    expect(events).toContainEqual(
      expect.objectContaining({
        securityEvent: 'security_key.removed',
        userId: user.id,
        keyId: mine.id,
      }),
    );
    const notice = await lastMailTo(ctx, user.email);
    expect(notice.subject).toBe('A security key was removed from your Merit account');
    expect(notice.text).toContain('“Old key”');

    const again = await request('DELETE', `/auth/security-keys/${mine.id}/`, undefined, key);
    expect(again.statusCode).toBe(404);
  });
});

describe('logging in with a key', () => {
  it('says at the password step whether the account has keys, and a key’s answer logs in', async () => {
    const { user, key } = await enrolled();
    expect(await passwordStep(user.username)).toEqual({
      twoFactorRequired: true,
      ticket: expect.any(String),
      securityKeys: false,
    });
    const authenticator = newKey();
    const added = await addKey(key, authenticator);
    const first = await passwordStep(user.username);
    expect(first).toEqual({
      twoFactorRequired: true,
      ticket: expect.any(String),
      securityKeys: true,
    });

    const options = await loginOptions(first.ticket);
    expect(options).toMatchObject({
      rpId: 'localhost',
      userVerification: 'discouraged',
      allowCredentials: [{ id: authenticator.id, type: 'public-key', transports: ['usb'] }],
    });
    ctx.clock.advance(60_000);
    const res = await request('POST', '/auth/login/security-key/', {
      ticket: first.ticket,
      credential: authenticator.assert(options),
    });
    expect(res.statusCode, res.body).toBe(200);
    const token = res.json<{ key: string }>().key;
    expect(Object.keys(res.json())).toEqual(['key']);
    const me = await get('/user_details/', token);
    expect(me.json().username).toBe(user.username);
    const sessions = await get('/auth/sessions/', token);
    expect(sessions.json()).toContainEqual(
      expect.objectContaining({ current: true, method: 'password_webauthn' }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        securityEvent: 'login.succeeded',
        userId: user.id,
        method: 'password_webauthn',
        keyId: added.id,
      }),
    );
    expect(await listKeys(key)).toEqual([
      expect.objectContaining({ id: added.id, lastUsedAt: ctx.clock.now().toISOString() }),
    ]);
    const [stored] = await ctx.app.db
      .select({ counter: securityKeys.counter })
      .from(securityKeys)
      .where(eq(securityKeys.id, added.id));
    expect(stored!.counter).toBe(authenticator.counter);
    // The right answer cleared the login throttle's count, as a right code does.
    const pair = await ctx.app.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.bucket, `pair:${user.username.toLowerCase()} 127.0.0.1`));
    expect(pair).toEqual([]);
    // The ticket is spent, and its request with it.
    const reused = await post('/auth/login/security-key/options/', { ticket: first.ticket });
    expect(reused.json().code).toBe('two_factor_expired');
    expect(
      await ctx.app.db
        .select()
        .from(securityKeyChallenges)
        .where(eq(securityKeyChallenges.userId, user.id)),
    ).toEqual([]);
    // The code of the app still works in place of the key.
    const second = await passwordStep(user.username);
    expect((await keyStep(second.ticket, authenticator)).statusCode).toBe(200);
  });

  it.each<[string, Bend | 'another user’s key']>([
    ['a wrong signature', { badSignature: true }],
    ['another user’s key', 'another user’s key'],
    ['another site', { origin: 'https://evil.example' }],
    ['another relying party', { rpId: 'evil.example' }],
    ['another challenge', { challenge: 'bm90LXRoZS1jaGFsbGVuZ2U' }],
    ['a registration in place of a login', { type: 'webauthn.create' }],
  ])('refuses an answer with %s and counts it as a wrong code', async (_, bend) => {
    const { user, key } = await enrolled();
    const own = newKey();
    await addKey(key, own);
    const foreign = newKey();
    if (bend === 'another user’s key') await addKey((await enrolled()).key, foreign);
    const answering = bend === 'another user’s key' ? foreign : own;
    const { ticket } = await passwordStep(user.username);
    const res = await keyStep(ticket, answering, bend === 'another user’s key' ? {} : bend);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refused(securityKeyMessages.notVerified));
    expect(await ticketFailures(ticket)).toBe(1);
    expect(events).toContainEqual(
      expect.objectContaining({
        securityEvent: 'login.failed',
        userId: user.id,
        reason: 'two_factor',
      }),
    );
  });

  it('ends the ticket at the fifth refused answer, even with the right one next', async () => {
    const { user, key } = await enrolled();
    const authenticator = newKey();
    await addKey(key, authenticator);
    const { ticket } = await passwordStep(user.username);
    for (let i = 0; i < TWO_FACTOR_TICKET_MAX_FAILURES; i += 1) {
      // Each from another address, so the throttle (per address) does not stop it first.
      const res = await keyStep(
        ticket,
        authenticator,
        { badSignature: true },
        `198.51.100.${i + 1}`,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('two_factor');
    }
    const options = await request('POST', '/auth/login/security-key/options/', { ticket });
    expect(options.statusCode).toBe(400);
    expect(options.json()).toEqual({
      detail: twoFactorMessages.ticketExpired,
      code: 'two_factor_expired',
    });
  });

  it('counts refused answers in the login throttle, with wrong codes', async () => {
    const { user, key, secret } = await enrolled();
    const authenticator = newKey();
    await addKey(key, authenticator);
    const { ticket } = await passwordStep(user.username);
    const pairCount = async () => {
      const [row] = await ctx.app.db
        .select()
        .from(loginThrottle)
        .where(eq(loginThrottle.bucket, `pair:${user.username.toLowerCase()} 127.0.0.1`));
      return row?.count ?? 0;
    };
    expect(await pairCount()).toBe(1);
    expect((await keyStep(ticket, authenticator, { badSignature: true })).statusCode).toBe(400);
    const code = await post('/auth/login/two-factor/', { ticket, code: codeOf(secret, 5) });
    expect(code.statusCode).toBe(400);
    expect((await keyStep(ticket, authenticator, { badSignature: true })).statusCode).toBe(400);
    expect(await pairCount()).toBe(4);
    expect(await ticketFailures(ticket)).toBe(3);
  });

  it('takes each request once: a replayed, missing or expired one is refused and counted', async () => {
    const { user, key } = await enrolled();
    const authenticator = newKey();
    await addKey(key, authenticator);

    // An answer that logged in, sent again for the next login: its challenge is not this one's.
    const first = await passwordStep(user.username);
    const options = await loginOptions(first.ticket);
    const answer = authenticator.assert(options);
    const ok = await post('/auth/login/security-key/', {
      ticket: first.ticket,
      credential: answer,
    });
    expect(ok.statusCode).toBe(200);
    const second = await passwordStep(user.username);
    await loginOptions(second.ticket);
    const replayed = await post('/auth/login/security-key/', {
      ticket: second.ticket,
      credential: answer,
    });
    expect(replayed.json()).toEqual(refused(securityKeyMessages.notVerified));

    // The request was used by the refusal: even a right answer to it is refused now.
    const late = await post('/auth/login/security-key/', {
      ticket: second.ticket,
      credential: authenticator.assert(options),
    });
    expect(late.json()).toEqual(refused(securityKeyMessages.expired));

    // A request past its time.
    const request2 = await loginOptions(second.ticket);
    await ctx.app.db
      .update(securityKeyChallenges)
      .set({ expiresAt: ctx.clock.now() })
      .where(eq(securityKeyChallenges.ticketHash, digestKey(second.ticket)));
    const expired = await post('/auth/login/security-key/', {
      ticket: second.ticket,
      credential: authenticator.assert(request2),
    });
    expect(expired.json()).toEqual(refused(securityKeyMessages.expired));
    expect(await ticketFailures(second.ticket)).toBe(3);
    // The ticket still works for a right answer to a new request.
    expect((await keyStep(second.ticket, authenticator)).statusCode).toBe(200);
  });

  it('refuses a signature counter that does not go forward, and logs it', async () => {
    const { user, key } = await enrolled();
    const authenticator = newKey();
    const added = await addKey(key, authenticator);
    const first = await passwordStep(user.username);
    expect((await keyStep(first.ticket, authenticator)).statusCode).toBe(200);
    const now = authenticator.counter;
    expect(now).toBe(2);

    const { ticket } = await passwordStep(user.username);
    for (const counter of [now - 1, now]) {
      // A copy of the key, which has not seen the original's latest uses.
      const res = await keyStep(ticket, authenticator, { counter });
      expect(res.json()).toEqual(refused(securityKeyMessages.notVerified));
    }
    expect(await ticketFailures(ticket)).toBe(2);
    expect(
      events.filter(
        (e) => e.securityEvent === 'security_key.counter_rejected' && e.keyId === added.id,
      ),
    ).toHaveLength(2);
    // Forged answers (bad signatures) say nothing about the key's counter: not logged as one.
    const forged = await keyStep(ticket, authenticator, { counter: 1, badSignature: true });
    expect(forged.statusCode).toBe(400);
    expect(events.filter((e) => e.securityEvent === 'security_key.counter_rejected')).toHaveLength(
      2,
    );
    expect((await keyStep(ticket, authenticator)).statusCode).toBe(200);
  });

  it('takes keys without a counter (always 0) every time', async () => {
    const { user, key } = await enrolled();
    const authenticator = new SoftwareAuthenticator(origin, false);
    await addKey(key, authenticator);
    for (let i = 0; i < 2; i += 1) {
      const { ticket } = await passwordStep(user.username);
      expect((await keyStep(ticket, authenticator)).statusCode).toBe(200);
    }
  });

  it('gives no request for a ticket that ended, or for an account without keys', async () => {
    const { user } = await enrolled();
    const unknown = await post('/auth/login/security-key/options/', { ticket: 'not-a-ticket' });
    expect(unknown.json()).toEqual({
      detail: twoFactorMessages.ticketExpired,
      code: 'two_factor_expired',
    });
    const { ticket } = await passwordStep(user.username);
    const none = await post('/auth/login/security-key/options/', { ticket });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual(refused(securityKeyMessages.notVerified));
    // An answer with no request is not a login either.
    const answer = await post('/auth/login/security-key/', {
      ticket: 'not-a-ticket',
      credential: newKey().assert({ challenge: 'eA' }),
    });
    expect(answer.json().code).toBe('two_factor_expired');
  });

  it('refuses the ticket of a deactivated account', async () => {
    const { user, key } = await enrolled();
    const authenticator = newKey();
    await addKey(key, authenticator);
    const { ticket } = await passwordStep(user.username);
    const options = await loginOptions(ticket);
    await ctx.app.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const res = await post('/auth/login/security-key/', {
      ticket,
      credential: authenticator.assert(options),
    });
    expect(res.json().code).toBe('two_factor_expired');
    expect((await post('/auth/login/security-key/options/', { ticket })).json().code).toBe(
      'two_factor_expired',
    );
  });
});

describe('turning two-step verification off', () => {
  it('removes the keys too, and says so', async () => {
    const { user, key, secret } = await enrolled();
    const blue = newKey();
    const keys = [await addKey(key, blue), await addKey(key, newKey(), 'Spare')];
    await creationOptions(key);
    const off = await post(
      '/auth/two-factor/disable/',
      { password: TEST_PASSWORD, code: codeOf(secret) },
      key,
    );
    expect(off.statusCode).toBe(204);
    expect(await listKeys(key)).toEqual([]);
    expect((await get('/auth/two-factor/', key)).json()).toMatchObject({
      enabled: false,
      securityKeys: 0,
    });
    expect(
      await ctx.app.db
        .select()
        .from(securityKeyChallenges)
        .where(eq(securityKeyChallenges.userId, user.id)),
    ).toEqual([]);
    for (const { id } of keys) {
      expect(events).toContainEqual(
        expect.objectContaining({
          securityEvent: 'security_key.removed',
          userId: user.id,
          keyId: id,
          reason: 'two_factor_disabled',
        }),
      );
    }
    const notice = await lastMailTo(ctx, user.email);
    expect(notice.subject).toBe('Two-step verification was turned off for your Merit account');
    expect(notice.text).toContain('Your 2 security keys were removed with it');
    expect(Object.keys(await passwordStep(user.username))).toEqual(['key']);

    // On again, the same key can be added anew.
    const setup = await post('/auth/two-factor/setup/', { password: TEST_PASSWORD }, key);
    ctx.clock.advance(30_000);
    const { secret: again } = setup.json<{ secret: string }>();
    expect((await post('/auth/two-factor/confirm/', { code: codeOf(again) }, key)).statusCode).toBe(
      200,
    );
    await addKey(key, blue);
  });

  it('says nothing of keys when there were none', async () => {
    const { user, key, secret } = await enrolled();
    await post('/auth/two-factor/disable/', { password: TEST_PASSWORD, code: codeOf(secret) }, key);
    const notice = await lastMailTo(ctx, user.email);
    expect(notice.subject).toBe('Two-step verification was turned off for your Merit account');
    expect(notice.text).not.toContain('security key');
  });
});

describe('deleting the account', () => {
  it('deletes its keys and requests to keys', async () => {
    const { user, key } = await enrolled();
    await addKey(key, newKey());
    await creationOptions(key);
    const res = await post('/auth/account/delete/', { password: TEST_PASSWORD }, key);
    expect(res.statusCode, res.body).toBe(200);
    for (const table of [securityKeys, securityKeyChallenges]) {
      expect(await ctx.app.db.select().from(table).where(eq(table.userId, user.id))).toEqual([]);
    }
  });
});
