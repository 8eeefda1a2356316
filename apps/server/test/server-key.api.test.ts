import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { hash, verify } from '@node-rs/argon2';
import { totpStep } from '@merit/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { appSecrets, users, userTwoFactor } from '../src/db/schema.js';
import { PEPPERED_PREFIX, verifyPassword } from '../src/lib/passwords.js';
import {
  deriveServerKeys,
  parseSecretKey,
  SECRET_KEY_FILE,
  secretFromFile,
  SecretKeyFileError,
  ServerSecret,
} from '../src/lib/server-key.js';
import { hotp, encryptSecret, decryptSecret } from '../src/modules/auth/totp.js';
import {
  DATABASE_KEY_NAME,
  moveTwoFactorKeysToServerKey,
} from '../src/modules/auth/two-factor.service.js';
import { captureLog } from './log-capture.js';
import { createTestApp, makeUser, TEST_PASSWORD, type TestContext } from './helpers.js';

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

/** Another app on the test's database, as another process (or a restart) with `env`. */
async function anotherApp(env: Record<string, string>): Promise<App> {
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
    { database: ctx.database, now: ctx.clock.now, logger: false },
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
  async function emptyDir() {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'merit-secret-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    return path.join(dir, 'data');
  }

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
    const first = await anotherApp({ DATA_DIR: dataDir });
    const user = await makeUser(first);
    const second = await anotherApp({ DATA_DIR: dataDir });
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

  it('refuses the login when the server runs with another SECRET_KEY', async () => {
    const user = await makeUser(ctx.app);
    const other = await anotherApp({ SECRET_KEY: OTHER_SECRET_KEY });
    const refused = await login(other, user.username);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'invalid_credentials' });
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
