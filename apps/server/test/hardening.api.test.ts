import { connect } from 'node:net';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { committeeRoles, extensions, jobs, passwordResets } from '../src/db/schema.js';
import { saveCall } from '../src/modules/calls/calls.service.js';
import { captureLog } from './log-capture.js';
import { callPayload, makeCallForms } from './call-fixtures.js';
import {
  auth,
  createTestApp,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';
import { outbox } from './mail.js';

/** Every log line the app writes, as parsed JSON, to look for secrets in. */
const { stream: logStream, entries: logLines } = captureLog();

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof makeUser>>;
let adminHeaders: Record<string, string>;

beforeAll(async () => {
  ctx = await createTestApp({
    env: { PUBLIC_URL: 'https://merit.example.org' },
    logger: { level: 'trace', stream: logStream },
  });
  admin = await makeUser(ctx.app, { isAdmin: true });
  adminHeaders = auth(await login(ctx.app, admin.username));
});
afterAll(() => ctx.close());

const api = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  headers = adminHeaders,
) =>
  ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const envelope = { detail: expect.any(String), code: expect.any(String) };

describe("Fastify's own refusals", () => {
  it('413 says the limit of the address it was sent to', async () => {
    const res = await api('POST', '/auth/login/', {
      username: 'x'.repeat(1024 * 1024),
      password: 'y',
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      code: 'payload_too_large',
      detail: 'The request is larger than this address accepts (at most 1 MB).',
    });
  });

  it('lets a call description hold three 400 KB images, and names its own larger limit', async () => {
    const committee = await makeCommittee(ctx.app);
    const forms = await makeCallForms(ctx.app);
    const image = `<img src="data:image/png;base64,${'A'.repeat(400 * 1024)}">`;
    const description = `<p>Three figures</p>${image}${image}${image}`;
    const res = await api(
      'POST',
      '/new_call/',
      callPayload(committee.id, forms, ctx.clock.now(), { description }),
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    expect(res.json().description.length).toBeGreaterThan(1_200_000);

    const tooLarge = await api(
      'POST',
      '/new_call/',
      callPayload(committee.id, forms, ctx.clock.now(), {
        description: 'x'.repeat(17 * 1024 * 1024),
      }),
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().detail).toBe(
      'The request is larger than this address accepts (at most 16 MB).',
    );
  });

  it('415 and malformed JSON come in the envelope, before and after authentication', async () => {
    for (const headers of [{}, adminHeaders]) {
      const xml = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login/',
        headers: { ...headers, 'content-type': 'application/xml' },
        payload: '<login/>',
      });
      expect(xml.statusCode).toBe(415);
      expect(xml.json()).toEqual({
        code: 'unsupported_media_type',
        detail: 'Send the request body as JSON, with Content-Type: application/json.',
      });
      const broken = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login/',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '{"username": ',
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual({
        code: 'bad_request',
        detail: 'The request body is not valid JSON.',
      });
    }
  });

  it('414 does not echo the path back', async () => {
    const long = '1'.repeat(500);
    const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/calls/${long}/` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ code: 'uri_too_long', detail: 'The address is too long.' });
    expect(res.body).not.toContain(long);
  });

  it('431 and a malformed request line come in the envelope, from the HTTP parser itself', async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        let answer = '';
        socket.on('data', (data) => (answer += data.toString()));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
        socket.write(request);
      });
    const tooLarge = await raw(
      `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(tooLarge.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(JSON.parse(tooLarge.split('\r\n\r\n')[1]!)).toEqual({
      code: 'headers_too_large',
      detail: 'The request headers (or its address) are too large.',
    });
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(garbage.split('\r\n\r\n')[1]!)).toEqual({
      code: 'bad_request',
      detail: 'The request is not valid HTTP.',
    });
  });

  it('a DELETE at a non-canonical id deletes nothing', async () => {
    const user = await makeUser(ctx.app);
    const committee = await makeCommittee(ctx.app);
    const created = await api('POST', `/roles/${user.id}/`, {
      committeeId: committee.id,
      role: 'MEMBER',
      commencement: '2026-01-01',
      termination: '2026-12-31',
    });
    const { id } = created.json() as { id: number };
    for (const alias of [
      `%20${id}`,
      `${id}e0`,
      `0x${id.toString(16)}`,
      `+${id}`,
      `${id}.0`,
      `0${id}`,
    ]) {
      const res = await api('DELETE', `/roles/${alias}/`);
      expect(res.statusCode, alias).toBe(404);
      expect(res.json()).toEqual(envelope);
    }
    const [left] = await ctx.app.db
      .select({ n: count() })
      .from(committeeRoles)
      .where(eq(committeeRoles.id, id));
    expect(left!.n).toBe(1);
  });
});

