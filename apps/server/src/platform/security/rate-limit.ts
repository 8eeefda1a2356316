import { lt, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rateLimitHits } from '../../db/schema.js';
import { HttpError } from '../http/http-errors.js';
import { errorCodes } from '@merit/contract';

/** The window of the auth rate limits and of the login limits (platform/security/login-throttle.ts). */
export const AUTH_WINDOW_MS = 15 * 60 * 1000;

/** 429 with Retry-After: the client may try again once `retryAfterMs` has passed. */
export function tooManyRequests(retryAfterMs: number, detail: string): HttpError {
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
