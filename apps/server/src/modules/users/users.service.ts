import { personName } from '@merit/domain';
import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { authorize } from '../../platform/http/authorize.js';
import { hashPassword } from '../../platform/security/passwords.js';
import { newPassword } from '../../platform/security/secrets.js';
import { containing } from '../../platform/data/sql.js';
import type { ReadWork } from '../../platform/data/work.js';
import { createUser, findUserByUsername, type UserRow } from './users.queries.js';

// A fixed number shared by every process: first-admin creation runs under this lock so
// two processes starting on an empty database cannot both create one.
const FIRST_ADMIN_LOCK_ID = 727_100_002;

export interface AdminInput {
  username: string;
  email: string;
  password: string;
}

/**
 * Creates the admin, or, when the username exists, resets that account to a verified,
 * active admin with this email and password. Used by `npm run create-admin`.
 */
export async function upsertAdmin(
  db: Tx,
  input: AdminInput,
  pepper: Uint8Array,
): Promise<{ user: UserRow; created: boolean }> {
  const existing = await findUserByUsername(db, input.username);
  if (existing) {
    const [user] = await db
      .update(users)
      .set({
        email: input.email,
        passwordHash: await hashPassword(input.password, pepper),
        isAdmin: true,
        isActive: true,
        emailVerified: true,
        updatedAt: new Date(),
      })
      .where(eq(users.id, existing.id))
      .returning();
    return { user: user!, created: false };
  }
  const user = await createUser(
    db,
    {
      username: input.username,
      email: input.email,
      password: input.password,
      isAdmin: true,
      emailVerified: true,
      registrationComplete: true,
    },
    pepper,
  );
  return { user, created: true };
}

/**
 * On an empty database, creates the first admin: from INITIAL_ADMIN_* when set,
 * otherwise `admin` with a random password that the caller shows once.
 * Returns the generated password, or null when nothing was generated.
 */
export async function ensureFirstAdmin(
  db: Tx,
  configured: AdminInput | undefined,
  pepper: Uint8Array,
): Promise<{ username: string; password: string | null } | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK_ID})`);
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(users);
    if (count > 0) return null;
    if (configured) {
      await upsertAdmin(tx, configured, pepper);
      return { username: configured.username, password: null };
    }
    const password = newPassword();
    await upsertAdmin(tx, { username: 'admin', email: 'admin@merit.invalid', password }, pepper);
    return { username: 'admin', password };
  });
}

/**
 * Active users whose name or username contains `q` (any case), for a chair picking someone
 * for an extension; at most 20. An email is matched, and shown, only when `q` is that
 * whole address: the picker must not let anyone collect addresses a few letters at a time.
 * Only those who grant extensions may ask (`global.lookUpUsers`).
 */
export async function lookUpUsers({ tx, actor, now }: ReadWork, q: string) {
  authorize(actor, 'global.lookUpUsers', null, now);
  const pattern = containing(q);
  const exactEmail = eq(sql`lower(${users.email})`, q.toLowerCase());
  const rows = await tx
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      email: users.email,
      emailMatched: sql<boolean>`${exactEmail}`,
    })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        or(
          ilike(users.username, pattern),
          ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
          exactEmail,
        ),
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.username))
    .limit(20);
  return rows.map((r) => ({
    id: r.id,
    name: personName(r.firstName, r.lastName, r.username),
    username: r.username,
    email: r.emailMatched ? r.email : null,
  }));
}
