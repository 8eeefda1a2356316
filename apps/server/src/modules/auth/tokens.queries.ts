import {
  isTokenLive,
  tokenNeedsTouch,
  USER_AGENT_MAX_LENGTH,
  type CommitteeRoleName,
  type LoginMethod,
  type SessionPolicy,
} from '@merit/domain';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { authTokens, committeeRoles, users } from '../../db/schema.js';
import { digestKey, newTokenKey } from '../../platform/security/secrets.js';
import { runNamed } from '../../platform/data/sql.js';
import type { AuthUser } from '../../platform/http/app-types.js';

/** What a login says about itself, for the user's list of their sessions. */
export interface LoginDetails {
  method: LoginMethod;
  userAgent: string | undefined;
}

/**
 * Issues a token for one login and returns its key; only the key's digest is stored.
 * Tokens made without `details` (fixtures, tools) list as an unknown client.
 */
export async function issueToken(
  db: Tx,
  userId: number,
  now: Date,
  details?: LoginDetails,
): Promise<string> {
  const key = newTokenKey();
  await db.insert(authTokens).values({
    userId,
    keyHash: digestKey(key),
    createdAt: now,
    lastUsedAt: now,
    userAgent: details?.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) || null,
    loginMethod: details?.method ?? null,
  });
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
export async function authenticateKey(
  db: Tx,
  key: string,
  policy: SessionPolicy,
  now: Date,
): Promise<AuthUser | null> {
  const [row] = await runNamed(
    'user_by_token',
    db
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
      .limit(1),
  );
  if (!row || !row.isActive || !isTokenLive(row, policy, now)) return null;
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

/** One of a user's live sessions, as the session list shows it. */
export interface SessionRow {
  id: number;
  createdAt: Date;
  lastUsedAt: Date;
  userAgent: string | null;
  loginMethod: string | null;
}

/**
 * A user's live sessions, the most recently used first. The cut-offs in SQL skip the
 * rows that are plainly over (revoked, idle or old); `isTokenLive` then decides each
 * one, so the list agrees with the check every request makes.
 */
export async function liveSessions(
  db: Tx,
  userId: number,
  policy: SessionPolicy,
  now: Date,
): Promise<SessionRow[]> {
  const rows = await db
    .select({
      id: authTokens.id,
      createdAt: authTokens.createdAt,
      lastUsedAt: authTokens.lastUsedAt,
      revokedAt: authTokens.revokedAt,
      userAgent: authTokens.userAgent,
      loginMethod: authTokens.loginMethod,
    })
    .from(authTokens)
    .where(
      and(
        eq(authTokens.userId, userId),
        isNull(authTokens.revokedAt),
        gt(authTokens.createdAt, new Date(now.getTime() - policy.absoluteMs)),
        gt(authTokens.lastUsedAt, new Date(now.getTime() - policy.idleMs)),
      ),
    )
    .orderBy(desc(authTokens.lastUsedAt), desc(authTokens.id));
  return rows
    .filter((row) => isTokenLive(row, policy, now))
    .map(({ revokedAt: _revoked, ...row }) => row);
}

/**
 * Ends one session of the user's, by its id. Only their own live sessions can be ended:
 * another user's, an unknown id and one already over are all "not found" (false), so
 * the answer does not tell which ids exist.
 */
export async function endSession(
  db: Tx,
  userId: number,
  tokenId: number,
  policy: SessionPolicy,
  now: Date,
): Promise<boolean> {
  const [token] = await db
    .select({
      userId: authTokens.userId,
      createdAt: authTokens.createdAt,
      lastUsedAt: authTokens.lastUsedAt,
      revokedAt: authTokens.revokedAt,
    })
    .from(authTokens)
    .where(eq(authTokens.id, tokenId))
    .for('update');
  if (!token || token.userId !== userId || !isTokenLive(token, policy, now)) return false;
  await revokeToken(db, tokenId, now);
  return true;
}

/** Ends every live session of the user but `keepTokenId`; returns the ids it ended. */
export async function endOtherSessions(
  db: Tx,
  userId: number,
  keepTokenId: number,
  policy: SessionPolicy,
  now: Date,
): Promise<number[]> {
  const ended = (await liveSessions(db, userId, policy, now))
    .map((session) => session.id)
    .filter((id) => id !== keepTokenId)
    .sort((a, b) => a - b);
  // Expired ones go too: nothing could bring them back, and the list stays what it says.
  await revokeUserTokens(db, userId, now, keepTokenId);
  return ended;
}
