import { createHmac, randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { hash, verify } from '@node-rs/argon2';
import { totpStep } from '@merit/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { appSecrets, users, userTwoFactor } from '../src/db/schema.js';
import { PEPPERED_PREFIX, verifyPassword } from '../src/platform/security/passwords.js';
import {
  checkServerSecret,
  deriveServerKeys,
  SECRET_CHECK_NAME,
  SECRET_KEY_FILE,
  secretFromFile,
  SecretKeyFileError,
  WrongServerSecretError,
} from '../src/platform/security/server-key.js';
import { parseSecretKey, ServerSecret } from '../src/config/secret-key.js';
import { hotp } from '../src/modules/auth/totp.js';
import { decryptSecret, encryptSecret } from '../src/platform/security/key-encryption.js';
import {
  DATABASE_KEY_NAME,
  moveTwoFactorKeysToServerKey,
} from '../src/modules/auth/two-factor.service.js';
import { captureLog } from './log-capture.js';
import {
  createTestApp,
  freshDatabase,
  makeUser,
  TEST_PASSWORD,
  type TestContext,
} from './helpers.js';

/**
 * The server's secret outside the database (ASVS V2.4.5, V2.8.2): SECRET_KEY or
 * DATA_DIR/secret.key, the password pepper and the two-step keys' key derived from it, and
 * the move of what was stored before it: hashes without the pepper, two-step keys under
 * the key that lived in the database.
 */
const SECRET_KEY = randomBytes(32).toString('hex');
const OTHER_SECRET_KEY = randomBytes(32).toString('base64');

const { stream, lines: logLines } = captureLog();
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { SECRET_KEY }, logger: { level: 'trace', stream } });
});
afterAll(() => ctx.close());

/** Another app on the test's database (or `database`), as another process (or a restart) with `env`. */
async function anotherApp(
  env: Record<string, string>,
  database: Database = ctx.database,
): Promise<App> {
  const app = await buildApp(
    loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: ctx.dataDir,
      WEB_DIR: path.join(ctx.dataDir, 'web'),
      MANUAL_PATH: path.join(ctx.dataDir, 'manual.pdf'),
      SESSION_MAX_AGE_HOURS: '720',
      SESSION_IDLE_MINUTES: '43200',
      ...env,
    }),
    { database, now: ctx.clock.now, logger: false },
  );
  onTestFinished(() => app.close());
  return app;
}

const login = (app: App, username: string, password = TEST_PASSWORD) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/',
    payload: { username, password },
  });

async function storedHash(userId: number): Promise<string> {
  const [row] = await ctx.app.db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  return row!.hash!;
}

/** A DATA_DIR not made yet, removed when the test ends. */
async function emptyDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'merit-secret-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return path.join(dir, 'data');
}

/** A database of the test's own, migrated and never used by an app yet, dropped when it ends. */
async function newDatabase(): Promise<Database> {
  const fresh = await freshDatabase();
  onTestFinished(() => fresh.drop());
  return fresh.database;
}

const argon2Options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

