import {
  detailResponse,
  errorBody,
  errorCodes,
  loginRequest,
  loginResponse,
} from '@merit/contract';
import { messages } from '@merit/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest } from '../../lib/http-errors.js';
import { verifyPassword } from '../../lib/passwords.js';
import { checkLoginLockout, clearLoginFailures, recordLoginFailure } from '../../lib/rate-limit.js';
import { findUserByUsername } from '../users/users.service.js';
import { issueToken, revokeToken } from './tokens.js';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/login/',
    {
      config: { access: 'public', authRateLimit: true },
      schema: {
        tags: ['auth'],
        summary: 'Log in with username and password; returns a token key',
        body: loginRequest,
        response: { 200: loginResponse, 400: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      const { username, password } = request.body;
      const now = app.now();
      // Checked before the password, so guessing on stops even when a guess is right.
      await checkLoginLockout(app.db, username, now);
      const user = await findUserByUsername(app.db, username);
      // One message for an unknown user, a wrong password and a deactivated account,
      // so the answer does not tell which usernames exist.
      const passwordOk = await verifyPassword(user?.passwordHash ?? null, password);
      if (!user || !passwordOk || !user.isActive) {
        await recordLoginFailure(app.db, username, now);
        throw badRequest(messages.invalidCredentials, undefined, errorCodes.invalidCredentials);
      }
      await clearLoginFailures(app.db, username);
      if (!user.emailVerified) {
        throw badRequest(messages.emailNotVerified, undefined, errorCodes.emailNotVerified);
      }
      return { key: await issueToken(app.db, user.id, now) };
    },
  );

  app.post(
    '/auth/logout/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke the token this request was sent with',
        response: { 200: detailResponse, 401: errorBody },
      },
    },
    async (request) => {
      await revokeToken(app.db, request.user!.tokenId, app.now());
      return { detail: 'Successfully logged out.' };
    },
  );
};
