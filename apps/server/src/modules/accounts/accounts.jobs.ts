import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import type { App } from '../../platform/http/app-types.js';
import { findUserById, type UserRow } from '../users/users.queries.js';
import {
  accountJobs,
  federatedResetMail,
  passwordResetMail,
  verificationMail,
} from './accounts.mails.js';
import {
  createEmailConfirmation,
  createPasswordReset,
  encodeUid,
  issueConfirmationKey,
} from './accounts.service.js';

async function activeUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(
      and(eq(sql`lower(${users.email})`, email.trim().toLowerCase()), eq(users.isActive, true)),
    )
    .limit(1);
  return user;
}

/**
 * The keys in these mails are made here, when the mail is sent, so only their digests
 * are ever stored and the job table never holds a live link. The requests that queue
 * the reset and resend jobs do the same work whether or not the address belongs to
 * anyone: looking it up happens here, out of their sight and their timing.
 */
export function registerAccountJobs(app: App): void {
  const link = (path: string) => `${app.config.publicUrl}${path}`;
  const nameOf = (user: UserRow) => user.firstName || user.username;

  const sendConfirmation = async (db: Db, confirmationId: number, change: boolean, now: Date) => {
    const issued = await issueConfirmationKey(db, confirmationId, now);
    const user = issued && (await findUserById(db, issued.userId));
    if (!issued || !user) return;
    await app.mailer.send(
      verificationMail(
        issued.email,
        nameOf(user),
        link(`/auth/registration/account-confirm-email/${issued.key}/`),
        change,
      ),
    );
  };

  app.jobs.handle<{ confirmationId: number; change: boolean }>(
    accountJobs.verificationMail,
    ({ confirmationId, change }, { db, now }) => sendConfirmation(db, confirmationId, change, now),
  );

  app.jobs.handle<{ email: string }>(
    accountJobs.resendVerification,
    async ({ email }, { db, now }) => {
      const user = await activeUserByEmail(db, email);
      if (!user || user.emailVerified) return;
      const confirmationId = await createEmailConfirmation(db, user.id, user.email, now);
      await sendConfirmation(db, confirmationId, false, now);
    },
  );

  app.jobs.handle<{ email: string }>(accountJobs.passwordReset, async ({ email }, { db, now }) => {
    const user = await activeUserByEmail(db, email);
    if (!user) return;
    if (user.isAaf || user.passwordHash === null) {
      await app.mailer.send(federatedResetMail(user.email, nameOf(user), link('/auth/login')));
      return;
    }
    const token = await createPasswordReset(db, user.id, now);
    await app.mailer.send(
      passwordResetMail(
        user.email,
        nameOf(user),
        link(`/auth/password-reset/confirm/${encodeUid(user.id)}/${token}`),
      ),
    );
  });
}
