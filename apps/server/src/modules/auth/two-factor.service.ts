import type { TwoFactorStatus } from '@merit/contract';
import {
  base32Encode,
  formatRecoveryCode,
  isRecoveryCode,
  isTotpCode,
  normalizeCode,
  otpauthUri,
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_GROUP,
  TOTP_SECRET_BYTES,
  TWO_FACTOR_SETUP_TTL_MS,
  TWO_FACTOR_TICKET_MAX_FAILURES,
  TWO_FACTOR_TICKET_TTL_MS,
  twoFactorMessages,
} from '@merit/domain';
import { and, count, eq, gt, isNull, like, lt, notExists, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Tx } from '../../db/client.js';
import {
  appSecrets,
  securityKeyChallenges,
  securityKeys,
  twoFactorRecoveryCodes,
  twoFactorTickets,
  userTwoFactor,
} from '../../db/schema.js';
import { conflict, invalid } from '../../platform/http/http-errors.js';
import { verifyPassword } from '../../platform/security/passwords.js';
import { digestKey, newTokenKey, randomString } from '../../platform/security/secrets.js';
import type { ServerKeys } from '../../platform/security/server-key.js';
import type { UserRow } from '../users/users.queries.js';
import {
  DATABASE_KEY_FORMAT,
  decryptSecret,
  encryptSecret,
  underDatabaseKey,
} from '../../platform/security/key-encryption.js';
import { isReplayedTotp, matchTotp } from './totp.js';
import { twoFactorEnabled } from './auth-access.js';

/**
 * The app_secrets row whose key encrypted two-step keys before the server secret existed
 * (format v1, totp.ts): a copy of the database held it beside the keys. Kept only while a
 * stored key still needs it, never made anew.
 */
export const DATABASE_KEY_NAME = 'two-factor-key';

const storedUnderDatabaseKey = like(userTwoFactor.secretEncrypted, `${DATABASE_KEY_FORMAT}.%`);

async function databaseKey(db: Tx): Promise<Buffer | null> {
  const [row] = await db
    .select({ value: appSecrets.value })
    .from(appSecrets)
    .where(eq(appSecrets.name, DATABASE_KEY_NAME));
  return row ? Buffer.from(row.value, 'hex') : null;
}

/** Deletes the database key once no stored key is under it. */
async function dropDatabaseKeyWhenUnused(db: Tx): Promise<void> {
  await db.delete(appSecrets).where(
    and(
      eq(appSecrets.name, DATABASE_KEY_NAME),
      notExists(
        db
          .select({ one: sql`1` })
          .from(userTwoFactor)
          .where(storedUnderDatabaseKey),
      ),
    ),
  );
}

/**
 * The two-step key of a row its caller holds FOR UPDATE. One still under the database key
 * (a process of an older version, during an upgrade, may have written it after this one's
 * start moved the others) is moved to the server key as it is read.
 */
async function readTotpKey(
  db: Tx,
  row: { userId: number; secretEncrypted: string },
  keys: ServerKeys,
): Promise<Buffer> {
  if (!underDatabaseKey(row.secretEncrypted)) {
    return decryptSecret(keys.twoFactorKey, row.secretEncrypted);
  }
  const old = await databaseKey(db);
  if (!old) {
    throw new Error(
      `The two-step verification key of user ${row.userId} is under the database key (${DATABASE_KEY_NAME}), which is gone.`,
    );
  }
  const secret = decryptSecret(old, row.secretEncrypted);
  await db
    .update(userTwoFactor)
    .set({ secretEncrypted: encryptSecret(keys.twoFactorKey, secret) })
    .where(eq(userTwoFactor.userId, row.userId));
  await dropDatabaseKeyWhenUnused(db);
  return secret;
}

/**
 * Run at each start (buildApp): every two-step key still under the database key is
 * re-encrypted under the server key, and the database key deleted once none needs it; all
 * in one transaction, which locks the database key's row first, so that of two processes
 * starting together one moves the keys and the other then finds the row gone. Null when
 * there was nothing to do; keys that do not decrypt (already unusable) stay as they are.
 */
export async function moveTwoFactorKeysToServerKey(
  db: Tx,
  keys: ServerKeys,
): Promise<{ moved: number; unreadable: number } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ value: appSecrets.value })
      .from(appSecrets)
      .where(eq(appSecrets.name, DATABASE_KEY_NAME))
      .for('update');
    if (!row) return null;
    const old = Buffer.from(row.value, 'hex');
    const stored = await tx
      .select({ userId: userTwoFactor.userId, secretEncrypted: userTwoFactor.secretEncrypted })
      .from(userTwoFactor)
      .where(storedUnderDatabaseKey)
      .for('update');
    let moved = 0;
    for (const { userId, secretEncrypted } of stored) {
      let secret: Buffer;
      try {
        secret = decryptSecret(old, secretEncrypted);
      } catch {
        continue;
      }
      await tx
        .update(userTwoFactor)
        .set({ secretEncrypted: encryptSecret(keys.twoFactorKey, secret) })
        .where(eq(userTwoFactor.userId, userId));
      moved += 1;
    }
    await dropDatabaseKeyWhenUnused(tx);
    return { moved, unreadable: stored.length - moved };
  });
}

