import { errorCodes } from '@merit/contract';
import {
  administrationOf,
  adminTwoFactorMessages,
  messages,
  type Administration,
  type AdminTwoFactorSetting,
} from '@merit/domain';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Tx } from '../../db/client.js';
import { users, userTwoFactor } from '../../db/schema.js';
import type { RouteAccess } from '../../platform/http/app-types.js';
import { forbidden, HttpError, notAuthenticated } from '../../platform/http/http-errors.js';
import { clientKey } from '../../platform/security/client-address.js';
import { hitRateLimit } from '../../platform/security/rate-limit.js';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { authenticateKey } from './tokens.queries.js';

/*
 * The auth module's face: who is calling and whether they may reach a route (the
 * checkpoint every API route goes through), and what other modules ask about an account's
 * login (whether an admin may administer, whether two-step verification is on).
 */

const SCHEME = /^Token\s+(\S+)\s*$/i;

/** The key from `Authorization: Token <key>`, or null. */
export function tokenKeyFrom(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  return SCHEME.exec(header)?.[1] ?? null;
}

export const registrationIncompleteMessage =
  'Complete your registration first: add your institution, gender and phone number.';

/**
 * Lets the caller in, or refuses them, by the route's access level: sets `request.user`
 * from `key` (when there is one) and throws 401 or 403 when the level asks for more.
 * The auth hook calls it for every route; a route that takes its token in a multipart
 * field (the spec's upload endpoints) calls it once it has read that field.
 */
export async function admit(
  scope: FastifyInstance,
  request: FastifyRequest,
  key: string | null,
  access: RouteAccess,
): Promise<void> {
  if (key) request.user = await authenticateKey(scope.db, key, scope.config.session, scope.now());
  if (request.user?.isAdmin) {
    const administration = await administrationOfUser(
      scope.db,
      scope.config.adminTwoFactor,
      request.user,
    );
    // Until they turn on two-step verification, the admin flag gives them nothing: not
    // the admin routes, and not an admin's standing as chair and member everywhere.
    if (administration === 'needs-two-factor')
      request.user = { ...request.user, isAdmin: false, adminNeedsTwoFactor: true };
  }
  if (access === 'public') return;
  if (!request.user) throw notAuthenticated(messages.notAuthenticated);
  if (access !== 'registering' && !request.user.registrationComplete)
    throw new HttpError(403, errorCodes.registrationIncomplete, registrationIncompleteMessage);
  if (access === 'admin' && request.user.adminNeedsTwoFactor) throw adminTwoFactorRequired();
  if (access === 'admin' && !request.user.isAdmin) throw forbidden(messages.noPermission);
}

/**
 * The one checkpoint for "who is calling and may they reach this route at all".
 * Routes are closed by default: a route must say `config: { access: 'public' }` to be
 * open to anonymous callers, and `'registering'` to be open to an account whose
 * registration is incomplete, so a forgotten setting fails safe. A route with
 * `tokenInQuery` also takes the token as the `token` query parameter, as the spec's
 * download links send it.
 */
export function registerAuth(scope: FastifyInstance): void {
  scope.addHook('onRequest', async (request) => {
    const { access = 'user', authRateLimit, tokenInQuery } = request.routeOptions.config;
    if (authRateLimit) {
      await hitRateLimit(
        scope.db,
        `auth-ip:${clientKey(request.ip)}`,
        scope.config.authRateLimitPerIp,
        scope.now(),
      );
    }
    const queryToken = tokenInQuery ? (request.query as { token?: unknown }).token : undefined;
    const key = tokenKeyFrom(request) ?? (typeof queryToken === 'string' ? queryToken : null);
    await admit(scope, request, key, access);
  });
  // Every refusal, whichever check made it (here or a service's rule), with the account.
  scope.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode !== 401 && reply.statusCode !== 403) return;
    logSecurityEvent(request, 'access.refused', {
      userId: request.user?.id ?? null,
      statusCode: reply.statusCode,
    });
  });
}

/**
 * Whether an admin may administer now (ADMIN_TWO_FACTOR, ASVS V4.3.1), by the domain's
 * rule on their account as it is now: turning two-step verification on counts from the
 * next request, with no new login.
 */
export async function administrationOfUser(
  db: Tx,
  setting: AdminTwoFactorSetting,
  user: { id: number; isAdmin: boolean },
): Promise<Administration> {
  // With the setting optional, or for anyone not an admin, the account's two-step state
  // cannot change the answer: no query on the way of ordinary requests.
  if (!user.isAdmin || setting === 'optional')
    return administrationOf(
      { isAdmin: user.isAdmin, hasPassword: false, twoFactorEnabled: false },
      setting,
    );
  const [row] = await db
    .select({
      hasPassword: sql<boolean>`${users.passwordHash} is not null`,
      enabledAt: userTwoFactor.enabledAt,
    })
    .from(users)
    .leftJoin(userTwoFactor, eq(userTwoFactor.userId, users.id))
    .where(eq(users.id, user.id));
  return administrationOf(
    {
      isAdmin: true,
      // A row gone since the token was read: no password to protect, and nothing to allow.
      hasPassword: row?.hasPassword ?? true,
      twoFactorEnabled: Boolean(row?.enabledAt),
    },
    setting,
  );
}

/** The 403 an admin route answers an admin who must turn on two-step verification first. */
export const adminTwoFactorRequired = () =>
  new HttpError(403, errorCodes.adminTwoFactorRequired, adminTwoFactorMessages.required);

/** Whether the account has two-step verification turned on (not only set up). */
export async function twoFactorEnabled(db: Tx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ enabledAt: userTwoFactor.enabledAt })
    .from(userTwoFactor)
    .where(eq(userTwoFactor.userId, userId));
  return Boolean(row?.enabledAt);
}
