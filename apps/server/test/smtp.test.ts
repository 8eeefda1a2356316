import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema.js';
import { retryDelayMs } from '../src/platform/data/jobs.js';
import { createTestApp, makeUser, solveCaptcha, type TestContext } from './helpers.js';
import { parseMail, type ReadMail } from './mail.js';

// A real SMTP server on loopback: Merit's mail goes out over SMTP when SMTP_URL is set.
const received: ReadMail[] = [];
/** While set, the server answers every message with a temporary failure. */
let refusing = false;
let smtp: SMTPServer;
let ctx: TestContext;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      if (refusing) {
        stream.resume();
        stream.on('end', () =>
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 })),
        );
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        void parseMail(Buffer.concat(chunks)).then((mail) => {
          received.push(mail);
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as { port: number };
  ctx = await createTestApp({
    env: {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Merit <merit@example.org>',
      PUBLIC_URL: 'https://merit.example.org',
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
  refusing = false;
});

describe('mail over SMTP', () => {
  it('delivers the password reset mail with its link', async () => {
    const user = await makeUser(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password/reset/',
      payload: { email: user.email },
    });
    expect(res.statusCode).toBe(200);
    await ctx.app.jobs.drain();
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.to).toBe(user.email);
    expect(mail!.subject).toBe('Reset your Merit password');
    expect(mail!.links[0]).toMatch(
      /^https:\/\/merit\.example\.org\/auth\/password-reset\/confirm\/[^/]+\/[^/]+$/,
    );
  });

  it('never fails a request when the mail server refuses, and sends the mail once it is back', async () => {
    refusing = true;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/registration/',
      payload: {
        username: 'smtp_down',
        email: 'smtp_down@example.org',
        first_name: 'Ada',
        last_name: 'Lovelace',
        institution: 'Analytical Engines',
        gender: 'FEMALE',
        phone_number: '+44 20 7946 0000',
        password1: 'a long and unusual passphrase',
        password2: 'a long and unusual passphrase',
        is_student: false,
        captcha: await solveCaptcha(ctx.app),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    await ctx.app.jobs.drain();
    expect(received).toHaveLength(0);
    const [waiting] = await ctx.app.db.select().from(jobs);
    expect(waiting).toMatchObject({ attempts: 1, failedAt: null });
    expect(waiting!.lastError).toMatch(/Try again later/);
    expect(waiting!.runAt.getTime()).toBe(ctx.clock.now().getTime() + retryDelayMs(1));

    // Not yet due: nothing is tried before the wait is over.
    refusing = false;
    await ctx.app.jobs.drain();
    expect(received).toHaveLength(0);

    ctx.clock.advance(retryDelayMs(1));
    await ctx.app.jobs.drain();
    expect(received.map((mail) => [mail.to, mail.subject])).toEqual([
      ['smtp_down@example.org', 'Confirm your email address for Merit'],
    ]);
    expect(await ctx.app.db.select().from(jobs).where(eq(jobs.id, waiting!.id))).toEqual([]);
  });
});
