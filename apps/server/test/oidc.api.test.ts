import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIdentities, users } from '../src/db/schema.js';
import { captureSecurityEvents } from './log-capture.js';
import { auth, createTestApp, login, makeUser, type TestContext } from './helpers.js';
import { startTestProvider, type TestAccount, type TestProvider } from './oidc-provider.js';

const PUBLIC_URL = 'http://merit.test';
let provider: TestProvider;
let ctx: TestContext;
/** The security events the app logged, with the request each came from. */
const { stream: logStream, entries: securityEvents } = captureSecurityEvents<{
  reqId: string;
  securityEvent: string;
  [field: string]: unknown;
}>();

beforeAll(async () => {
  provider = await startTestProvider([`${PUBLIC_URL}/api/v1/auth/oidc/callback/`]);
  ctx = await createTestApp({
    logger: { level: 'info', stream: logStream },
    env: {
      PUBLIC_URL,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_ALLOW_HTTP: 'true',
      OIDC_DISPLAY_NAME: 'Test Federation',
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await provider.close();
});

let seq = 0;
function account(overrides: Partial<TestAccount> = {}): TestAccount {
  seq += 1;
  return {
    sub: `subject-${seq}-${Date.now()}`,
    email: `researcher${seq}@uni.example.edu.au`,
    given_name: 'Marie',
    family_name: 'Curie',
    schac_home_organization: 'uni.example.edu.au',
    eduperson_scoped_affiliation: ['member@uni.example.edu.au', 'student@uni.example.edu.au'],
    ...overrides,
  };
}

/** Follows the provider's redirects with a cookie jar until it sends the browser back to Merit. */
async function throughProvider(start: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.startsWith(PUBLIC_URL)) return new URL(url);
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
    const location = res.headers.get('location');
    if (!location)
      throw new Error(`the provider stopped at ${url} with ${res.status}: ${await res.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects');
}

/** Starts a login at Merit and returns the URL the provider sends the browser back to. */
async function providerAnswer(
  who: TestAccount,
  path = '/api/v1/auth/oidc/login/?next=%2Fcalls',
): Promise<URL> {
  provider.loginAs(who);
  const start = await ctx.app.inject({ method: 'GET', url: path });
  expect(start.statusCode, start.body).toBe(302);
  const location = start.headers.location as string;
  const params = new URL(location).searchParams;
  expect(params.get('code_challenge_method')).toBe('S256');
  expect(params.get('state')).toBeTruthy();
  expect(params.get('nonce')).toBeTruthy();
  return throughProvider(location);
}

async function callback(answer: URL) {
  const res = await ctx.app.inject({ method: 'GET', url: `${answer.pathname}${answer.search}` });
  expect(res.statusCode).toBe(302);
  return new URL(res.headers.location as string);
}

const userCount = async () => (await ctx.app.db.select({ n: count() }).from(users))[0]!.n;

describe('federated login', () => {
  it('offers the login with its display name', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/methods/' });
    expect(res.json()).toEqual({
      oidc: { displayName: 'Test Federation', loginUrl: '/api/v1/auth/oidc/login/' },
    });
  });

  it('creates an incomplete account on first login, from the claims, and logs it in through a one-time code', async () => {
    const who = account();
    const back = await callback(await providerAnswer(who));
    expect(back.pathname).toBe('/auth/oidc/complete');
    expect(back.searchParams.get('next')).toBe('/calls');
    const code = back.searchParams.get('code')!;
    expect(code.length).toBeGreaterThan(30);

    const exchange = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/oidc/exchange/',
      payload: { code },
    });
    expect(exchange.statusCode).toBe(200);
    const key = exchange.json().key as string;
    expect(back.toString()).not.toContain(key);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/user_details/',
      headers: auth(key),
    });
    expect(me.json()).toMatchObject({
      email: who.email,
      first_name: 'Marie',
      last_name: 'Curie',
      institution: 'uni.example.edu.au',
      is_student: true,
      is_aaf: true,
      registration_complete: false,
    });

    const replay = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/oidc/exchange/',
      payload: { code },
    });
    expect(replay.statusCode).toBe(400);

    const completed = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/complete_registration/',
      headers: auth(key),
      payload: {
        institution: 'University of Paris',
        gender_choice: 'FEMALE',
        phone_number: '+33 1 0000 0000',
        is_student: false,
      },
    });
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json()).toMatchObject({
      registration_complete: true,
      institution: 'University of Paris',
      is_student: false,
    });
  });

  it('logs the same identity into the same account later, even with a changed email', async () => {
    const who = account();
    await callback(await providerAnswer(who));
    const before = await userCount();
    const back = await callback(await providerAnswer({ ...who, email: `changed-${who.email}` }));
    expect(back.pathname).toBe('/auth/oidc/complete');
    expect(await userCount()).toBe(before);
  });

  it('refuses to take over a local account by its email, and creates nothing', async () => {
    const local = await makeUser(ctx.app);
    const before = await userCount();
    const back = await callback(
      await providerAnswer(account({ email: local.email.toUpperCase() })),
    );
    expect(back.pathname).toBe('/auth/oidc/error');
    expect(back.searchParams.get('reason')).toBe('email-in-use');
    expect(await userCount()).toBe(before);
  });

  it('links a federated login to a logged-in local account', async () => {
    const local = await makeUser(ctx.app);
    const key = await login(ctx.app, local.username);
    const link = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/oidc/link/',
      headers: auth(key),
    });
    expect(link.statusCode).toBe(200);
    const who = account({ email: local.email });
    provider.loginAs(who);
    const back = await callback(await throughProvider(link.json().url));
    expect(back.pathname).toBe('/account/');
    const identities = await ctx.app.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.userId, local.id));
    expect(identities).toHaveLength(1);
    // From now on the federated login opens the local account.
    const next = await callback(await providerAnswer(who));
    const code = next.searchParams.get('code')!;
    const exchange = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/oidc/exchange/',
      payload: { code },
    });
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/user_details/',
      headers: auth(exchange.json().key),
    });
    expect(me.json().id).toBe(local.id);
  });

  it('logs a federated login as a login, with its method, and lists its session as federated', async () => {
    const who = account();
    const back = await callback(await providerAnswer(who));
    const exchange = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/oidc/exchange/',
      headers: {
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
      },
      payload: { code: back.searchParams.get('code') },
    });
    expect(exchange.statusCode).toBe(200);
    const key = exchange.json().key as string;
    const [user] = await ctx.app.db.select().from(users).where(eq(users.email, who.email));
    const reqId = String(exchange.headers['x-request-id']);
    expect(securityEvents.filter((e) => e.reqId === reqId)).toEqual([
      expect.objectContaining({
        securityEvent: 'login.succeeded',
        userId: user!.id,
        method: 'federated',
        level: 30,
      }),
    ]);
    const sessions = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/auth/sessions/',
      headers: auth(key),
    });
    expect(sessions.statusCode).toBe(200);
    expect(sessions.json()).toEqual([
      expect.objectContaining({ method: 'federated', client: 'Firefox on Linux', current: true }),
    ]);
    // A code already traded is refused, and logs no second login.
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/oidc/exchange/',
      payload: { code: back.searchParams.get('code') },
    });
    expect(again.statusCode).toBe(400);
    const againId = String(again.headers['x-request-id']);
    expect(
      securityEvents.filter((e) => e.reqId === againId && e.securityEvent === 'login.succeeded'),
    ).toEqual([]);
  });

  it('refuses an unknown state', async () => {
    const answer = await providerAnswer(account());
    answer.searchParams.set('state', 'not-the-state');
    const back = await callback(answer);
    expect(back.searchParams.get('reason')).toBe('state');
  });

  it('refuses a replayed authorization code', async () => {
    const who = account();
    const first = await providerAnswer(who);
    await callback(first);
    const second = await providerAnswer(who);
    // The second login's state with the first login's (already used) code.
    second.searchParams.set('code', first.searchParams.get('code')!);
    const before = await userCount();
    const back = await callback(second);
    expect(back.searchParams.get('reason')).toBe('token');
    expect(await userCount()).toBe(before);
  });

  it.each([['bad-signature'], ['wrong-audience']] as const)(
    'refuses an ID token with a %s and creates no account',
    async (mode) => {
      const who = account();
      const answer = await providerAnswer(who);
      const before = await userCount();
      provider.tamper(mode);
      try {
        const back = await callback(answer);
        expect(back.pathname).toBe('/auth/oidc/error');
        expect(back.searchParams.get('reason')).toBe('token');
      } finally {
        provider.tamper('none');
      }
      expect(await userCount()).toBe(before);
    },
  );

  it('accepts an ID token that passed through the tampering proxy unchanged', async () => {
    const answer = await providerAnswer(account());
    provider.tamper('resign');
    try {
      expect((await callback(answer)).pathname).toBe('/auth/oidc/complete');
    } finally {
      provider.tamper('none');
    }
  });

  it('checks the complete-registration form', async () => {
    const back = await callback(await providerAnswer(account()));
    const exchange = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/oidc/exchange/',
      payload: { code: back.searchParams.get('code') },
    });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/complete_registration/',
      headers: auth(exchange.json().key),
      payload: { institution: '', gender_choice: 'ROBOT', phone_number: 'nope', is_student: false },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual([
      'gender_choice',
      'institution',
      'phone_number',
    ]);
  });
});

describe('without OIDC_ISSUER', () => {
  it('offers no federated login and answers 404 on its routes', async () => {
    const plain = await createTestApp();
    try {
      expect(
        (await plain.app.inject({ method: 'GET', url: '/api/v1/auth/methods/' })).json(),
      ).toEqual({ oidc: null });
      expect(
        (await plain.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/login/' })).statusCode,
      ).toBe(404);
      expect(
        (
          await plain.app.inject({
            method: 'GET',
            url: '/api/v1/auth/oidc/callback/?state=x&code=y',
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (
          await plain.app.inject({
            method: 'POST',
            url: '/api/v1/auth/oidc/exchange/',
            payload: { code: 'x' },
          })
        ).statusCode,
      ).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
