import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { TOTP_DIGITS, TOTP_WINDOW_STEPS, totpStep } from '@merit/domain';

export type HotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

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
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
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
 */
export function matchTotp(
  secret: Uint8Array,
  code: string,
  now: Date,
  lastStep: number | null,
): number | null {
  const current = totpStep(now);
  let matched: number | null = null;
  for (let step = current - TOTP_WINDOW_STEPS; step <= current + TOTP_WINDOW_STEPS; step += 1) {
    const fresh = lastStep === null || step > lastStep;
    if (sameCode(hotp(secret, step), code) && fresh && matched === null) matched = step;
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
  const current = totpStep(now);
  let replayed = false;
  for (let step = current - TOTP_WINDOW_STEPS; step <= current + TOTP_WINDOW_STEPS; step += 1) {
    if (step <= lastStep && sameCode(hotp(secret, step), code)) replayed = true;
  }
  return replayed;
}

/**
 * How a stored key was encrypted: `v2` under the key derived from the server's secret
 * (SECRET_KEY or DATA_DIR/secret.key, outside the database: a copy of the database alone
 * gives no one the keys, ASVS V2.8.2); `v1` under the `two-factor-key` row of app_secrets,
 * as before the server secret, until two-factor.service.ts moves it to v2.
 */
export const SERVER_KEY_FORMAT = 'v2';
export const DATABASE_KEY_FORMAT = 'v1';

/** Whether a stored key is still under the database's own key (v1). */
export const underDatabaseKey = (stored: string): boolean =>
  stored.startsWith(`${DATABASE_KEY_FORMAT}.`);

/**
 * The key at rest: AES-256-GCM as `<format>.<iv>.<tag>.<ciphertext>` in base64url, under the
 * server key (`v2`) unless `format` says otherwise (tests make the old kind).
 */
export function encryptSecret(
  key: Buffer,
  secret: Uint8Array,
  format: string = SERVER_KEY_FORMAT,
): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  return [format, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Decrypts a stored key with the key its format names (the caller chooses which). */
export function decryptSecret(key: Buffer, stored: string): Buffer {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (
    (version !== SERVER_KEY_FORMAT && version !== DATABASE_KEY_FORMAT) ||
    !iv ||
    !tag ||
    ciphertext === undefined
  ) {
    throw new Error('Unknown format of a stored two-step verification key');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
}
