import {
  detailResponse,
  endOtherSessionsResponse,
  errorBody,
  errorCodes,
  idParams,
  loginAnswer,
  loginRequest,
  noContent,
  sessionList,
  type SessionInfo,
} from '@merit/contract';
import { describeUserAgent, LOGIN_METHODS, messages, type LoginMethod } from '@merit/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest, HttpError, notFound } from '../../platform/http/http-errors.js';
import { verifyPassword } from '../../platform/security/passwords.js';
import { clientKey } from '../../platform/security/client-address.js';
import { admitLoginAttempt, clearLoginAttempts } from '../../platform/security/login-throttle.js';
import { findUserByUsername, upgradePasswordHash } from '../users/users.queries.js';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import {
  endOtherSessions,
  endSession,
  issueToken,
  liveSessions,
  revokeToken,
  type SessionRow,
} from './tokens.queries.js';
import { countSecurityKeys } from './security-keys.service.js';
import { twoFactorEnabled } from './auth-access.js';
import { issueTicket } from './two-factor.service.js';

/** One row of the session list; the token's own key and digest never leave the server. */
function presentSession(row: SessionRow, currentTokenId: number): SessionInfo {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    client: describeUserAgent(row.userAgent),
    method: (LOGIN_METHODS as readonly string[]).includes(row.loginMethod ?? '')
      ? (row.loginMethod as LoginMethod)
      : null,
    current: row.id === currentTokenId,
  };
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/login/',
    {
      config: { access: 'public', authRateLimit: true },
      schema: {
        tags: ['auth'],
        summary: 'Log in with username and password; returns a token key',
        description:
          'After a few attempts for one username, each further attempt needs `captcha`, a solved challenge of GET /auth/captcha/ (400 `captcha_required` without it); after more from one address, that address waits (429 with Retry-After). ' +
          'Beyond the spec: for an account with two-step verification on, the right password answers `{ twoFactorRequired: true, ticket, securityKeys }` instead of `{ key }`; POST /auth/login/two-factor/ takes the ticket and a code and answers `{ key }`, and, when `securityKeys` is true, POST /auth/login/security-key/ takes the ticket and a security key’s answer instead. Accounts without it get exactly `{ key }`.',
        body: loginRequest,
        response: { 200: loginAnswer, 400: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      const { username, password, captcha } = request.body;
      const now = app.now();
      const attempt = { username, address: clientKey(request.ip), captcha };
      let userId: number | null = null;
      try {
        // Counted before the password is checked, so guessing stops even when a guess is right.
        // Not one unit of work: the count must stay counted when the login fails.
        await admitLoginAttempt(app.db, app.captcha, attempt, now);
        const user = await findUserByUsername(app.db, username);
        userId = user?.id ?? null;
        // One message for an unknown user, a wrong password and a deactivated account,
        // so the answer does not tell which usernames exist.
        const pepper = app.keys.passwordPepper;
        const passwordOk = await verifyPassword(user?.passwordHash ?? null, password, pepper);
        if (!user || !passwordOk || !user.isActive) {
          throw badRequest(messages.invalidCredentials, undefined, errorCodes.invalidCredentials);
        }
        // A hash from before the pepper (or older parameters) is made anew while the
        // password is at hand: the only moment it is.
        await upgradePasswordHash(app.db, user, password, pepper);
        if (!user.emailVerified) {
          await clearLoginAttempts(app.db, attempt);
          throw badRequest(messages.emailNotVerified, undefined, errorCodes.emailNotVerified);
        }
        if (await twoFactorEnabled(app.db, user.id)) {
          // The attempts stay counted until the code is right too (two-factor.routes.ts).
          const ticket = await issueTicket(app.db, user.id, now);
          const securityKeys = (await countSecurityKeys(app.db, user.id)) > 0;
          return { twoFactorRequired: true as const, ticket, securityKeys };
        }
        await clearLoginAttempts(app.db, attempt);
        const key = await issueToken(app.db, user.id, now, {
          method: 'password',
          userAgent: request.headers['user-agent'],
        });
        logSecurityEvent(request, 'login.succeeded', { userId, method: 'password' });
        return { key };
      } catch (error) {
        // The account when the username names one (the log may say what the answer may not),
        // also when the throttle refused the attempt before the password was looked at.
        userId ??= (await findUserByUsername(app.db, username).catch(() => undefined))?.id ?? null;
        const reason = error instanceof HttpError ? error.code : 'error';
        logSecurityEvent(request, 'login.failed', { userId, reason });
        app.alerts.record('login_failed');
        throw error;
      }
    },
  );

  app.post(
    '/auth/logout/',
    {
      // Anyone with a token may give it up, registration complete or not.
      config: { access: 'registering' },
      schema: {
        tags: ['auth'],
        summary: 'Revoke the token this request was sent with',
        response: { 200: detailResponse, 401: errorBody },
      },
    },
    async (request) => {
      await revokeToken(app.db, request.user!.tokenId, app.now());
      logSecurityEvent(request, 'logout', { userId: request.user!.id });
      return { detail: 'Successfully logged out.' };
    },
  );

  // The caller's own sessions (ASVS V3.3.4). Open to an incomplete registration too, as
  // logout is: ending one's sessions never needs more than the token.
  app.get(
    '/auth/sessions/',
    {
      config: { access: 'registering' },
      schema: {
        tags: ['auth'],
        summary: "The caller's live sessions, the most recently used first",
        description:
          'One per login that has not ended (logged out, ended here, idle or past its maximum age). `current` marks the session this request was sent with.',
        response: { 200: sessionList, 401: errorBody },
      },
    },
    async (request) => {
      const user = request.user!;
      const rows = await liveSessions(app.db, user.id, app.config.session, app.now());
      return rows.map((row) => presentSession(row, user.tokenId));
    },
  );

  app.delete(
    '/auth/sessions/:id/',
    {
      config: { access: 'registering' },
      schema: {
        tags: ['auth'],
        summary: "End one of the caller's sessions",
        description:
          "Its token stops working at once. Ending the session this request was sent with is a logout. Another user's session, an unknown id or one already ended is 404.",
        params: idParams,
        response: { 204: noContent, 401: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const user = request.user!;
      const sessionId = request.params.id;
      const ended = await app.write(request, (work) =>
        endSession(work.tx, user.id, sessionId, app.config.session, work.now),
      );
      if (!ended) throw notFound('No such session: it may have ended already.');
      const reason = sessionId === user.tokenId ? 'this_session' : 'other_session';
      logSecurityEvent(request, 'session.ended', { userId: user.id, sessionId, reason });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/sessions/end-others/',
    {
      config: { access: 'registering' },
      schema: {
        tags: ['auth'],
        summary: "End every session of the caller's but this one",
        response: { 200: endOtherSessionsResponse, 401: errorBody },
      },
    },
    async (request) => {
      const user = request.user!;
      const ended = await app.write(request, (work) =>
        endOtherSessions(work.tx, user.id, user.tokenId, app.config.session, work.now),
      );
      for (const sessionId of ended) {
        logSecurityEvent(request, 'session.ended', {
          userId: user.id,
          sessionId,
          reason: 'other_session',
        });
      }
      return { ended: ended.length };
    },
  );
};