describe('API answers are not kept by browsers or proxies', () => {
  it('sends Cache-Control: no-store with tokens and personal data', async () => {
    const user = await makeUser(ctx.app);
    const loggedIn = await api(
      'POST',
      '/auth/login/',
      {
        username: user.username,
        password: 'correct horse battery staple',
      },
      {},
    );
    expect(loggedIn.statusCode).toBe(200);
    expect(loggedIn.headers['cache-control']).toBe('no-store');
    const details = await api('GET', '/user_details/');
    expect(details.headers['cache-control']).toBe('no-store');
    const refused = await api('GET', '/user_details/', undefined, {});
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });
});

describe('same-shaped duplicates', () => {
  it('grants one role of 50 identical grants sent at once, and says why the others failed', async () => {
    const user = await makeUser(ctx.app);
    const committee = await makeCommittee(ctx.app);
    const grant = {
      committeeId: committee.id,
      role: 'MEMBER',
      commencement: '2026-01-01',
      termination: '2026-12-31',
    };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api('POST', `/roles/${user.id}/`, grant)),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const refused of answers.filter((r) => r.statusCode !== 201)) {
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fields).toEqual({
        commencement: [
          'This user already has a role on this committee during these dates. Change that role instead of adding another.',
        ],
      });
    }
    // A later, separate period on the same committee is fine; an overlapping edit is not.
    const later = await api('POST', `/roles/${user.id}/`, {
      ...grant,
      commencement: '2027-01-01',
      termination: '2027-12-31',
    });
    expect(later.statusCode).toBe(201);
    const stretch = await api('PATCH', `/roles/${user.id}/`, {
      ...grant,
      id: later.json().id,
      commencement: '2026-06-01',
    });
    expect(stretch.statusCode).toBe(400);
    const rows = await ctx.app.db
      .select({ n: count() })
      .from(committeeRoles)
      .where(eq(committeeRoles.userId, user.id));
    expect(rows[0]!.n).toBe(2);
  });

  it('gives one extension of 50 identical ones sent at once', async () => {
    const committee = await makeCommittee(ctx.app);
    const forms = await makeCallForms(ctx.app);
    const callId = await ctx.app.writeAs(admin, (work) =>
      saveCall(work, callPayload(committee.id, forms, ctx.clock.now())),
    );
    const person = await makeUser(ctx.app);
    const extension = {
      callId,
      user: person.id,
      commencement: '2026-06-10T00:00:00Z',
      termination: '2026-06-12T00:00:00Z',
      reason: 'Illness',
    };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api('POST', '/new_extension/', extension)),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(new Set(answers.filter((r) => r.statusCode !== 201).map((r) => r.body))).toEqual(
      new Set([
        JSON.stringify({
          detail: 'The request is not valid. Check the highlighted fields.',
          code: 'validation_error',
          fields: {
            commencement: [
              'This person already has an extension to this call that overlaps these dates. Change the dates, or delete that extension first.',
            ],
          },
        }),
      ]),
    );
    // One that starts as the first ends does not overlap it.
    const next = await api('POST', '/new_extension/', {
      ...extension,
      commencement: '2026-06-12T00:00:00Z',
      termination: '2026-06-13T00:00:00Z',
    });
    expect(next.statusCode).toBe(201);
    const rows = await ctx.app.db
      .select({ n: count() })
      .from(extensions)
      .where(and(eq(extensions.callId, callId), eq(extensions.userId, person.id)));
    expect(rows[0]!.n).toBe(2);
  });
});

