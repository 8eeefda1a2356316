import { isTokenLive, tokenNeedsTouch, type CommitteeRoleName } from '@merit/domain';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { authTokens, committeeRoles, users } from '../../db/schema.js';
import { digestKey, newTokenKey } from '../../lib/secrets.js';
import type { AuthUser } from '../../types.js';

/** Issues a token for one login and returns its key; only the key's digest is stored. */
export async function issueToken(db: Tx, userId: number, now: Date): Promise<string> {
  const key = newTokenKey();
  await db
    .insert(authTokens)
    .values({ userId, keyHash: digestKey(key), createdAt: now, lastUsedAt: now });
  return key;
}

/** A user's committee roles as one JSON array, beside their token in the same query. */
const rolesSql = sql<
  { committeeId: number; role: string; commencement: string; termination: string }[]
>`(
  select coalesce(json_agg(json_build_object('committeeId', ${committeeRoles.committeeId},
      'role', ${committeeRoles.role}, 'commencement', ${committeeRoles.commencement},
      'termination', ${committeeRoles.termination}) order by ${committeeRoles.id}), '[]'::json)
  from ${committeeRoles}
  where ${committeeRoles.userId} = ${users.id})`;

/**
 * The user a key belongs to, with their committee roles (so a read needs no second query
 * for them), or null when the key is unknown, expired, revoked or the user inactive.
 */
export async function authenticateKey(db: Tx, key: string, now: Date): Promise<AuthUser | null> {
  const [row] = await db
    .select({
      tokenId: authTokens.id,
      createdAt: authTokens.createdAt,
      lastUsedAt: authTokens.lastUsedAt,
      revokedAt: authTokens.revokedAt,
      id: users.id,
      username: users.username,
      isAdmin: users.isAdmin,
      isActive: users.isActive,
      registrationComplete: users.registrationComplete,
      roles: rolesSql,
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(eq(authTokens.keyHash, digestKey(key)))
    .limit(1);
  if (!row || !row.isActive || !isTokenLive(row, now)) return null;
  if (tokenNeedsTouch(row, now)) {
    await db.update(authTokens).set({ lastUsedAt: now }).where(eq(authTokens.id, row.tokenId));
  }
  return {
    id: row.id,
    username: row.username,
    isAdmin: row.isAdmin,
    registrationComplete: row.registrationComplete,
    tokenId: row.tokenId,
    roles: row.roles.map((r) => ({
      committeeId: r.committeeId,
      role: r.role as CommitteeRoleName,
      commencement: new Date(r.commencement),
      termination: new Date(r.termination),
    })),
  };
}

export async function revokeToken(db: Tx, tokenId: number, now: Date): Promise<void> {
  await db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(and(eq(authTokens.id, tokenId), isNull(authTokens.revokedAt)));
}

/** Revokes every live token of a user, except `keepTokenId` when given (password change). */
export async function revokeUserTokens(
  db: Tx,
  userId: number,
  now: Date,
  keepTokenId?: number,
): Promise<void> {
  const conditions = [eq(authTokens.userId, userId), isNull(authTokens.revokedAt)];
  if (keepTokenId !== undefined) conditions.push(ne(authTokens.id, keepTokenId));
  await db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(and(...conditions));
}
