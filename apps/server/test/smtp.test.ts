import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from './helpers.js';
import { parseMail, type ReadMail } from './mail.js';

// A real SMTP server on loopback: Merit's mail goes out over SMTP when SMTP_URL is set.
const received: ReadMail[] = [];
let smtp: SMTPServer;
let ctx: TestContext;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
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

describe('mail over SMTP', () => {
  it('delivers the password reset mail with its link', async () => {
    const user = await makeUser(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password/reset/',
      payload: { email: user.email },
    });
    expect(res.statusCode).toBe(200);
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.to).toBe(user.email);
    expect(mail!.subject).toBe('Reset your Merit password');
    expect(mail!.links[0]).toMatch(
      /^https:\/\/merit\.example\.org\/auth\/password-reset\/confirm\/[^/]+\/[^/]+$/,
    );
  });
});