describe('looking up users (chairs picking someone for an extension)', () => {
  it('asks for 3 characters and gives names and usernames, an email only for an exact address', async () => {
    const person = await makeUser(ctx.app, {
      username: 'lookup_person',
      firstName: 'Rosalind',
      lastName: 'Franklin',
      email: 'rosalind@example.org',
    });
    await makeUser(ctx.app, { username: 'lookup_gone', firstName: 'Rosalind', isActive: false });

    const short = await api('GET', '/users/lookup/?q=ro');
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toEqual({
      q: ['Type at least 3 characters of a name or username, or a whole email address.'],
    });

    const byName = await api('GET', '/users/lookup/?q=rosal');
    expect(byName.json()).toEqual([
      { id: person.id, name: 'Rosalind Franklin', username: 'lookup_person', email: null },
    ]);
    // Part of an address finds nobody and shows no address.
    expect((await api('GET', '/users/lookup/?q=example.org')).json()).toEqual([]);
    expect((await api('GET', '/users/lookup/?q=ROSALIND@EXAMPLE.ORG')).json()).toEqual([
      {
        id: person.id,
        name: 'Rosalind Franklin',
        username: 'lookup_person',
        email: 'rosalind@example.org',
      },
    ]);
  });
});

describe('completing a federated registration', () => {
  it('refuses to change an account whose registration is already complete', async () => {
    const user = await makeUser(ctx.app, { institution: 'Before' });
    const headers = auth(await login(ctx.app, user.username));
    const res = await api(
      'POST',
      '/auth/complete_registration/',
      { institution: 'After', gender_choice: 'OTHER', phone_number: '+61 1', is_student: true },
      headers,
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(
      'Your registration is already complete. Change your details from My Account.',
    );
    expect((await api('GET', '/user_details/', undefined, headers)).json().institution).toBe(
      'Before',
    );
  });
});

describe('password reset and mail', () => {
  it('does the same work for known and unknown addresses: one job, no reset link yet', async () => {
    const user = await makeUser(ctx.app);
    await ctx.app.jobs.drain();
    // Held, so what each request did can be looked at before the jobs run.
    await ctx.app.jobs.stop();
    const jobsBefore = (await ctx.app.db.select({ n: count() }).from(jobs))[0]!.n;
    const answers = [];
    for (const email of [user.email, 'nobody-at-all@example.org']) {
      const res = await api('POST', '/auth/password/reset/', { email }, {});
      answers.push(res.json());
      // The request only queued the work; the lookup and the link come later, in the job.
      expect((await ctx.app.db.select({ n: count() }).from(jobs))[0]!.n).toBe(
        jobsBefore + answers.length,
      );
      expect(
        await ctx.app.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id)),
      ).toEqual([]);
    }
    expect(answers[0]).toEqual(answers[1]);
    ctx.app.jobs.start();
    const mails = await outbox(ctx);
    expect(mails.filter((m) => m.subject === 'Reset your Merit password').map((m) => m.to)).toEqual(
      [user.email],
    );
    expect((await ctx.app.db.select({ n: count() }).from(jobs))[0]!.n).toBe(jobsBefore);
  });

  it('never writes a live link or token to the log, only the outbox file name', async () => {
    const user = await makeUser(ctx.app);
    await api('POST', '/auth/password/reset/', { email: user.email }, {});
    const mail = (await outbox(ctx)).filter((m) => m.to === user.email).at(-1)!;
    const link = mail.links[0]!;
    const token = link.split('/').at(-1)!;
    const text = logLines.map((line) => JSON.stringify(line)).join('\n');
    expect(text).not.toContain(token);
    expect(text).not.toContain('https://merit.example.org/auth');
    expect(
      logLines.some(
        (line) => line.msg === 'mail written to the outbox' && String(line.file).endsWith('.eml'),
      ),
    ).toBe(true);
  });
});
