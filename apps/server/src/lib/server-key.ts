import { hkdfSync, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inspect } from 'node:util';

/**
 * The server's own secret, held outside the database (ASVS V2.4.5, V2.8.2): SECRET_KEY,
 * or else DATA_DIR/secret.key, made at random by the first start. Two keys are derived
 * from it: the password pepper (Argon2's secret input) and the key that encrypts the
 * two-step verification keys. A copy of the database alone (a stolen dump, a replica)
 * then holds neither a password hash anyone can test guesses against nor a usable
 * two-step key. Every process on one database must have the same secret.
 */
export const SECRET_KEY_FILE = 'secret.key';
/** 256 bits: HKDF-SHA-256 gets no stronger from more, and a shorter secret would weaken it. */
export const MIN_SECRET_KEY_BYTES = 32;

/** The secret's bytes, which neither JSON nor util.inspect (so no log line) can show. */
export class ServerSecret {
  readonly #bytes: Buffer;

  constructor(bytes: Buffer) {
    if (bytes.length < MIN_SECRET_KEY_BYTES) {
      throw new Error(`A server secret must have at least ${MIN_SECRET_KEY_BYTES} bytes.`);
    }
    this.#bytes = Buffer.from(bytes);
  }

  /** A 256-bit key for one use, named by `label`: HKDF-SHA-256 (RFC 5869). */
  derive(label: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#bytes, Buffer.alloc(0), label, 32));
  }

  toJSON(): string {
    return '[server secret]';
  }

  [inspect.custom](): string {
    return 'ServerSecret [not shown]';
  }
}

/**
 * The secret written as hex (preferred: `openssl rand -hex 32`) or base64, or why not:
 * the reason never repeats the value, which is a secret even when it is a wrong one.
 */
export function parseSecretKey(text: string): ServerSecret | { problem: string } {
  const value = text.trim();
  let bytes: Buffer;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(value)) bytes = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) bytes = Buffer.from(value, 'base64');
  else return { problem: 'it is neither hex nor base64' };
  if (bytes.length < MIN_SECRET_KEY_BYTES) {
    return { problem: `it holds ${bytes.length} bytes` };
  }
  return new ServerSecret(bytes);
}

/** What the server asks of SECRET_KEY, and of DATA_DIR/secret.key. */
export const SECRET_KEY_RULE = `must be at least ${MIN_SECRET_KEY_BYTES} random bytes written as hex or base64 (make one with: openssl rand -hex ${MIN_SECRET_KEY_BYTES})`;

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
    // The name ends in .partial, which a backup snapshot leaves out (lib/online-backup.ts).
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
}

export function deriveServerKeys(secret: ServerSecret): ServerKeys {
  return {
    passwordPepper: secret.derive('merit password pepper v1'),
    twoFactorKey: secret.derive('merit two-step key encryption v1'),
  };
}

/** SECRET_KEY when set, else DATA_DIR/secret.key (made when missing): the keys from it. */
export async function serverKeysFor(config: {
  secretKey: ServerSecret | undefined;
  dataDir: string;
}): Promise<ServerKeys> {
  return deriveServerKeys(config.secretKey ?? (await secretFromFile(config.dataDir)));
}
