import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { like } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { userTwoFactor } from '../../db/schema.js';
import { decryptSecret, SERVER_KEY_FORMAT } from './key-encryption.js';
import {
  MIN_SECRET_KEY_BYTES,
  parseSecretKey,
  SECRET_KEY_RULE,
  ServerSecret,
} from '../../config/secret-key.js';
import { storedOnce, storedValue } from './app-secrets.js';

/**
 * The server's own secret, held outside the database (ASVS V2.4.5, V2.8.2): SECRET_KEY,
 * or else DATA_DIR/secret.key, made at random by the first start. Two keys are derived
 * from it: the password pepper (Argon2's secret input) and the key that encrypts the
 * two-step verification keys. A copy of the database alone (a stolen dump, a replica)
 * then holds neither a password hash anyone can test guesses against nor a usable
 * two-step key. Every process on one database must have the same secret: a start with
 * another one than the database was used with stops (`checkServerSecret`).
 */
export const SECRET_KEY_FILE = 'secret.key';

export class SecretKeyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyFileError';
  }
}

/**
 * DATA_DIR/secret.key, made at random on the first start. It is written under a temporary
 * name and linked into place, which fails when the file exists: of two processes starting
 * together on one DATA_DIR, one key wins, both read it, and neither ever reads a half-written
 * file. Owner-only (0600), as everything in DATA_DIR.
 */
