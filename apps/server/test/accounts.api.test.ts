import { isValidUserHash, messages, validationMessages as v } from '@merit/domain';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.js';
import {
  TEST_PASSWORD,
  auth,
  createTestApp,
  login,
  makeUser,
  solveCaptcha,
  type TestContext,
} from './helpers.js';
import { lastMailTo, outbox } from './mail.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: 'https://merit.example.org' } });
});
afterAll(() => ctx.close());

const DAY = 24 * 60 * 60 * 1000;
let seq = 0;

async function registration(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    username: `newcomer${seq}`,
    email: `newcomer${seq}@example.org`,
    first_name: 'Grace',
    last_name: 'Hopper',
    institution: 'Harvard',
    gender: 'FEMALE',
    phone_number: '+1 555 0100',
    password1: 'a long and unusual passphrase',
    password2: 'a long and unusual passphrase',
    is_student: false,
    captcha: await solveCaptcha(ctx.app),
    ...overrides,
  };
}

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers });
const userCount = async () => (await ctx.app.db.select({ n: count() }).from(users))[0]!.n;

/** The path of the link in the newest mail to `address`, without the site. */
async function linkPath(address: string): Promise<string> {
  const mail = await lastMailTo(ctx, address);
  expect(mail.links).toHaveLength(1);
  expect(mail.links[0]!.startsWith('https://merit.example.org/')).toBe(true);
  return mail.links[0]!.slice('https://merit.example.org'.length);
}
const keyFrom = (path: string) =>
  /^\/auth\/registration\/account-confirm-email\/([^/]+)\/$/.exec(path)![1]!;

/** The uid and token of the reset link mailed to `email`. */
async function resetLink(email: string) {
  await post('/auth/password/reset/', { email });
  const [, uid, token] = /^\/auth\/password-reset\/confirm\/([^/]+)\/([^/]+)$/.exec(
    await linkPath(email),
  )!;
  return { uid: uid!, token: token! };
}

describe('registration and verification', () => {
  it('registers, mails a link, refuses login until the link is followed, then logs in', async () => {
    const body = await registration();
    const res = await post('/auth/registration/', body);
    expect(res.statusCode, res.body).toBe(201);

    const mail = await lastMailTo(ctx, body.email);
    expect(mail.subject).toBe('Confirm your email address for Merit');
    const key = keyFrom(await linkPath(body.email));

    const early = await post('/auth/login/', { username: body.username, password: body.password1 });
    expect(early.statusCode).toBe(400);
    expect(early.json().detail).toBe(messages.emailNotVerified);

    const verified = await post('/auth/registration/verify-email/', { key });
    expect(verified.statusCode).toBe(200);
    const key2 = await login(ctx.app, body.username, body.password1);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/user_details/',
      headers: auth(key2),
    });
    expect(me.json()).toMatchObject({
      first_name: 'Grace',
      gender: 'FEMALE',
      email: body.email,
      is_student: false,
    });

    const again = await post('/auth/registration/verify-email/', { key });
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toBe(messages.verificationFailed);
  });

  it('refuses a verification key after 3 days', async () => {
    const body = await registration();
    await post('/auth/registration/', body);
    const key = keyFrom(await linkPath(body.email));
    ctx.clock.advance(3 * DAY);
    const res = await post('/auth/registration/verify-email/', { key });
    expect(res.statusCode).toBe(404);
  });

  it('mails a new link on request, and answers the same for unknown addresses', async () => {
    const body = await registration();
    await post('/auth/registration/', body);
    const before = (await outbox(ctx)).length;
    const known = await post('/auth/registration/resend-email/', {
      email: body.email.toUpperCase(),
    });
    const unknown = await post('/auth/registration/resend-email/', { email: 'nobody@example.org' });
    expect(known.json()).toEqual(unknown.json());
    expect((await outbox(ctx)).length).toBe(before + 1);
    const key = keyFrom(await linkPath(body.email));
    expect((await post('/auth/registration/verify-email/', { key })).statusCode).toBe(200);
  });

  it.each([
    [
      'the same username in other letters',
      (b: Record<string, unknown>) => ({ username: String(b.username).toUpperCase() }),
      'username',
      v.usernameTaken,
    ],
    [
      'the same email in other letters',
      (b: Record<string, unknown>) => ({ email: String(b.email).toUpperCase() }),
      'email',
      v.emailTaken,
    ],
  ])('refuses %s and creates no account', async (_name, change, field, message) => {
    const first = await registration();
    expect((await post('/auth/registration/', first)).statusCode).toBe(201);
    const before = await userCount();
    const res = await post('/auth/registration/', await registration(change(first)));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toEqual([message]);
    expect(await userCount()).toBe(before);
  });

  it.each([
    ['a restricted character', { first_name: 'Gr<ace' }, 'first_name', v.restricted],
    ['a bad phone number', { phone_number: 'call me' }, 'phone_number', v.phone],
    ['a bad email', { email: 'grace' }, 'email', v.email],
    [
      'a common password',
      { password1: 'password1234', password2: 'password1234' },
      'password1',
      v.passwordCommon,
    ],
    [
      'different passwords',
      { password2: 'something else entirely' },
      'password2',
      v.passwordMismatch,
    ],
    ['a missing gender', { gender: '' }, 'gender', v.required],
  ])('refuses %s with the spec message', async (_name, change, field, message) => {
    const before = await userCount();
    const res = await post('/auth/registration/', await registration(change));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ [field]: [message] });
    expect(await userCount()).toBe(before);
  });
});

