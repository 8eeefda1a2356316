import {
  checkEmail,
  checkPrivacyConsent,
  hasErrors,
  messages,
  validatePasswordChange,
  validatePasswordReset,
  validateProfile,
  validateRegistration,
  validationMessages,
  type FieldErrors,
} from '@merit/domain';
import type {
  PasswordChangeRequest,
  PasswordResetConfirmRequest,
  RegistrationRequest,
  UserDetailsUpdate,
} from '@merit/contract';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { emailConfirmations, passwordResets, users } from '../../db/schema.js';
import { isCommonPassword } from '../../platform/security/common-passwords.js';
import { isUniqueViolation } from '../../platform/data/db-errors.js';
import { badRequest, notFound } from '../../platform/http/http-errors.js';
import { enqueueMail } from '../../platform/io/mail-job.js';
import { hashPassword, verifyPassword } from '../../platform/security/passwords.js';
import { digestKey, newTokenKey, newUserHash } from '../../platform/security/secrets.js';
import type { AnonymousWork, Work } from '../../platform/data/work.js';
import { revokeUserTokens } from '../auth/tokens.queries.js';
import { queueDetection } from '../conflicts/conflicts.queries.js';
import { createUser, findUserById, type UserRow } from '../users/users.queries.js';
import { accountJobs, emailChangedMail, passwordChangedMail } from './accounts.mails.js';

/** A verification link works for 3 days (issue 3). */
export const EMAIL_CONFIRMATION_TTL_MS = 3 * 24 * 60 * 60 * 1000;
/** A password reset link works for 24 hours. */
export const PASSWORD_RESET_TTL_MS = 24 * 60 * 60 * 1000;

const passwordContext = { isCommon: isCommonPassword };

function refuse(errors: FieldErrors): never {
  throw badRequest(messages.validationFailed, errors, 'validation_error');
}

async function emailTaken(db: Tx, email: string, exceptUserId?: number): Promise<boolean> {
  const conditions = [eq(sql`lower(${users.email})`, email.toLowerCase())];
  if (exceptUserId !== undefined) conditions.push(ne(users.id, exceptUserId));
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(...conditions))
    .limit(1);
  return rows.length > 0;
}

async function usernameTaken(db: Tx, username: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .limit(1);
  return rows.length > 0;
}

/**
 * Checks a registration's fields and uniqueness, and its consent to the privacy notice
 * when the installation sets one; throws 400 with every problem by field.
 */
export async function checkRegistration(
  db: Tx,
  input: RegistrationRequest,
  privacyNoticeSet = false,
): Promise<void> {
  const errors = validateRegistration(input, passwordContext);
  const consent = checkPrivacyConsent(privacyNoticeSet, input.privacy_consent);
  if (consent.length > 0) errors.privacy_consent = consent;
  if (!errors.username && (await usernameTaken(db, input.username.trim()))) {
    errors.username = [validationMessages.usernameTaken];
  }
  if (!errors.email && (await emailTaken(db, input.email.trim()))) {
    errors.email = [validationMessages.emailTaken];
  }
  if (hasErrors(errors)) refuse(errors);
}

/**
 * Creates the account (unverified) and queues its verification mail, in the caller's
 * transaction: the mail goes out only if the account exists, and a mail server that is
 * down delays it instead of failing the registration.
 */
export async function registerUser(
  work: AnonymousWork,
  input: RegistrationRequest,
  privacyNoticeSet: boolean,
  pepper: Uint8Array,
): Promise<void> {
  await checkRegistration(work.tx, input, privacyNoticeSet);
  let user: UserRow;
  try {
    user = await createUser(
      work.tx,
      {
        username: input.username.trim(),
        email: input.email.trim(),
        firstName: input.first_name.trim(),
        lastName: input.last_name.trim(),
        institution: input.institution.trim(),
        gender: input.gender,
        phoneNumber: input.phone_number.trim(),
        isStudent: input.is_student ?? false,
        emailVerified: false,
        registrationComplete: true,
        password: input.password1,
        privacyConsentAt: privacyNoticeSet ? work.now : null,
      },
      pepper,
    );
  } catch (error) {
    // Someone registered the same name or address between the check and the insert.
    if (isUniqueViolation(error)) refuse({ username: [validationMessages.usernameTaken] });
    throw error;
  }
  await startEmailConfirmation(work, user.id, user.email, false);
}

/** Makes a single-use confirmation key for `email` and returns it (only its digest is stored). */
/**
 * Starts confirming `email` for the user, in the caller's transaction, and queues the
 * mail that carries the link. The row exists at once (the account shows the address as
 * pending); its key is made by the mail job when it sends (`issueConfirmationKey`), so no
 * live key is ever stored, not even in the job table.
 */
export async function startEmailConfirmation(
  work: AnonymousWork,
  userId: number,
  email: string,
  change: boolean,
): Promise<void> {
  const confirmationId = await createEmailConfirmation(work.tx, userId, email, work.now);
  await work.enqueue(accountJobs.verificationMail, { confirmationId, change });
}

