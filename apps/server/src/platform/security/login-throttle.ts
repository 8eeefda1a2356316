import { errorCodes } from '@merit/contract';
import { validationMessages } from '@merit/domain';
import { eq, inArray, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { loginThrottle } from '../../db/schema.js';
import type { Captcha } from './captcha-store.js';
import { badRequest } from '../http/http-errors.js';
import { AUTH_WINDOW_MS, tooManyRequests } from './rate-limit.js';

/**
 * The login limits, as the manual's "Login protection" section explains them. Each
 * counts the attempts of a window that starts with its first attempt.
 *
 * A single limit per username would let anyone lock anyone out with a few wrong
 * passwords. So the limit every address shares only asks for a captcha, which the real
 * user can solve; only the address that keeps guessing is made to wait.
 */
export const LOGIN_LIMITS = {
  windowMs: AUTH_WINDOW_MS,
  /** Attempts for one username, from any address, before each further one needs a solved captcha. */
  attemptsWithoutCaptcha: 3,
  /** Attempts for one username from one client address before that address must wait. */
  attemptsPerAddress: 5,
} as const;

export const loginThrottleMessages = {
  captchaRequired:
    'There have been several attempts to log in to this account. Please confirm you are not a robot, then log in again.',
  /** Expired, already used or forged: the same words as registration's. */
  captchaInvalid: validationMessages.captcha,
} as const;

export interface LoginAttempt {
  username: string;
  /**
   * The client as the per-address limits count it (`clientKey`: an IPv4 address or an
   * IPv6 /64; behind a trusted proxy, from X-Forwarded-For).
   */
  address: string;
  /** A solved captcha, needed once the username has had its attempts without one. */
  captcha?: string | undefined;
}

// Usernames match whatever their case. The address goes last and holds no space, so no
// two (username, address) pairs share a bucket whatever characters a username holds.
const usernameBucket = (attempt: LoginAttempt) => `user:${attempt.username.toLowerCase()}`;
const addressBucket = (attempt: LoginAttempt) =>
  `pair:${attempt.username.toLowerCase()} ${attempt.address}`;

/**
 * Counts a login attempt and lets it on to the password check, or refuses it: 429 when
 * this address has had its attempts for this username, 400 `captcha_required` when the
 * username has had its attempts without a captcha and none (or a used one) came along.
 *
 * Each count is raised in the same statement that reads it, before any password is
 * checked, so no number of parallel requests, on any number of app processes, gets more
 * password checks than the limits allow. Unknown usernames are counted like known ones.
 */
export async function admitLoginAttempt(
  db: Tx,
  captcha: Captcha,
  attempt: LoginAttempt,
  now: Date,
): Promise<void> {
  // A look first, so that a person whose address must wait is told so before solving a
  // captcha that would be wasted; the count further down is what enforces the limit.
  const [pair] = await db
    .select()
    .from(loginThrottle)
    .where(eq(loginThrottle.bucket, addressBucket(attempt)));
  if (
    pair &&
    pair.count >= LOGIN_LIMITS.attemptsPerAddress &&
    windowEnd(pair.windowStart) > now.getTime()
  ) {
    throw addressMustWait(pair.windowStart, now);
  }

  const perUsername = await countAttempt(db, usernameBucket(attempt), now);
  if (perUsername.count > LOGIN_LIMITS.attemptsWithoutCaptcha) {
    if (!attempt.captcha) {
      throw badRequest(
        loginThrottleMessages.captchaRequired,
        undefined,
        errorCodes.captchaRequired,
      );
    }
    if (!(await captcha.verify(attempt.captcha, now))) {
      throw badRequest(loginThrottleMessages.captchaInvalid, undefined, errorCodes.captchaRequired);
    }
  }

  // Attempts refused above for want of a captcha do not count for the address: they cost
  // the sender nothing and check no password, and counting them would let anyone who
  // shares the real user's address (a campus or office network) make it wait at no
  // cost. Nor do they skip anything: they raised the username's count, which keeps the
  // captcha required from every address.
  const perAddress = await countAttempt(db, addressBucket(attempt), now);
  if (perAddress.count > LOGIN_LIMITS.attemptsPerAddress) {
    throw addressMustWait(perAddress.windowStart, now);
  }
}

/**
 * Counts the second step of a login (a two-step verification code) as an attempt of the
 * same username from the same address, and refuses it with 429 once the address has had
 * its attempts. No captcha here: the password step asked for one when it was due, and the
 * raised username count makes the next password step ask for one.
 */
export async function admitSecondStepAttempt(
  db: Tx,
  attempt: LoginAttempt,
  now: Date,
): Promise<void> {
  await countAttempt(db, usernameBucket(attempt), now);
  const perAddress = await countAttempt(db, addressBucket(attempt), now);
  if (perAddress.count > LOGIN_LIMITS.attemptsPerAddress) {
    throw addressMustWait(perAddress.windowStart, now);
  }
}

/** After a successful login: the username and this address start again from nothing. */
export async function clearLoginAttempts(db: Tx, attempt: LoginAttempt): Promise<void> {
  await db
    .delete(loginThrottle)
    .where(inArray(loginThrottle.bucket, [usernameBucket(attempt), addressBucket(attempt)]));
}

const windowEnd = (windowStart: Date) => windowStart.getTime() + LOGIN_LIMITS.windowMs;

/**
 * Adds one attempt to `bucket` and returns its count in the current window: a window
 * that has ended starts again at 1, now. The insert-or-update reads and raises the
 * count in one statement, so concurrent attempts each see a different count.
 */
async function countAttempt(
  db: Tx,
  bucket: string,
  now: Date,
): Promise<{ count: number; windowStart: Date }> {
  const cutoff = new Date(now.getTime() - LOGIN_LIMITS.windowMs);
  const ended = lte(loginThrottle.windowStart, cutoff);
  const [row] = await db
    .insert(loginThrottle)
    .values({ bucket, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: loginThrottle.bucket,
      set: {
        count: sql`case when ${ended} then 1 else ${loginThrottle.count} + 1 end`,
        windowStart: sql`case when ${ended} then excluded.window_start else ${loginThrottle.windowStart} end`,
      },
    })
    .returning({ count: loginThrottle.count, windowStart: loginThrottle.windowStart });
  // A window that starts here is the moment to drop the ones that have ended (their
  // buckets start again from nothing anyway), so the table holds only current windows.
  if (row!.count === 1) await db.delete(loginThrottle).where(ended);
  return row!;
}

function addressMustWait(windowStart: Date, now: Date) {
  const waitMs = windowEnd(windowStart) - now.getTime();
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return tooManyRequests(
    waitMs,
    `Too many attempts to log in to this account from your network. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again, or reset your password if you have forgotten it.`,
  );
}