describe('the captcha', () => {
  it('refuses a replayed solution', async () => {
    const captcha = await solveCaptcha(ctx.app);
    expect((await post('/auth/registration/', await registration({ captcha }))).statusCode).toBe(
      201,
    );
    const replay = await post('/auth/registration/', await registration({ captcha }));
    expect(replay.statusCode).toBe(400);
    expect(replay.json().fields).toEqual({ captcha: [v.captcha] });
  });

  it('refuses a tampered challenge', async () => {
    const payload = JSON.parse(Buffer.from(await solveCaptcha(ctx.app), 'base64').toString());
    payload.challenge.parameters.data.expires += DAY;
    const captcha = Buffer.from(JSON.stringify(payload)).toString('base64');
    const res = await post('/auth/registration/', await registration({ captcha }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.captcha).toEqual([v.captcha]);
  });

  it('refuses an expired solution and garbage', async () => {
    const captcha = await solveCaptcha(ctx.app);
    ctx.clock.advance(11 * 60 * 1000);
    expect((await post('/auth/registration/', await registration({ captcha }))).statusCode).toBe(
      400,
    );
    const garbage = await post(
      '/auth/registration/',
      await registration({ captcha: 'bm90IGEgcGF5bG9hZA==' }),
    );
    expect(garbage.json().fields.captcha).toEqual([v.captcha]);
  });

  it('is checked first, so a taken username is told only to someone who solved it', async () => {
    const first = await registration();
    expect((await post('/auth/registration/', first)).statusCode).toBe(201);
    const before = await userCount();
    const probe = await post('/auth/registration/', {
      ...(await registration({ username: String(first.username) })),
      captcha: 'bm90IGEgcGF5bG9hZA==',
    });
    expect(probe.statusCode).toBe(400);
    expect(probe.json().fields).toEqual({ captcha: [v.captcha] });
    expect(await userCount()).toBe(before);
  });

  it('is used up by a registration that another field spoils, so each question costs one', async () => {
    const captcha = await solveCaptcha(ctx.app);
    const spoiled = await post(
      '/auth/registration/',
      await registration({ captcha, email: 'bad' }),
    );
    expect(spoiled.json().fields).toEqual({ email: [v.email] });
    const again = await post('/auth/registration/', await registration({ captcha }));
    expect(again.json().fields).toEqual({ captcha: [v.captcha] });
  });
});

describe('password reset', () => {
  it('answers the same for known and unknown addresses, and mails only the known', async () => {
    const user = await makeUser(ctx.app);
    const before = (await outbox(ctx)).length;
    const known = await post('/auth/password/reset/', { email: user.email });
    const unknown = await post('/auth/password/reset/', { email: 'nobody-here@example.org' });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect((await outbox(ctx)).length).toBe(before + 1);
  });

  it('sets the new password once, and logs out every session', async () => {
    const user = await makeUser(ctx.app);
    const session = await login(ctx.app, user.username);
    const link = await resetLink(user.email);
    const body = {
      ...link,
      newPassword1: 'brand new pass phrase',
      newPassword2: 'brand new pass phrase',
    };
    const res = await post('/auth/password/reset/confirm/', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/v1/user_details/',
          headers: auth(session),
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await post('/auth/login/', { username: user.username, password: TEST_PASSWORD })).statusCode,
    ).toBe(400);
    await login(ctx.app, user.username, 'brand new pass phrase');

    const reuse = await post('/auth/password/reset/confirm/', {
      ...body,
      newPassword1: 'another pass phrase',
      newPassword2: 'another pass phrase',
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().fields.token).toHaveLength(1);
  });

  it('refuses an expired link, and a link from before the password changed', async () => {
    const user = await makeUser(ctx.app);
    const stale = await resetLink(user.email);
    const key = await login(ctx.app, user.username);
    const change = await post(
      '/auth/password/change/',
      {
        oldPassword: TEST_PASSWORD,
        newPassword1: 'changed pass phrase',
        newPassword2: 'changed pass phrase',
      },
      auth(key),
    );
    expect(change.statusCode).toBe(200);
    const body = { newPassword1: 'stolen pass phrase', newPassword2: 'stolen pass phrase' };
    expect((await post('/auth/password/reset/confirm/', { ...stale, ...body })).statusCode).toBe(
      400,
    );

    const expiring = await resetLink(user.email);
    ctx.clock.advance(DAY);
    expect((await post('/auth/password/reset/confirm/', { ...expiring, ...body })).statusCode).toBe(
      400,
    );
  });

  it('checks the link before the password, so a bad link reveals nothing about the account', async () => {
    const user = await makeUser(ctx.app);
    const res = await post('/auth/password/reset/confirm/', {
      uid: Buffer.from(String(user.id)).toString('base64url'),
      token: 'not-a-real-token',
      newPassword1: user.username,
      newPassword2: user.username,
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(['token']);
  });

  it('checks the new password like registration does', async () => {
    const user = await makeUser(ctx.app);
    const link = await resetLink(user.email);
    const res = await post('/auth/password/reset/confirm/', {
      ...link,
      newPassword1: 'short',
      newPassword2: 'short',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.newPassword1).toContain(v.passwordTooShort);
  });
});

describe('V2.1.1 a new password has at least 12 characters', () => {
  // The same kinds of characters, so only the length differs.
  const eleven = 'Xy7#qLmz9!R';
  const twelve = 'Xy7#qLmz9!Rt';

  /** Each way a user sets a password: the field that names it, and the request. */
  const setters: [string, string, (password: string) => ReturnType<typeof post>][] = [
    [
      'registration',
      'password1',
      async (password) =>
        post(
          '/auth/registration/',
          await registration({ password1: password, password2: password }),
        ),
    ],
    [
      'the reset link',
      'newPassword1',
      async (password) => {
        const user = await makeUser(ctx.app);
        const link = await resetLink(user.email);
        return post('/auth/password/reset/confirm/', {
          ...link,
          newPassword1: password,
          newPassword2: password,
        });
      },
    ],
    [
      'the password change',
      'newPassword1',
      async (password) => {
        const user = await makeUser(ctx.app);
        const key = await login(ctx.app, user.username);
        return post(
          '/auth/password/change/',
          { oldPassword: TEST_PASSWORD, newPassword1: password, newPassword2: password },
          auth(key),
        );
      },
    ],
  ];

  it.each(setters)('%s refuses 11 characters with the message', async (_name, field, set) => {
    const res = await set(eleven);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      [field]: ['This password is too short. It must contain at least 12 characters.'],
    });
  });

  it.each(setters)('%s takes 12 characters', async (_name, _field, set) => {
    const res = await set(twelve);
    expect([200, 201]).toContain(res.statusCode);
  });

  it('still logs in an account whose password is shorter, set before the rule', async () => {
    const user = await makeUser(ctx.app, { password: 'eight ch' });
    expect(await login(ctx.app, user.username, 'eight ch')).toMatch(/.+/);
  });
});

describe('password change', () => {
  it('needs the right old password', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    const res = await post(
      '/auth/password/change/',
      {
        oldPassword: 'not it',
        newPassword1: 'fresh pass phrase',
        newPassword2: 'fresh pass phrase',
      },
      auth(key),
    );
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(['oldPassword']);
  });

  it('keeps this session and ends the others', async () => {
    const user = await makeUser(ctx.app);
    const here = await login(ctx.app, user.username);
    const elsewhere = await login(ctx.app, user.username);
    const res = await post(
      '/auth/password/change/',
      {
        oldPassword: TEST_PASSWORD,
        newPassword1: 'fresh pass phrase',
        newPassword2: 'fresh pass phrase',
      },
      auth(here),
    );
    expect(res.statusCode).toBe(200);
    const status = async (key: string) =>
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/user_details/', headers: auth(key) }))
        .statusCode;
    expect(await status(here)).toBe(200);
    expect(await status(elsewhere)).toBe(401);
    await login(ctx.app, user.username, 'fresh pass phrase');
  });

  it('tells a federated user there is no password to change', async () => {
    const user = await makeUser(ctx.app, { isAaf: true });
    const key = await login(ctx.app, user.username);
    const res = await post(
      '/auth/password/change/',
      {
        oldPassword: TEST_PASSWORD,
        newPassword1: 'fresh pass phrase',
        newPassword2: 'fresh pass phrase',
      },
      auth(key),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/no Merit password/);
  });
});

describe('PATCH /user_details/', () => {
  const patch = (key: string, payload: object) =>
    ctx.app.inject({ method: 'PATCH', url: '/api/v1/user_details/', headers: auth(key), payload });

  it('saves the editable fields and returns the new details', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    const res = await patch(key, {
      first_name: 'Katherine',
      institution: 'NASA',
      gender_choice: 'FEMALE',
      phone_number: '+1 757 555 0199',
      is_student: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      first_name: 'Katherine',
      institution: 'NASA',
      gender: 'FEMALE',
      phone_number: '+1 757 555 0199',
      is_student: true,
    });
  });

  it('refuses bad values with messages by field and changes nothing', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    const res = await patch(key, {
      first_name: 'Ok',
      phone_number: 'not a phone',
      gender_choice: 'ROBOT',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ phone_number: [v.phone], gender_choice: [v.gender] });
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/user_details/',
      headers: auth(key),
    });
    expect(me.json().first_name).toBe(user.firstName);
  });

  it.each([['is_admin'], ['username'], ['hash'], ['registration_complete'], ['is_aaf']])(
    'does not accept %s',
    async (field) => {
      const user = await makeUser(ctx.app);
      const key = await login(ctx.app, user.username);
      const res = await patch(key, { [field]: true });
      expect(res.statusCode).toBe(400);
      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/user_details/',
        headers: auth(key),
      });
      expect(me.json().is_admin).toBe(false);
    },
  );

  it('changes the email only once the link sent to the new address is followed', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    const res = await patch(key, { email: 'moved@example.org' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: user.email, pending_email: 'moved@example.org' });
    const mail = await lastMailTo(ctx, 'moved@example.org');
    expect(mail.subject).toBe('Confirm your new email address for Merit');
    const confirmKey = keyFrom(await linkPath('moved@example.org'));
    expect((await post('/auth/registration/verify-email/', { key: confirmKey })).statusCode).toBe(
      200,
    );
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/user_details/',
      headers: auth(key),
    });
    expect(me.json()).toMatchObject({ email: 'moved@example.org', pending_email: null });
  });

  it('refuses an email another account uses, and any email change for federated users', async () => {
    const other = await makeUser(ctx.app);
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    expect((await patch(key, { email: other.email.toUpperCase() })).json().fields).toEqual({
      email: [v.emailTaken],
    });
    const aaf = await makeUser(ctx.app, { isAaf: true });
    const aafKey = await login(ctx.app, aaf.username);
    const res = await patch(aafKey, { email: 'elsewhere@example.org' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(['email']);
  });
});

describe('the collaborator hash', () => {
  it('reads the hash and renews it to a new valid one', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    const got = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/user_hash/',
      headers: auth(key),
    });
    expect(got.json()).toEqual({ hash: user.hash });
    const renewed = await post('/user_hash/', {}, auth(key));
    const hash = renewed.json().hash as string;
    expect(hash).not.toBe(user.hash);
    expect(isValidUserHash(hash)).toBe(true);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/user_details/',
      headers: auth(key),
    });
    expect(me.json().hash).toBe(hash);
  });
});
