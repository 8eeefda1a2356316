import { and, count, eq, gte, lt, min, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { loginFailures, rateLimitHits } from '../db/schema.js';
import { HttpError } from './http-errors.js';
import { errorCodes } from '@merit/contract';

/** The window of the auth rate limits and the login lockout (issue: 15 minutes). */
export const AUTH_WINDOW_MS = 15 * 60 * 1000;
/** Failed logins for one username within the window before further attempts are refused. */
export const MAX_LOGIN_FAILURES = 10;

function tooManyRequests(retryAfterMs: number, detail: string): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpError(429, errorCodes.rateLimited, detail, undefined, {
    'retry-after': String(seconds),
  });
}

/**
 * Counts one request against `bucket` in the current fixed window and refuses it with
 * 429 and Retry-After once the window holds more than `limit`. The counter lives in the
 * database so every app process shares it.
 */
export async function hitRateLimit(
  db: Tx,
  bucket: string,
  limit: number,
  now: Date,
  windowMs = AUTH_WINDOW_MS,
): Promise<void> {
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const [row] = await db
    .insert(rateLimitHits)
    .values({ bucket, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitHits.bucket, rateLimitHits.windowStart],
      set: { count: sql`${rateLimitHits.count} + 1` },
    })
    .returning({ count: rateLimitHits.count });
  if (row!.count > limit) {
    throw tooManyRequests(
      windowStart.getTime() + windowMs - now.getTime(),
      'Too many requests from your address. Please wait a few minutes and try again.',
    );
  }
  // Old windows are useless; the first request of each window clears them out.
  if (row!.count === 1)
    await db.delete(rateLimitHits).where(lt(rateLimitHits.windowStart, windowStart));
}

/** Refuses a login for a username with too many recent failures, whatever the password. */
export async function checkLoginLockout(db: Tx, username: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - AUTH_WINDOW_MS);
  const [row] = await db
    .select({ failures: count(), oldest: min(loginFailures.at) })
    .from(loginFailures)
    .where(and(eq(loginFailures.username, username.toLowerCase()), gte(loginFailures.at, since)));
  if (row && row.failures >= MAX_LOGIN_FAILURES && row.oldest) {
    const oldest = new Date(row.oldest);
    throw tooManyRequests(
      oldest.getTime() + AUTH_WINDOW_MS - now.getTime(),
      'Too many failed login attempts for this account. Please wait a few minutes and try again.',
    );
  }
}

export async function recordLoginFailure(db: Tx, username: string, now: Date): Promise<void> {
  await db
    .insert(loginFailures)
    .values({ username: username.toLowerCase().slice(0, 150), at: now });
  // Failures outside every window no longer matter.
  await db
    .delete(loginFailures)
    .where(lt(loginFailures.at, new Date(now.getTime() - AUTH_WINDOW_MS)));
}

export async function clearLoginFailures(db: Tx, username: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.username, username.toLowerCase()));
}