export async function secretFromFile(dataDir: string): Promise<ServerSecret> {
  const file = path.join(dataDir, SECRET_KEY_FILE);
  let text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (text === null) {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    // The name ends in .partial, which a backup snapshot leaves out (platform/io/online-backup.ts).
    const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
    await writeFile(partial, `${randomBytes(MIN_SECRET_KEY_BYTES).toString('hex')}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
    try {
      await link(partial, file).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return;
        // A file system without hard links: created only if still missing, all the same.
        await writeFile(file, await readFile(partial), { mode: 0o600, flag: 'wx' }).catch(
          (again: NodeJS.ErrnoException) => {
            if (again.code !== 'EEXIST') throw again;
          },
        );
      });
    } finally {
      await rm(partial, { force: true });
    }
    text = await readFile(file, 'utf8');
  } else if (((await stat(file)).mode & 0o077) !== 0) {
    // Made or copied by hand with looser permissions; a file someone else owns stays as it is.
    await chmod(file, 0o600).catch(() => undefined);
  }
  const parsed = parseSecretKey(text);
  if (!(parsed instanceof ServerSecret)) {
    throw new SecretKeyFileError(
      `${file} is not a Merit secret key: it ${SECRET_KEY_RULE}, but ${parsed.problem}. Put back the file from a backup of DATA_DIR, or set SECRET_KEY to the key this database was used with.`,
    );
  }
  return parsed;
}

/** The keys derived from the server secret, each for one purpose. */
export interface ServerKeys {
  /** Argon2's secret input for every password hash (ASVS V2.4.5). */
  passwordPepper: Buffer;
  /** AES-256-GCM key of the stored two-step verification keys (ASVS V2.8.2). */
  twoFactorKey: Buffer;
  /**
   * HMAC key of the WebAuthn user handle a security key is given for its account
   * (security-keys.service.ts): stable per user, and no personal data on the key.
   */
  securityKeyUserKey: Buffer;
  /** HMAC key of invitation links (modules/setup/invitations.ts): they name a committee. */
  invitationKey: Buffer;
  /**
   * What the database keeps to tell, at each start, whether this is the secret it was used
   * with (`checkServerSecret`): the HMAC-SHA-256 of a fixed label under a key of its own,
   * in hex. It says nothing of the secret, the pepper or the two-step keys' key.
   */
  check: string;
}

export function deriveServerKeys(secret: ServerSecret): ServerKeys {
  return {
    passwordPepper: secret.derive('merit password pepper v1'),
    twoFactorKey: secret.derive('merit two-step key encryption v1'),
    securityKeyUserKey: secret.derive('merit security key user handle v1'),
    invitationKey: secret.derive('merit invitation link v1'),
    check: createHmac('sha256', secret.derive('merit server secret check v1'))
      .update('merit: the server secret this database was used with')
      .digest('hex'),
  };
}

/** SECRET_KEY when set, else DATA_DIR/secret.key (made when missing): the keys from it. */
export async function serverKeysFor(config: {
  secretKey: ServerSecret | undefined;
  dataDir: string;
}): Promise<ServerKeys> {
  return deriveServerKeys(config.secretKey ?? (await secretFromFile(config.dataDir)));
}

/** The app_secrets row of the check value of the secret the database is used with. */
export const SECRET_CHECK_NAME = 'server-secret-check';

/** A server secret that is not the one the database was used with: the start stops. */
export class WrongServerSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WrongServerSecretError';
  }
}

/**
 * Why the start stops, in one line that names where the secret came from and never shows
 * it. Merit has no way to change a database's secret (every password hash and two-step key
 * would have to be made again), so the only way on is the secret the database was used with.
 */
export function wrongSecretMessage(
  config: { secretKey: ServerSecret | undefined; dataDir: string },
  because = '',
): string {
  const consequence = 'so no password or two-step verification code stored in it could be checked';
  if (config.secretKey) {
    return `SECRET_KEY is not the key this database was used with${because}, ${consequence}. Set SECRET_KEY to the key this database was used with (if it ran without SECRET_KEY, the key in the ${SECRET_KEY_FILE} of its DATA_DIR or of the backup of DATA_DIR); Merit cannot change a database's key.`;
  }
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  return `The server secret in ${file} is not the one this database was used with${because}, ${consequence}. Put back the ${SECRET_KEY_FILE} from the backup of DATA_DIR taken with this database, or set SECRET_KEY to the key this database was used with; Merit cannot change a database's key.`;
}

/**
 * Whether any two-step key the database holds under the server key (format v2) decrypts
 * with `keys`: null when there is none, so nothing to tell by.
 */
async function twoFactorKeysDecrypt(db: Tx, keys: ServerKeys): Promise<boolean | null> {
  const stored = await db
    .select({ secretEncrypted: userTwoFactor.secretEncrypted })
    .from(userTwoFactor)
    .where(like(userTwoFactor.secretEncrypted, `${SERVER_KEY_FORMAT}.%`));
  if (stored.length === 0) return null;
  return stored.some(({ secretEncrypted }) => {
    try {
      decryptSecret(keys.twoFactorKey, secretEncrypted);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Run at each start before anything uses the keys (buildApp, create-admin): compares the
 * secret's check value with the one the database keeps, and throws WrongServerSecretError
 * when they differ. The first start with a secret stores its check value; a database from
 * before the check is given it too, unless its two-step keys show that the secret is not
 * the one they were encrypted with (none of them decrypts): its password hashes cannot
 * tell. Of two processes starting together on a database without one, the first to write
 * it wins and each compares with what is stored, so one with another secret stops.
 * `'stored'` when the database had no check value before this start.
 */
export async function checkServerSecret(
  db: Tx,
  keys: ServerKeys,
  config: { secretKey: ServerSecret | undefined; dataDir: string },
): Promise<'stored' | 'matched'> {
  let stored = await storedValue(db, SECRET_CHECK_NAME);
  let wrote = false;
  if (stored === null) {
    if ((await twoFactorKeysDecrypt(db, keys)) === false) {
      throw new WrongServerSecretError(
        wrongSecretMessage(config, ' (none of its two-step verification keys decrypts with it)'),
      );
    }
    stored = await storedOnce(db, SECRET_CHECK_NAME, keys.check);
    wrote = true;
  }
  const matches =
    stored.length === keys.check.length &&
    timingSafeEqual(Buffer.from(stored), Buffer.from(keys.check));
  if (!matches) throw new WrongServerSecretError(wrongSecretMessage(config));
  return wrote ? 'stored' : 'matched';
}
