import { randomBytes } from 'node:crypto';
import { hash, parseOptions, verify } from '@node-rs/argon2';

// Argon2id (the library's default algorithm) at OWASP's baseline of 19 MiB, 2 passes and
// 1 lane: slow enough to make guessing expensive without making login feel slow.
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
/** Argon2id in the library's `Algorithm`, a const enum its JavaScript does not export. */
const ARGON2ID = 2;

/**
 * Marks a stored hash made with the pepper: the server's secret as Argon2's own secret
 * input (ASVS V2.4.5), so a copy of the users table without the secret (held outside the
 * database, platform/security/server-key.ts) is no use for guessing passwords. Hashes without the mark
 * were made before the pepper: they are verified without it and replaced by a peppered
 * one at the next successful login (`needsRehash`).
 */
export const PEPPERED_PREFIX = 'peppered:';

/** `pepper` is `app.keys.passwordPepper`: the same in every process on one database. */
export async function hashPassword(password: string, pepper: Uint8Array): Promise<string> {
  return PEPPERED_PREFIX + (await hash(password, { ...options, secret: pepper }));
}

// Verified against when the user does not exist, so a wrong username costs the same
// time as a wrong password and timing does not reveal which usernames exist. Its own
// random pepper: whatever the caller's, the check fails after the same work.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(
  stored: string | null,
  password: string,
  pepper: Uint8Array,
): Promise<boolean> {
  if (stored === null) {
    dummyHash ??= hashPassword('not a real password', randomBytes(32));
    await verifyPassword(await dummyHash, password, pepper);
    return false;
  }
  try {
    return stored.startsWith(PEPPERED_PREFIX)
      ? await verify(stored.slice(PEPPERED_PREFIX.length), password, { secret: pepper })
      : await verify(stored, password);
  } catch {
    return false;
  }
}

/**
 * Whether a hash that just verified should be made again: made before the pepper, or
 * with other Argon2 parameters than today's. The login that proved the password replaces it.
 */
export function needsRehash(stored: string): boolean {
  if (!stored.startsWith(PEPPERED_PREFIX)) return true;
  try {
    const made = parseOptions(stored.slice(PEPPERED_PREFIX.length));
    return (
      (made.algorithm as number) !== ARGON2ID ||
      made.memoryCost !== options.memoryCost ||
      made.timeCost !== options.timeCost ||
      made.parallelism !== options.parallelism
    );
  } catch {
    return true;
  }
}