/** Whether logging in as the user asks for a code after the password. */
export async function twoFactorStatusOf(db: Tx, userId: number): Promise<TwoFactorStatus> {
  const [row] = await db
    .select({ enabledAt: userTwoFactor.enabledAt })
    .from(userTwoFactor)
    .where(eq(userTwoFactor.userId, userId));
  const codes = row?.enabledAt
    ? await db
        .select({ id: twoFactorRecoveryCodes.id })
        .from(twoFactorRecoveryCodes)
        .where(
          and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)),
        )
    : [];
  const [keys] = await db
    .select({ n: count() })
    .from(securityKeys)
    .where(eq(securityKeys.userId, userId));
  return {
    enabled: Boolean(row?.enabledAt),
    enabledAt: row?.enabledAt?.toISOString() ?? null,
    recoveryCodesLeft: codes.length,
    securityKeys: keys?.n ?? 0,
  };
}

/**
 * The current password again before anything about the second step changes (ASVS V2.8.x:
 * whoever walks up to an open session must not be able to take over the second factor).
 * Adding a security key asks for it too (security-keys.service.ts).
 */
export async function requirePassword(
  user: UserRow,
  password: string,
  keys: ServerKeys,
): Promise<void> {
  if (user.isAaf || user.passwordHash === null) {
    throw invalid({ password: [twoFactorMessages.federated] }, twoFactorMessages.federated);
  }
  if (!(await verifyPassword(user.passwordHash, password, keys.passwordPepper))) {
    throw invalid({ password: [twoFactorMessages.wrongPassword] });
  }
}

/**
 * Starts turning two-step verification on: a new random key, stored (encrypted) but not
 * yet in force, as text and as the otpauth:// URI for the app. Starting again replaces a
 * setup that was never confirmed.
 */
export async function startSetup(
  db: Tx,
  user: UserRow,
  password: string,
  now: Date,
  keys: ServerKeys,
): Promise<{ secret: string; otpauthUri: string }> {
  await requirePassword(user, password, keys);
  const [existing] = await db
    .select({ enabledAt: userTwoFactor.enabledAt })
    .from(userTwoFactor)
    .where(eq(userTwoFactor.userId, user.id))
    .for('update');
  if (existing?.enabledAt) throw conflict(twoFactorMessages.alreadyEnabled);
  const secret = randomBytes(TOTP_SECRET_BYTES);
  const values = {
    secretEncrypted: encryptSecret(keys.twoFactorKey, secret),
    createdAt: now,
    enabledAt: null,
    lastStep: null,
  };
  await db
    .insert(userTwoFactor)
    .values({ userId: user.id, ...values })
    .onConflictDoUpdate({ target: userTwoFactor.userId, set: values });
  const text = base32Encode(secret);
  return { secret: text, otpauthUri: otpauthUri(user.username, text) };
}

/**
 * Turns two-step verification on once the app shows it holds the key (a right code), and
 * returns the recovery codes: shown this once, kept only as digests.
 */
export async function confirmSetup(
  db: Tx,
  userId: number,
  code: string,
  now: Date,
  keys: ServerKeys,
): Promise<string[]> {
  const [row] = await db
    .select()
    .from(userTwoFactor)
    .where(eq(userTwoFactor.userId, userId))
    .for('update');
  if (row?.enabledAt) throw conflict(twoFactorMessages.alreadyEnabled);
  if (!row || now.getTime() - row.createdAt.getTime() >= TWO_FACTOR_SETUP_TTL_MS) {
    throw conflict(twoFactorMessages.notStarted);
  }
  const typed = normalizeCode(code);
  const secret = await readTotpKey(db, row, keys);
  const step = isTotpCode(typed) ? matchTotp(secret, typed, now, null) : null;
  if (step === null) throw invalid({ code: [twoFactorMessages.wrongEnrolmentCode] });
  await db
    .update(userTwoFactor)
    .set({ enabledAt: now, lastStep: step })
    .where(eq(userTwoFactor.userId, userId));
  return replaceRecoveryCodes(db, userId);
}

async function replaceRecoveryCodes(db: Tx, userId: number): Promise<string[]> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    randomString(2 * RECOVERY_CODE_GROUP, RECOVERY_CODE_ALPHABET),
  );
  await db
    .insert(twoFactorRecoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: digestKey(code) })));
  return codes.map(formatRecoveryCode);
}

/**
 * What a second-step code was: an authenticator code not used before, or an unused recovery
 * code (both accepted); an authenticator code already used (`replayed`, refused); or
 * neither (null, refused).
 */
