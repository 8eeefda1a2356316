import { messages } from '@merit/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { notAuthenticated } from '../../platform/http/http-errors.js';
import { hashPassword, needsRehash } from '../../platform/security/passwords.js';
import { newUserHash } from '../../platform/security/secrets.js';

/*
 * The users module's face: an account's row, found, loaded for its owner, created, and its
 * password hash brought up to date. Every module that knows accounts reads them here.
 */

export type UserRow = typeof users.$inferSelect;
export type NewUser = Omit<typeof users.$inferInsert, 'id' | 'hash' | 'passwordHash'> & {
  password?: string | null;
};

export async function findUserByUsername(db: Tx, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .limit(1);
  return row;
}

export async function findUserById(db: Tx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The caller's own row; a user deleted since their token was checked is simply logged out. */
export async function loadSelf(tx: Tx, id: number): Promise<UserRow> {
  const user = await findUserById(tx, id);
  if (!user) throw notAuthenticated(messages.notAuthenticated);
  return user;
}

/**
 * Inserts a user with a fresh unique collaborator hash and the password hashed with the
 * server's pepper (`app.keys.passwordPepper`), which a user with a password needs.
 */
export async function createUser(db: Tx, input: NewUser, pepper?: Uint8Array): Promise<UserRow> {
  const { password, ...rest } = input;
  if (password && !pepper) throw new Error('createUser needs the password pepper for a password.');
  const passwordHash = password ? await hashPassword(password, pepper!) : null;
  // 57^10 possible hashes make a clash vanishingly rare; retrying keeps it harmless.
  for (let attempt = 0; ; attempt += 1) {
    const hash = newUserHash();
    const taken = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.hash, hash))
      .limit(1);
    if (taken.length > 0 && attempt < 5) continue;
    const [row] = await db
      .insert(users)
      .values({ ...rest, hash, passwordHash })
      .returning();
    return row!;
  }
}

/**
 * After a login proved `password`: a hash made before the pepper or with older Argon2
 * parameters is replaced by one made now (platform/security/passwords.ts `needsRehash`). Only if the
 * stored hash is still the one that was checked, so a password changed meanwhile stays.
 */
export async function upgradePasswordHash(
  db: Tx,
  user: Pick<UserRow, 'id' | 'passwordHash'>,
  password: string,
  pepper: Uint8Array,
): Promise<boolean> {
  if (user.passwordHash === null || !needsRehash(user.passwordHash)) return false;
  const updated = await db
    .update(users)
    .set({ passwordHash: await hashPassword(password, pepper) })
    .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
    .returning({ id: users.id });
  return updated.length > 0;
}
