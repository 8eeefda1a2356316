import {
  detailResponse,
  errorBody,
  errorCodes,
  loginRequest,
  loginResponse,
} from '@merit/contract';
import { messages } from '@merit/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest, HttpError } from '../../lib/http-errors.js';
import { verifyPassword } from '../../lib/passwords.js';
import { clientKey } from '../../lib/client-address.js';
import { admitLoginAttempt, clearLoginAttempts } from '../../lib/login-throttle.js';
import { findUserByUsername } from '../users/users.service.js';
import { logSecurityEvent } from './security-log.js';
import { issueToken, revokeToken } from './tokens.js';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/login/',
    {
      config: { access: 'public', authRateLimit: true },
      schema: {
        tags: ['auth'],
        summary: 'Log in with username and password; returns a token key',
        description:
          'After a few attempts for one username, each further attempt needs `captcha`, a solved challenge of GET /auth/captcha/ (400 `captcha_required` without it); after more from one address, that address waits (429 with Retry-After).',
        body: loginRequest,
        response: { 200: loginResponse, 400: errorBody, 429: errorBody },
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
        const passwordOk = await verifyPassword(user?.passwordHash ?? null, password);
        if (!user || !passwordOk || !user.isActive) {
          throw badRequest(messages.invalidCredentials, undefined, errorCodes.invalidCredentials);
        }
        await clearLoginAttempts(app.db, attempt);
        if (!user.emailVerified) {
          throw badRequest(messages.emailNotVerified, undefined, errorCodes.emailNotVerified);
        }
        const key = await issueToken(app.db, user.id, now);
        logSecurityEvent(request.log, 'login.succeeded', { userId });
        return { key };
      } catch (error) {
        // The account when the username names one (the log may say what the answer may not),
        // also when the throttle refused the attempt before the password was looked at.
        userId ??= (await findUserByUsername(app.db, username).catch(() => undefined))?.id ?? null;
        const reason = error instanceof HttpError ? error.code : 'error';
        logSecurityEvent(request.log, 'login.failed', { userId, reason });
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
      logSecurityEvent(request.log, 'logout', { userId: request.user!.id });
      return { detail: 'Successfully logged out.' };
    },
  );
};