describe('SECRET_KEY', () => {
  it('takes 32 bytes or more as hex or base64', () => {
    for (const value of [
      randomBytes(32).toString('hex'),
      randomBytes(48).toString('hex').toUpperCase(),
      randomBytes(32).toString('base64'),
      randomBytes(40).toString('base64url'),
    ]) {
      expect(loadConfig({ SECRET_KEY: value }).secretKey).toBeInstanceOf(ServerSecret);
    }
    expect(loadConfig({}).secretKey).toBeUndefined();
  });

  it.each([
    ['too short', randomBytes(16).toString('hex'), 'but it holds 16 bytes.'],
    [
      'not hex or base64',
      `${randomBytes(32).toString('hex')}!`,
      'but it is neither hex nor base64.',
    ],
  ])('stops the start with one clear line when %s, never repeating the value', (_, value, end) => {
    let error: unknown;
    try {
      loadConfig({ SECRET_KEY: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { message } = error as ConfigError;
    expect(message).toBe(
      `SECRET_KEY must be at least 32 random bytes written as hex or base64 (make one with: openssl rand -hex 32), ${end}`,
    );
    expect(message).not.toContain(value);
  });

  it('shows in no JSON and no inspection of the config', () => {
    const config = loadConfig({ SECRET_KEY });
    // As pino writes objects, and as console.log shows them.
    const shown = `${JSON.stringify(config)} ${inspect(config, { depth: 5 })}`;
    expect(shown).not.toContain(SECRET_KEY);
    expect(shown).not.toContain(Buffer.from(SECRET_KEY, 'hex').toString('base64'));
  });
});

describe('DATA_DIR/secret.key', () => {
  it('is made once at random, owner-only (0600), and reused', async () => {
    const dataDir = await emptyDir();
    // Five at once, as processes starting together on one DATA_DIR: one key for all.
    const first = await Promise.all(Array.from({ length: 5 }, () => secretFromFile(dataDir)));
    const file = path.join(dataDir, SECRET_KEY_FILE);
    const info = await stat(file);
    expect(info.mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/^[0-9a-f]{64}\n$/);
    const again = await secretFromFile(dataDir);
    expect((await readFile(file, 'utf8')) === text).toBe(true);
    const keys = [...first, again].map((secret) => deriveServerKeys(secret).passwordPepper);
    for (const key of keys) expect(key.equals(keys[0]!)).toBe(true);
    // What `parseSecretKey` makes of the file is what the server used.
    const parsed = parseSecretKey(text) as ServerSecret;
    expect(deriveServerKeys(parsed).twoFactorKey.equals(deriveServerKeys(again).twoFactorKey)).toBe(
      true,
    );
  });

  it('is made owner-only again when found readable by others', async () => {
    const dataDir = await emptyDir();
    await secretFromFile(dataDir);
    const file = path.join(dataDir, SECRET_KEY_FILE);
    await chmod(file, 0o644);
    await secretFromFile(dataDir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('stops the start with a clear message when it holds no key', async () => {
    const dataDir = await emptyDir();
    await secretFromFile(dataDir);
    await writeFile(path.join(dataDir, SECRET_KEY_FILE), 'not a key\n');
    await expect(secretFromFile(dataDir)).rejects.toThrow(SecretKeyFileError);
    await expect(secretFromFile(dataDir)).rejects.toThrow(
      /secret\.key is not a Merit secret key: it must be at least 32 random bytes .*, but it is neither hex nor base64\. Put back the file from a backup of DATA_DIR, or set SECRET_KEY/,
    );
  });

  it('serves an app without SECRET_KEY: a password set through one app logs in on another on the same DATA_DIR', async () => {
    const dataDir = await emptyDir();
    // A database of its own: the test's was used with SECRET_KEY.
    const database = await newDatabase();
    const first = await anotherApp({ DATA_DIR: dataDir }, database);
    const user = await makeUser(first);
    const second = await anotherApp({ DATA_DIR: dataDir }, database);
    expect((await login(second, user.username)).statusCode).toBe(200);
    expect((await stat(path.join(dataDir, SECRET_KEY_FILE))).mode & 0o777).toBe(0o600);
  });
});

describe('the password pepper (V2.4.5)', () => {
  it('makes every new hash peppered: it does not verify without the secret, or with another', async () => {
    const user = await makeUser(ctx.app);
    const stored = await storedHash(user.id);
    expect(stored.startsWith(`${PEPPERED_PREFIX}$argon2id$v=19$m=19456,t=2,p=1$`)).toBe(true);
    const argon2 = stored.slice(PEPPERED_PREFIX.length);
    expect(await verify(argon2, TEST_PASSWORD)).toBe(false);
    expect(await verify(argon2, TEST_PASSWORD, { secret: randomBytes(32) })).toBe(false);
    expect(await verify(argon2, TEST_PASSWORD, { secret: ctx.app.keys.passwordPepper })).toBe(true);
    expect(await verifyPassword(stored, TEST_PASSWORD, ctx.app.keys.passwordPepper)).toBe(true);
    expect(await verifyPassword(stored, 'another password', ctx.app.keys.passwordPepper)).toBe(
      false,
    );
  });

  it('logs in with a hash from before the pepper, and replaces it with a peppered one', async () => {
    const user = await makeUser(ctx.app, { password: null });
    const legacy = await hash(TEST_PASSWORD, argon2Options);
    await ctx.app.db.update(users).set({ passwordHash: legacy }).where(eq(users.id, user.id));

    const wrong = await login(ctx.app, user.username, 'not the password at all');
    expect(wrong.statusCode).toBe(400);
    expect(await storedHash(user.id)).toBe(legacy);

    const first = await login(ctx.app, user.username);
    expect(first.statusCode, first.body).toBe(200);
    const upgraded = await storedHash(user.id);
    expect(upgraded.startsWith(PEPPERED_PREFIX)).toBe(true);
    expect(await verify(upgraded.slice(PEPPERED_PREFIX.length), TEST_PASSWORD)).toBe(false);

    expect((await login(ctx.app, user.username)).statusCode).toBe(200);
    expect(await storedHash(user.id)).toBe(upgraded);
  });

  it('replaces a peppered hash made with other Argon2 parameters at the next login', async () => {
    const user = await makeUser(ctx.app, { password: null });
    const weaker = `${PEPPERED_PREFIX}${await hash(TEST_PASSWORD, {
      memoryCost: 4096,
      timeCost: 1,
      parallelism: 1,
      secret: ctx.app.keys.passwordPepper,
    })}`;
    await ctx.app.db.update(users).set({ passwordHash: weaker }).where(eq(users.id, user.id));
    expect((await login(ctx.app, user.username)).statusCode).toBe(200);
    expect(await storedHash(user.id)).toMatch(/^peppered:\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('does not verify with the pepper of another secret, and the same secret again logs in', async () => {
    const user = await makeUser(ctx.app);
    const other = deriveServerKeys(parseSecretKey(OTHER_SECRET_KEY) as ServerSecret);
    expect(
      await verifyPassword(await storedHash(user.id), TEST_PASSWORD, other.passwordPepper),
    ).toBe(false);
    // The same server secret again (another process set up alike): it logs in.
    const same = await anotherApp({ SECRET_KEY });
    expect((await login(same, user.username)).statusCode).toBe(200);
  });
});

describe('the two-step keys (V2.8.2)', () => {
  const codeOf = (secret: Buffer) => hotp(secret, totpStep(ctx.clock.now()));

  /**
   * Users with two-step verification on as the version before the server secret left them:
   * keys encrypted (format v1) under the `two-factor-key` row of app_secrets.
   */
  async function usersUnderDatabaseKey(count: number) {
    const dbKeyHex = randomBytes(32).toString('hex');
    await ctx.app.db
      .insert(appSecrets)
      .values({ name: DATABASE_KEY_NAME, value: dbKeyHex })
      .onConflictDoUpdate({ target: appSecrets.name, set: { value: dbKeyHex } });
    const made = [];
    for (let i = 0; i < count; i += 1) {
      const user = await makeUser(ctx.app);
      const secret = randomBytes(20);
      await ctx.app.db.insert(userTwoFactor).values({
        userId: user.id,
        secretEncrypted: encryptSecret(Buffer.from(dbKeyHex, 'hex'), secret, 'v1'),
        createdAt: ctx.clock.now(),
        enabledAt: ctx.clock.now(),
        lastStep: null,
      });
      made.push({ user, secret });
    }
    return made;
  }

  async function storedKeys(userIds: number[]) {
    return ctx.app.db
      .select({ userId: userTwoFactor.userId, stored: userTwoFactor.secretEncrypted })
      .from(userTwoFactor)
      .where(inArray(userTwoFactor.userId, userIds));
  }

  const databaseKeyRow = async () =>
    ctx.app.db.select().from(appSecrets).where(eq(appSecrets.name, DATABASE_KEY_NAME));

  /** Password, then a code of `secret`: the token key's answer. */
  async function logInWithCode(app: App, username: string, secret: Buffer) {
    const first = await login(app, username);
    expect(first.statusCode, first.body).toBe(200);
    const { ticket } = first.json<{ ticket: string }>();
    expect(ticket).toBeTruthy();
    return app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/two-factor/',
      payload: { ticket, code: codeOf(secret) },
    });
  }

  it('are moved at start: re-encrypted under the server key, still verify, and the database key is gone', async () => {
    const made = await usersUnderDatabaseKey(3);
    // A restart of the server (a new version on the same database and secret).
    const restarted = await anotherApp({ SECRET_KEY });
    const rows = await storedKeys(made.map((m) => m.user.id));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.stored.startsWith('v2.')).toBe(true);
      const { secret } = made.find((m) => m.user.id === row.userId)!;
      expect(decryptSecret(restarted.keys.twoFactorKey, row.stored).equals(secret)).toBe(true);
    }
    expect(await databaseKeyRow()).toEqual([]);
    for (const { user, secret } of made) {
      const res = await logInWithCode(restarted, user.username, secret);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toHaveProperty('key');
    }
  });

  it('are moved once when two processes start together', async () => {
    const made = await usersUnderDatabaseKey(4);
    // On PostgreSQL a second pool, as a second process has; PGlite is one connection.
    const second = ctx.databaseUrl
      ? await openDatabase({ kind: 'postgres', url: ctx.databaseUrl })
      : ctx.database;
    onTestFinished(async () => {
      if (second !== ctx.database) await second.close();
    });
    const results = await Promise.all([
      moveTwoFactorKeysToServerKey(ctx.database.db, ctx.app.keys),
      moveTwoFactorKeysToServerKey(second.db, ctx.app.keys),
    ]);
    // One moved all four; the other found the database key gone.
    expect(results.filter((r) => r === null)).toHaveLength(1);
    expect(results.find((r) => r !== null)).toEqual({ moved: 4, unreadable: 0 });
    for (const row of await storedKeys(made.map((m) => m.user.id))) {
      const { secret } = made.find((m) => m.user.id === row.userId)!;
      expect(decryptSecret(ctx.app.keys.twoFactorKey, row.stored).equals(secret)).toBe(true);
    }
    expect(await databaseKeyRow()).toEqual([]);
  });

  it('are moved as they are read when one appears after the start (an older process during an upgrade)', async () => {
    const made = await usersUnderDatabaseKey(2);
    const [first, second] = made;
    ctx.clock.advance(30_000);
    const res = await logInWithCode(ctx.app, first!.user.username, first!.secret);
    expect(res.statusCode, res.body).toBe(200);
    const after = await storedKeys([first!.user.id, second!.user.id]);
    const byUser = new Map(after.map((row) => [row.userId, row.stored]));
    expect(byUser.get(first!.user.id)!.startsWith('v2.')).toBe(true);
    // The other key still needs the database key, which stays until it is moved too.
    expect(byUser.get(second!.user.id)!.startsWith('v1.')).toBe(true);
    expect(await databaseKeyRow()).toHaveLength(1);

    const other = await logInWithCode(ctx.app, second!.user.username, second!.secret);
    expect(other.statusCode, other.body).toBe(200);
    const [moved] = await storedKeys([second!.user.id]);
    expect(moved!.stored.startsWith('v2.')).toBe(true);
    expect(await databaseKeyRow()).toEqual([]);
  });

  it('are new keys encrypted under the server key, never a database key', async () => {
    const user = await makeUser(ctx.app);
    const loggedIn = await login(ctx.app, user.username);
    const token = loggedIn.json<{ key: string }>().key;
    const setup = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/two-factor/setup/',
      headers: { authorization: `Token ${token}` },
      payload: { password: TEST_PASSWORD },
    });
    expect(setup.statusCode, setup.body).toBe(200);
    const [row] = await storedKeys([user.id]);
    expect(row!.stored.startsWith('v2.')).toBe(true);
    expect(await databaseKeyRow()).toEqual([]);
  });
});

describe('the check of the server secret (a start with another one stops)', () => {
  const USED_WITH = ', so no password or two-step verification code stored in it could be checked.';
  const wrongSecretKey = (because = '') =>
    `SECRET_KEY is not the key this database was used with${because}${USED_WITH} Set SECRET_KEY to the key this database was used with (if it ran without SECRET_KEY, the key in the secret.key of its DATA_DIR or of the backup of DATA_DIR); Merit cannot change a database's key.`;

  const storedCheck = async (db = ctx.app.db) =>
    (
      await db
        .select({ value: appSecrets.value })
        .from(appSecrets)
        .where(eq(appSecrets.name, SECRET_CHECK_NAME))
    ).map((row) => row.value);

  /** Why buildApp refused to start, which it must have. */
  async function refusal(start: Promise<unknown>): Promise<string> {
    const error = await start.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(WrongServerSecretError);
    return (error as Error).message;
  }

  /** `text` shows the key in none of the ways it may be written. */
  function expectNotShown(text: string, key: string) {
    expect(text).not.toContain(key);
    const bytes = Buffer.from(key, /^(?:[0-9a-fA-F]{2})+$/.test(key) ? 'hex' : 'base64');
    expect(bytes.length).toBeGreaterThanOrEqual(32);
    for (const encoding of ['hex', 'base64', 'base64url'] as const) {
      expect(text).not.toContain(bytes.toString(encoding));
    }
  }

  it('is stored at the first start: the HMAC of a label under a key of its own, neither the secret nor a key in use', async () => {
    const [stored] = await storedCheck();
    const secret = parseSecretKey(SECRET_KEY) as ServerSecret;
    expect(stored).toBe(
      createHmac('sha256', secret.derive('merit server secret check v1'))
        .update('merit: the server secret this database was used with')
        .digest('hex'),
    );
    expect(stored).toBe(ctx.app.keys.check);
    const { passwordPepper, twoFactorKey } = ctx.app.keys;
    for (const bytes of [Buffer.from(SECRET_KEY, 'hex'), passwordPepper, twoFactorKey]) {
      expect(stored).not.toBe(bytes.toString('hex'));
    }
    expect(
      logLines.some((line) => line.includes('stored the check value of the server secret')),
    ).toBe(true);
  });

  it('stops a start with another SECRET_KEY with one line that says what to do, never the key', async () => {
    const user = await makeUser(ctx.app);
    const message = await refusal(anotherApp({ SECRET_KEY: OTHER_SECRET_KEY }));
    expect(message).toBe(wrongSecretKey());
    expect(message).not.toContain('\n');
    expectNotShown(message, OTHER_SECRET_KEY);
    expectNotShown(message, SECRET_KEY);
    // Nothing changed; the key the database was used with starts and logs in.
    expect(await storedCheck()).toEqual([ctx.app.keys.check]);
    const same = await anotherApp({ SECRET_KEY });
    expect((await login(same, user.username)).statusCode).toBe(200);
  });

  it('stops a start whose DATA_DIR/secret.key is not the database’s (restored without it), naming the file; the file put back starts', async () => {
    const user = await makeUser(ctx.app);
    const dataDir = await emptyDir();
    const file = path.join(dataDir, SECRET_KEY_FILE);
    // No SECRET_KEY and no secret.key: this start makes a new key, not the database's.
    const message = await refusal(anotherApp({ DATA_DIR: dataDir }));
    expect(message).toBe(
      `The server secret in ${file} is not the one this database was used with${USED_WITH} Put back the secret.key from the backup of DATA_DIR taken with this database, or set SECRET_KEY to the key this database was used with; Merit cannot change a database's key.`,
    );
    expectNotShown(message, (await readFile(file, 'utf8')).trim());
    // The key the database was used with, put back in the file (as a restore of DATA_DIR does).
    await writeFile(file, `${SECRET_KEY}\n`, { mode: 0o600 });
    const restored = await anotherApp({ DATA_DIR: dataDir });
    expect((await login(restored, user.username)).statusCode).toBe(200);
  });

  /**
   * A database used with SECRET_KEY by a version from before the check: no check value, a
   * two-step key under the server key and one still under the key the database held.
   */
  async function databaseFromBefore() {
    const database = await newDatabase();
    const first = await anotherApp({ SECRET_KEY }, database);
    const user = await makeUser(first);
    const v2User = await makeUser(first);
    const secrets = { v2: randomBytes(20), v1: randomBytes(20) };
    const databaseKey = randomBytes(32);
    await first.db.insert(userTwoFactor).values([
      {
        userId: v2User.id,
        secretEncrypted: encryptSecret(first.keys.twoFactorKey, secrets.v2),
        createdAt: ctx.clock.now(),
        enabledAt: ctx.clock.now(),
        lastStep: null,
      },
      // One still under the key the database held: a wrong secret must not move it.
      {
        userId: user.id,
        secretEncrypted: encryptSecret(databaseKey, secrets.v1, 'v1'),
        createdAt: ctx.clock.now(),
        enabledAt: ctx.clock.now(),
        lastStep: null,
      },
    ]);
    await first.db
      .insert(appSecrets)
      .values({ name: DATABASE_KEY_NAME, value: databaseKey.toString('hex') });
    await first.db.delete(appSecrets).where(eq(appSecrets.name, SECRET_CHECK_NAME));
    expect(await storedCheck(first.db)).toEqual([]);
    return { database, db: first.db, user, secrets };
  }

  it('is stored by the first start on a database from before it, and checked from then on', async () => {
    const { database, db, user } = await databaseFromBefore();
    const restarted = await anotherApp({ SECRET_KEY }, database);
    expect(await storedCheck(db)).toEqual([restarted.keys.check]);
    expect((await login(restarted, user.username)).statusCode).toBe(200);
    expect(await refusal(anotherApp({ SECRET_KEY: OTHER_SECRET_KEY }, database))).toBe(
      wrongSecretKey(),
    );
  });

  it('refuses a database from before it when none of its two-step keys decrypts with the secret, and changes nothing', async () => {
    const { database, db, user, secrets } = await databaseFromBefore();
    const before = await db.select().from(userTwoFactor).orderBy(userTwoFactor.userId);
    expect(await refusal(anotherApp({ SECRET_KEY: OTHER_SECRET_KEY }, database))).toBe(
      wrongSecretKey(' (none of its two-step verification keys decrypts with it)'),
    );
    // No check value of the wrong secret, and the old key still under the database's key.
    expect(await storedCheck(db)).toEqual([]);
    expect(await db.select().from(userTwoFactor).orderBy(userTwoFactor.userId)).toEqual(before);
    expect(
      await db.select().from(appSecrets).where(eq(appSecrets.name, DATABASE_KEY_NAME)),
    ).toHaveLength(1);

    // The right secret starts, stores its check value and moves the old key under it.
    const right = await anotherApp({ SECRET_KEY }, database);
    expect(await storedCheck(db)).toEqual([right.keys.check]);
    const [moved] = await db
      .select({ stored: userTwoFactor.secretEncrypted })
      .from(userTwoFactor)
      .where(eq(userTwoFactor.userId, user.id));
    expect(decryptSecret(right.keys.twoFactorKey, moved!.stored).equals(secrets.v1)).toBe(true);
  });

  // Two new databases: on PGlite each is an initdb and every migration, several seconds
  // each on a busy two-core machine, so this test may take longer than the default.
  it('is stored once when two processes start together: with one secret both go on, with two only one', async () => {
    const config = (key: string) => ({
      secretKey: parseSecretKey(key) as ServerSecret,
      dataDir: ctx.dataDir,
    });
    const keysOf = (key: string) => deriveServerKeys(config(key).secretKey);
    for (const pair of [
      [SECRET_KEY, SECRET_KEY],
      [SECRET_KEY, OTHER_SECRET_KEY],
    ]) {
      const fresh = await freshDatabase();
      onTestFinished(() => fresh.drop());
      // On PostgreSQL a second pool, as a second process has; PGlite is one connection.
      const second = fresh.url
        ? await openDatabase({ kind: 'postgres', url: fresh.url })
        : fresh.database;
      onTestFinished(async () => {
        if (second !== fresh.database) await second.close();
      });
      const results = await Promise.allSettled(
        [fresh.database, second].map((database, i) =>
          checkServerSecret(database.db, keysOf(pair[i]!), config(pair[i]!)),
        ),
      );
      const started = results.flatMap((r, i) => (r.status === 'fulfilled' ? [pair[i]!] : []));
      const stopped = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(started).toHaveLength(pair[0] === pair[1] ? 2 : 1);
      expect(stopped).toHaveLength(pair[0] === pair[1] ? 0 : 1);
      for (const reason of stopped) expect(reason).toBeInstanceOf(WrongServerSecretError);
      expect(await storedCheck(fresh.database.db)).toEqual([keysOf(started[0]!).check]);
    }
  }, 60_000);
});

describe('the log', () => {
  it('holds neither the secret nor a key derived from it', () => {
    const secret = Buffer.from(SECRET_KEY, 'hex');
    const { passwordPepper, twoFactorKey } = ctx.app.keys;
    const text = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(10);
    for (const bytes of [secret, passwordPepper, twoFactorKey]) {
      for (const encoding of ['hex', 'base64', 'base64url'] as const) {
        expect(text).not.toContain(bytes.toString(encoding));
      }
      // A Buffer as JSON: its bytes as a list of numbers.
      expect(text).not.toContain(JSON.stringify([...bytes]).slice(1, -1));
    }
  });
});