export type SecondFactorCheck = 'totp' | 'recovery' | 'replayed' | null;

/** Whether a check let the code through. */
export const secondFactorAccepted = (check: SecondFactorCheck): check is 'totp' | 'recovery' =>
  check === 'totp' || check === 'recovery';

/**
 * Checks a second-step code of a user who has two-step verification on: an authenticator
 * code not used before, or an unused recovery code (which is then used up). The user's row
 * is locked, so two requests with one code cannot both pass.
 */
export async function checkSecondFactor(
  db: Tx,
  userId: number,
  code: string,
  now: Date,
  keys: ServerKeys,
): Promise<SecondFactorCheck> {
  const [row] = await db
    .select()
    .from(userTwoFactor)
    .where(eq(userTwoFactor.userId, userId))
    .for('update');
  if (!row?.enabledAt) return null;
  const typed = normalizeCode(code);
  if (isTotpCode(typed)) {
    const secret = await readTotpKey(db, row, keys);
    const step = matchTotp(secret, typed, now, row.lastStep);
    if (step === null) return isReplayedTotp(secret, typed, now, row.lastStep) ? 'replayed' : null;
    await db.update(userTwoFactor).set({ lastStep: step }).where(eq(userTwoFactor.userId, userId));
    return 'totp';
  }
  if (!isRecoveryCode(typed)) return null;
  // The digest is looked up, not compared in code: a database index lookup of a SHA-256
  // digest says nothing useful about the code by its timing.
  const used = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, digestKey(typed)),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return used.length > 0 ? 'recovery' : null;
}

/**
 * Turns two-step verification off: needs the password and a code (or a recovery code).
 * The security keys go too: without the recovery codes a lost key would lock the account
 * (security-keys.service.ts). Returns how the code was given and the ids of the keys removed.
 */
export async function disableTwoFactor(
  db: Tx,
  user: UserRow,
  input: { password: string; code: string },
  now: Date,
  keys: ServerKeys,
): Promise<{ used: 'totp' | 'recovery'; securityKeysRemoved: number[] }> {
  await requirePassword(user, input.password, keys);
  if (!(await twoFactorEnabled(db, user.id))) throw conflict(twoFactorMessages.notEnabled);
  const used = await checkSecondFactor(db, user.id, input.code, now, keys);
  if (!secondFactorAccepted(used)) throw invalid({ code: [twoFactorMessages.wrongCode] });
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
  await db.delete(userTwoFactor).where(eq(userTwoFactor.userId, user.id));
  await db.delete(securityKeyChallenges).where(eq(securityKeyChallenges.userId, user.id));
  const removed = await db
    .delete(securityKeys)
    .where(eq(securityKeys.userId, user.id))
    .returning({ id: securityKeys.id });
  return { used, securityKeysRemoved: removed.map((row) => row.id) };
}

/** A ticket for the second step of a login whose password was right. */
export async function issueTicket(db: Tx, userId: number, now: Date): Promise<string> {
  // Tickets that ran out are dropped as new ones are made, so the table stays small.
  await db.delete(twoFactorTickets).where(lt(twoFactorTickets.expiresAt, now));
  const ticket = newTokenKey();
  await db.insert(twoFactorTickets).values({
    ticketHash: digestKey(ticket),
    userId,
    expiresAt: new Date(now.getTime() + TWO_FACTOR_TICKET_TTL_MS),
  });
  return ticket;
}

/** The user a live ticket is for (unexpired, under its wrong codes), or null. */
export async function ticketUser(db: Tx, ticket: string, now: Date): Promise<number | null> {
  const [row] = await db
    .select({ userId: twoFactorTickets.userId })
    .from(twoFactorTickets)
    .where(
      and(
        eq(twoFactorTickets.ticketHash, digestKey(ticket)),
        gt(twoFactorTickets.expiresAt, now),
        lt(twoFactorTickets.failures, TWO_FACTOR_TICKET_MAX_FAILURES),
      ),
    )
    .for('update');
  return row?.userId ?? null;
}

/** A right code: the ticket is spent. */
export async function spendTicket(db: Tx, ticket: string): Promise<void> {
  await db.delete(twoFactorTickets).where(eq(twoFactorTickets.ticketHash, digestKey(ticket)));
}

/** A wrong code: counted, and the ticket ends at its last allowed failure. */
export async function countTicketFailure(db: Tx, ticket: string): Promise<void> {
  const [row] = await db
    .update(twoFactorTickets)
    .set({ failures: sql`${twoFactorTickets.failures} + 1` })
    .where(eq(twoFactorTickets.ticketHash, digestKey(ticket)))
    .returning({ failures: twoFactorTickets.failures });
  if (row && row.failures >= TWO_FACTOR_TICKET_MAX_FAILURES) await spendTicket(db, ticket);
}