/** An open confirmation of `email` whose key nobody knows yet (see `issueConfirmationKey`). */
export async function createEmailConfirmation(db: Tx, userId: number, email: string, now: Date) {
  const [row] = await db
    .insert(emailConfirmations)
    .values({
      userId,
      email,
      // A digest of a key nobody will ever know, until the mail job replaces it.
      keyHash: digestKey(newTokenKey()),
      createdAt: now,
      expiresAt: new Date(now.getTime() + EMAIL_CONFIRMATION_TTL_MS),
    })
    .returning({ id: emailConfirmations.id });
  return row!.id;
}

/**
 * A fresh key for a confirmation that is still open, for the mail about to be sent; a
 * resend or a retried mail makes the earlier link stop working. Null when the
 * confirmation was used or expired meanwhile.
 */
export async function issueConfirmationKey(db: Tx, confirmationId: number, now: Date) {
  const key = newTokenKey();
  const [row] = await db
    .update(emailConfirmations)
    .set({ keyHash: digestKey(key) })
    .where(
      and(
        eq(emailConfirmations.id, confirmationId),
        isNull(emailConfirmations.usedAt),
        gt(emailConfirmations.expiresAt, now),
      ),
    )
    .returning();
  return row ? { key, userId: row.userId, email: row.email } : null;
}

/**
 * Follows a confirmation link: verifies a new account's address, or makes a pending
 * email change take effect. A key works once and for 3 days; anything else is a 404.
 */
export async function confirmEmail(
  work: AnonymousWork,
  key: string,
  publicUrl: string,
): Promise<{ userId: number; changed: boolean }> {
  const { tx, now } = work;
  {
    const [row] = await tx
      .update(emailConfirmations)
      .set({ usedAt: now })
      .where(
        and(
          eq(emailConfirmations.keyHash, digestKey(key)),
          isNull(emailConfirmations.usedAt),
          gt(emailConfirmations.expiresAt, now),
        ),
      )
      .returning();
    if (!row) throw notFound(messages.verificationFailed);
    const user = await findUserById(tx, row.userId);
    if (!user) throw notFound(messages.verificationFailed);
    const changes: Partial<typeof users.$inferInsert> = { emailVerified: true, updatedAt: now };
    const changed = row.email.toLowerCase() !== user.email.toLowerCase();
    if (changed) {
      if (await emailTaken(tx, row.email, user.id)) throw notFound(messages.verificationFailed);
      changes.email = row.email;
    }
    await tx.update(users).set(changes).where(eq(users.id, user.id));
    if (changed) {
      // Both addresses hear of it once the change has committed (ASVS V2.2.3).
      const link = `${publicUrl}/account/`;
      for (const to of [user.email, row.email]) {
        await enqueueMail(work, emailChangedMail(to, nameOf(user), user.email, row.email, link));
      }
      // Merit matches mail domains for conflicts of interest: look again where they are.
      await queueDetection(work, { userId: user.id });
    }
    return { userId: user.id, changed };
  }
}

/** How the account mails greet their reader. */
const nameOf = (user: UserRow) => user.firstName || user.username;

/** The notice of a new password, queued in the change's transaction: sent once it commits. */
function noticePasswordChange(
  work: Pick<AnonymousWork, 'enqueue'>,
  user: UserRow,
  publicUrl: string,
  how: 'change' | 'reset',
) {
  return enqueueMail(
    work,
    passwordChangedMail(user.email, nameOf(user), `${publicUrl}/auth/password-reset/`, how),
  );
}

/**
 * Applies an account edit. Returns the new email when an email change was asked for:
 * the address changes only once its confirmation link is followed.
 */
export async function updateAccount(work: Work, user: UserRow, input: UserDetailsUpdate) {
  const { tx: db, now } = work;
  const merged = {
    first_name: input.first_name ?? user.firstName,
    last_name: input.last_name ?? user.lastName,
    institution: input.institution ?? user.institution,
    gender: input.gender_choice ?? user.gender,
    phone_number: input.phone_number ?? user.phoneNumber,
  };
  // A partial edit is checked on the fields it sends: an account made before a field
  // was required can still change one thing without filling in everything else.
  const sent = new Set(Object.keys(input));
  const errors = Object.fromEntries(
    Object.entries(validateProfile(merged, {}, 'gender_choice')).filter(([field]) =>
      sent.has(field),
    ),
  ) as FieldErrors;
  let newEmail: string | null = null;
  if (input.email !== undefined && input.email.trim().toLowerCase() !== user.email.toLowerCase()) {
    if (user.isAaf) {
      errors.email = [
        'The email address of an account that logs in through your institution cannot be changed here.',
      ];
    } else {
      const problems = checkEmail(input.email.trim());
      if (problems.length > 0) errors.email = problems;
      else if (await emailTaken(db, input.email.trim(), user.id))
        errors.email = [validationMessages.emailTaken];
      else newEmail = input.email.trim();
    }
  }
  if (hasErrors(errors)) refuse(errors);
  await db
    .update(users)
    .set({
      firstName: merged.first_name.trim(),
      lastName: merged.last_name.trim(),
      institution: merged.institution.trim(),
      gender: merged.gender,
      phoneNumber: merged.phone_number.trim(),
      isStudent: input.is_student ?? user.isStudent,
      updatedAt: now,
    })
    .where(eq(users.id, user.id));
  // The address changes only once the link in this mail is followed.
  if (newEmail) await startEmailConfirmation(work, user.id, newEmail, true);
  // Merit matches institutions for conflicts of interest: look again where they are.
  if (merged.institution.trim() !== user.institution)
    await queueDetection(work, { userId: user.id });
  return newEmail;
}

