import { timingSafeEqual } from 'node:crypto';
import { TOTP_DIGITS, TOTP_WINDOW_STEPS, totpStep } from '@merit/domain';
import { HOTP, Secret } from 'otpauth';

export type HotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

const OTPAUTH_ALGORITHM = {
  sha1: 'SHA1',
  sha256: 'SHA256',
  sha512: 'SHA512',
} as const satisfies Record<HotpAlgorithm, string>;

/**
 * The key as otpauth takes it, from a copy of the bytes: not `secret.buffer`, since a
 * Node Buffer may be a view into a shared pool and Secret would take the whole of it.
 */
const keyOf = (secret: Uint8Array): Secret => new Secret({ buffer: new Uint8Array(secret).buffer });

/**
 * The code of `counter` under `key`, from otpauth (RFC 4226/6238), whose Node build
 * imports only node:crypto and computes the HMAC with createHmac as this file once did.
 * What stays ours is the window: see matchTotp.
 */
function codeAt(
  key: Secret,
  counter: number,
  digits: number = TOTP_DIGITS,
  algorithm: HotpAlgorithm = 'sha1',
): string {
  // A counter that is not a whole number from 0 up is refused, as it was when the counter
  // was written as a BigInt; otpauth would encode it regardless.
  if (!Number.isSafeInteger(counter) || counter < 0) {
    throw new RangeError(`An HOTP counter must be a whole number from 0 up, not ${counter}`);
  }
  return HOTP.generate({ secret: key, counter, digits, algorithm: OTPAUTH_ALGORITHM[algorithm] });
}

/**
 * HOTP (RFC 4226 §5.3): the HMAC of the 8-byte counter, dynamically truncated to `digits`
 * decimal digits. TOTP (RFC 6238) is HOTP with the time step as the counter; authenticator
 * apps use SHA-1 and 6 digits, the other choices are here for the RFC's test vectors.
 */
export function hotp(
  secret: Uint8Array,
  counter: number,
  digits: number = TOTP_DIGITS,
  algorithm: HotpAlgorithm = 'sha1',
): string {
  return codeAt(keyOf(secret), counter, digits, algorithm);
}

/** Constant-time equality of two codes, so the time taken tells nothing about the digits. */
function sameCode(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The time step whose code `code` is, within TOTP_WINDOW_STEPS of `now` and later than
 * `lastStep` (a code accepted once is never accepted again, nor any older one), or null.
 * Every step of the window is compared, matched or not, so the time does not say which.
 *
 * This loop is ours rather than otpauth's TOTP.validate, which returns at the first step
 * that matches (now, then −1, then +1) and at once for a code of the wrong length, so its
 * time tells which step matched; and which knows no `lastStep`: it would find a used
 * step's code, where ASVS V2.8.4 wants each code taken once, and would miss a fresh step
 * with the same code. Only the codes come from the library.
 */
export function matchTotp(
  secret: Uint8Array,
  code: string,
  now: Date,
  lastStep: number | null,
): number | null {
  const key = keyOf(secret);
  const current = totpStep(now);
  let matched: number | null = null;
  for (let step = current - TOTP_WINDOW_STEPS; step <= current + TOTP_WINDOW_STEPS; step += 1) {
    const fresh = lastStep === null || step > lastStep;
    if (sameCode(codeAt(key, step), code) && fresh && matched === null) matched = step;
  }
  return matched;
}

/**
 * Whether `code` is the code of a step in the window that was already used (at or before
 * `lastStep`): a code seen again, which ASVS V2.8.5 wants logged and its holder told of.
 * Asked only of a code `matchTotp` refused.
 */
export function isReplayedTotp(
  secret: Uint8Array,
  code: string,
  now: Date,
  lastStep: number | null,
): boolean {
  if (lastStep === null) return false;
  const key = keyOf(secret);
  const current = totpStep(now);
  let replayed = false;
  for (let step = current - TOTP_WINDOW_STEPS; step <= current + TOTP_WINDOW_STEPS; step += 1) {
    if (step <= lastStep && sameCode(codeAt(key, step), code)) replayed = true;
  }
  return replayed;
}
