/** Bytes of randomness in an API token (256 bits, ARCHITECTURE.md "Auth"). */
export const TOKEN_BYTES = 32;

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * How long a session lasts: `idleMs` unused, `absoluteMs` after login however busy.
 * The server reads it from its settings (SESSION_IDLE_MINUTES, SESSION_MAX_AGE_HOURS)
 * and passes it in, so the rule stays a function of data and `now`.
 */
export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/**
 * OWASP ASVS 4.0.3 V3.3.2 level 2: re-authentication at least every 12 hours. An idle
 * limit of 2 hours ends a session left open on a shared machine long before that.
 */
export const DEFAULT_SESSION_POLICY: SessionPolicy = {
  idleMs: 2 * HOUR_MS,
  absoluteMs: 12 * HOUR_MS,
};
/** A token unused for this long expires (the default policy's idle limit). */
export const TOKEN_IDLE_TTL_MS = DEFAULT_SESSION_POLICY.idleMs;
/** A token expires this long after login, however often it is used (the default policy). */
export const TOKEN_ABSOLUTE_TTL_MS = DEFAULT_SESSION_POLICY.absoluteMs;
/**
 * How stale `lastUsedAt` may be before a request refreshes it. Writing on every
 * request would turn each read into a write; a minute is far below the idle limit
 * (which is at least SESSION_IDLE_MINUTES_MIN).
 */
export const TOKEN_TOUCH_INTERVAL_MS = MINUTE_MS;
/** The shortest idle limit the settings accept: well above the touch interval. */
export const SESSION_IDLE_MINUTES_MIN = 5;

export interface TokenTimes {
  createdAt: Date;
  lastUsedAt: Date;
  revokedAt: Date | null;
}

/** A token is live until it is revoked, idles out or reaches its absolute age. */
export function isTokenLive(token: TokenTimes, policy: SessionPolicy, now: Date): boolean {
  if (token.revokedAt) return false;
  const t = now.getTime();
  if (t - token.createdAt.getTime() >= policy.absoluteMs) return false;
  if (t - token.lastUsedAt.getTime() >= policy.idleMs) return false;
  return true;
}

export function tokenNeedsTouch(token: TokenTimes, now: Date): boolean {
  return now.getTime() - token.lastUsedAt.getTime() >= TOKEN_TOUCH_INTERVAL_MS;
}

/**
 * How a session was signed in to, as its token records it: `password_totp` is a password
 * and a two-step verification code (or a recovery code), `password_webauthn` a password and
 * a security key.
 */
export const LOGIN_METHODS = [
  'password',
  'password_totp',
  'password_webauthn',
  'federated',
] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];

/** The most characters of a User-Agent header a token keeps (real ones are 100–300). */
export const USER_AGENT_MAX_LENGTH = 512;

// Order matters: Edge and Opera also say Chrome, Chrome also says Safari, and a phone's
// browser says the desktop system's name beside its own.
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Headless)?(?:Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
];
const SYSTEMS: [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * A short name for the client of a session, "Firefox on Linux", from the User-Agent its
 * login sent: enough to tell one's laptop from one's phone, never the raw header.
 */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return 'Unknown client';
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown client';
}