/** A new collaborator hash; 57^10 possible hashes make a clash rare, and one is retried. */
export async function renewUserHash({ tx, actor, now }: Work): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const hash = newUserHash();
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.hash, hash));
    if (taken && attempt < 5) continue;
    await tx.update(users).set({ hash, updatedAt: now }).where(eq(users.id, actor.id));
    return hash;
  }
}

/** Django's uidb64: the user id, base64url-encoded. */
export const encodeUid = (id: number) => Buffer.from(String(id)).toString('base64url');
export function decodeUid(uid: string): number | null {
  const text = Buffer.from(uid, 'base64url').toString();
  return /^\d{1,10}$/.test(text) ? Number(text) : null;
}

export async function createPasswordReset(db: Tx, userId: number, now: Date): Promise<string> {
  const token = newTokenKey();
  await db.insert(passwordResets).values({
    userId,
    tokenHash: digestKey(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_MS),
  });
  return token;
}

const INVALID_RESET_LINK =
  'This password reset link is invalid, has expired or has already been used. Please ask for a new one.';

/** Sets a new password from a reset link; the link dies, and so do all the user's tokens and other links. */
export async function confirmPasswordReset(
  work: AnonymousWork,
  input: PasswordResetConfirmRequest,
  publicUrl: string,
  pepper: Uint8Array,
): Promise<number> {
  const { tx: db, now } = work;
  const userId = decodeUid(input.uid);
  const user = userId === null ? undefined : await findUserById(db, userId);
  const live = and(
    eq(passwordResets.tokenHash, digestKey(input.token)),
    eq(passwordResets.userId, userId ?? -1),
    isNull(passwordResets.usedAt),
    gt(passwordResets.expiresAt, now),
  );
  // The link is checked before the password, so nothing about the account (such as how
  // close a guess is to its username) is told to someone without a valid link.
  const [link] = await db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(live)
    .limit(1);
  if (!link || !user || !user.isActive || user.isAaf) {
    throw badRequest(INVALID_RESET_LINK, { token: [INVALID_RESET_LINK] });
  }
  const errors = validatePasswordReset(input, { ...passwordContext, username: user.username });
  if (hasErrors(errors)) refuse(errors);
  const [used] = await db.update(passwordResets).set({ usedAt: now }).where(live).returning();
  // Used by a concurrent request between the check and here.
  if (!used) throw badRequest(INVALID_RESET_LINK, { token: [INVALID_RESET_LINK] });
  await setPassword(db, user.id, input.newPassword1, now, pepper);
  await revokeUserTokens(db, user.id, now);
  await noticePasswordChange(work, user, publicUrl, 'reset');
  return user.id;
}

/** Stores a new password and kills every outstanding reset link of the user. */
async function setPassword(
  db: Tx,
  userId: number,
  password: string,
  now: Date,
  pepper: Uint8Array,
): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(password, pepper), updatedAt: now })
    .where(eq(users.id, userId));
  await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** Changes the password after checking the old one; other sessions are logged out, this one stays. */
export async function changePassword(
  work: Work,
  user: UserRow,
  currentTokenId: number,
  input: PasswordChangeRequest,
  publicUrl: string,
  pepper: Uint8Array,
): Promise<void> {
  const { tx: db, now } = work;
  if (user.isAaf || user.passwordHash === null) {
    throw badRequest(
      'Your account logs in through your institution and has no Merit password to change.',
    );
  }
  const errors = validatePasswordChange(input, { ...passwordContext, username: user.username });
  if (
    !errors.oldPassword &&
    !(await verifyPassword(user.passwordHash, input.oldPassword, pepper))
  ) {
    errors.oldPassword = ['Your old password was entered incorrectly. Please enter it again.'];
  }
  if (hasErrors(errors)) refuse(errors);
  await setPassword(db, user.id, input.newPassword1, now, pepper);
  await revokeUserTokens(db, user.id, now, currentTokenId);
  await noticePasswordChange(work, user, publicUrl, 'change');
}
