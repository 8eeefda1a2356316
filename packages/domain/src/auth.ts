/** Bytes of randomness in an API token (256 bits, ARCHITECTURE.md "Auth"). */
export const TOKEN_BYTES = 32;
/** A token unused for this long expires. */
export const TOKEN_IDLE_TTL_MS = 14 * 24 * 60 * 60 * 1000;
/** A token expires this long after login, however often it is used. */
export const TOKEN_ABSOLUTE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * How stale `lastUsedAt` may be before a request refreshes it. Writing on every
 * request would turn each read into a write; a minute is far below the idle TTL.
 */
export const TOKEN_TOUCH_INTERVAL_MS = 60 * 1000;

export interface TokenTimes {
  createdAt: Date;
  lastUsedAt: Date;
  revokedAt: Date | null;
}

/** A token is live until it is revoked, idles out or reaches its absolute age. */
export function isTokenLive(token: TokenTimes, now: Date): boolean {
  if (token.revokedAt) return false;
  const t = now.getTime();
  if (t - token.createdAt.getTime() >= TOKEN_ABSOLUTE_TTL_MS) return false;
  if (t - token.lastUsedAt.getTime() >= TOKEN_IDLE_TTL_MS) return false;
  return true;
}

export function tokenNeedsTouch(token: TokenTimes, now: Date): boolean {
  return now.getTime() - token.lastUsedAt.getTime() >= TOKEN_TOUCH_INTERVAL_MS;
}
