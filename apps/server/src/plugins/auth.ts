import { errorCodes } from '@merit/contract';
import { messages } from '@merit/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, HttpError, notAuthenticated } from '../lib/http-errors.js';
import { administrationOfUser, adminTwoFactorRequired } from '../modules/auth/admin-two-factor.js';
import { logSecurityEvent } from '../modules/auth/security-log.js';
import { authenticateKey } from '../modules/auth/tokens.js';
import { clientKey } from '../lib/client-address.js';
import { hitRateLimit } from '../lib/rate-limit.js';
import type { RouteAccess } from '../types.js';

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
    logSecurityEvent(request.log, 'access.refused', {
      userId: request.user?.id ?? null,
      statusCode: reply.statusCode,
    });
  });
}
