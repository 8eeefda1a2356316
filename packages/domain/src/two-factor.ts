/**
 * Two-step verification with a time-based one-time password (RFC 6238): the rules both
 * the server and the web app need. The HMAC itself is the server's (node:crypto).
 */

/** RFC 6238 as authenticator apps expect it: HMAC-SHA-1, 30-second steps, 6 digits. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now that still count, for a phone's clock a little off (RFC 6238 §5.2). */
export const TOTP_WINDOW_STEPS = 1;
/** 160 bits, the length RFC 4226 recommends for the shared secret. */
export const TOTP_SECRET_BYTES = 20;
export const TOTP_ISSUER = 'Merit';

/** Recovery codes given when two-step verification is turned on; each works once. */
export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits no one confuses when copying by hand (no 0/o, 1/l/i). */
export const RECOVERY_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** Two groups of five: about 49 bits each. */
export const RECOVERY_CODE_GROUP = 5;

/** A login that passed its password waits this long for its code. */
export const TWO_FACTOR_TICKET_TTL_MS = 5 * 60 * 1000;
/** A setup waits this long for its first code; then it must start again with a new key. */
export const TWO_FACTOR_SETUP_TTL_MS = 30 * 60 * 1000;
/** Wrong codes a login ticket takes before it ends and the login starts again. */
export const TWO_FACTOR_TICKET_MAX_FAILURES = 5;

export const twoFactorMessages = {
  wrongCode:
    'That code is not right. Enter the 6-digit code your authenticator app shows now, or one of your recovery codes.',
  wrongEnrolmentCode:
    'That code is not right. Enter the 6-digit code your authenticator app shows for Merit now.',
  ticketExpired:
    'Your login has timed out or had too many wrong codes. Please log in again with your username and password.',
  alreadyEnabled: 'Two-step verification is already on for your account.',
  notEnabled: 'Two-step verification is not on for your account.',
  notStarted: 'Start turning on two-step verification again: your setup key has expired.',
  wrongPassword: 'Your password was entered incorrectly. Please enter it again.',
  federated:
    'Your account logs in through your institution, which has its own second step; Merit has no password for it to protect.',
} as const;

const RFC4648 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Base32 (RFC 4648) without padding, as otpauth:// URIs and authenticator apps take keys. */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += RFC4648[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += RFC4648[(buffer << (5 - bits)) & 31];
  return out;
}

/** The key decoded; spaces and case ignored (people type it in groups). Null when not base32. */
export function base32Decode(text: string): Uint8Array | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = RFC4648.indexOf(char);
    if (value < 0) return null;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** The otpauth:// URI an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUri(username: string, secretBase32: string): string {
  const label = `${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(username)}`;
  const query = new URLSearchParams({
    secret: secretBase32,
    issuer: TOTP_ISSUER,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}

/** The time step `now` falls in. */
export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** What a person typed, as a code: spaces and dashes dropped, lower case. */
export function normalizeCode(input: string): string {
  return input.replace(/[\s-]/g, '').toLowerCase();
}

/** True when the typed text is shaped like an authenticator code (six digits). */
export function isTotpCode(input: string): boolean {
  return new RegExp(`^[0-9]{${TOTP_DIGITS}}$`).test(normalizeCode(input));
}

/** True when the typed text is shaped like a recovery code (ten letters and digits). */
export function isRecoveryCode(input: string): boolean {
  const code = normalizeCode(input);
  return (
    code.length === 2 * RECOVERY_CODE_GROUP &&
    [...code].every((char) => RECOVERY_CODE_ALPHABET.includes(char))
  );
}

/** A recovery code as shown: two groups of five, "abcde-fghjk". */
export function formatRecoveryCode(code: string): string {
  const clean = normalizeCode(code);
  return `${clean.slice(0, RECOVERY_CODE_GROUP)}-${clean.slice(RECOVERY_CODE_GROUP)}`;
}
