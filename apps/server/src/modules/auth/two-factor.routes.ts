import {
  errorBody,
  errorCodes,
  loginResponse,
  noContent,
  recoveryCodesResponse,
  twoFactorConfirmRequest,
  twoFactorDisableRequest,
  twoFactorLoginRequest,
  twoFactorSetupRequest,
  twoFactorSetupResponse,
  twoFactorStatus,
} from '@merit/contract';
import { twoFactorMessages } from '@merit/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { enqueueMail } from '../../platform/io/mail-job.js';
import { badRequest } from '../../platform/http/http-errors.js';
import { loadSelf } from '../users/users.queries.js';
import type { UserRow } from '../users/users.queries.js';
import { takeSecondStep } from './second-step.js';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { twoFactorChangedMail, twoFactorReplayedMail } from './two-factor.mails.js';
import {
  checkSecondFactor,
  secondFactorAccepted,
  confirmSetup,
  disableTwoFactor,
  startSetup,
  twoFactorStatusOf,
} from './two-factor.service.js';

/**
 * Two-step verification with an authenticator app (TOTP, RFC 6238), beyond the spec and
 * optional for each user: turning it on and off on one's own account, and the second step
 * of a password login. Federated logins never reach it: their provider has its own.
 */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const resetLink = `${app.config.publicUrl}/auth/password-reset/`;
  /** Queued in the change's transaction: the mail goes once it has committed. */
  const noticeChange = (
    work: Parameters<typeof enqueueMail>[0],
    user: UserRow,
    change: 'on' | 'off',
    securityKeysRemoved = 0,
  ) =>
    enqueueMail(
      work,
      twoFactorChangedMail(
        user.email,
        user.firstName || user.username,
        resetLink,
        change,
        securityKeysRemoved,
      ),
    );

  app.post(
    '/auth/login/two-factor/',
    {
      config: { access: 'public', authRateLimit: true },
      schema: {
        tags: ['auth'],
        summary: 'The second step of a login: the ticket from POST /auth/login/ and a code',
        description:
          "`code` is the 6-digit code of the authenticator app or an unused recovery code; the answer is the spec's login answer, `{ key }`. A wrong code is 400 `two_factor` and counts in the login throttle; 5 wrong codes, 5 minutes or a success end the ticket (400 `two_factor_expired`).",
        body: twoFactorLoginRequest,
        response: { 200: loginResponse, 400: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      const { ticket, code } = request.body;
      return takeSecondStep(app, request, ticket, 'password_totp', {
        async check(work, user) {
          const used = await checkSecondFactor(work.tx, user.id, code, work.now, app.keys);
          if (secondFactorAccepted(used)) return { ok: true, used };
          if (used === 'replayed') {
            // Queued in the ticket's transaction, which commits: the refusal comes after it.
            await enqueueMail(
              work,
              twoFactorReplayedMail(user.email, user.firstName || user.username, resetLink),
            );
          }
          return { ok: false, replayed: used === 'replayed' };
        },
        refused({ replayed }, userId) {
          if (replayed) logSecurityEvent(request, 'two_factor.replayed', { userId });
          return badRequest(twoFactorMessages.wrongCode, undefined, errorCodes.twoFactor);
        },
        accepted({ used }, userId) {
          if (used === 'recovery')
            logSecurityEvent(request, 'two_factor.recovery_code_used', { userId });
          return {};
        },
      });
    },
  );

  app.get(
    '/auth/two-factor/',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Whether two-step verification is on for you, how many recovery codes are left, and how many security keys you have',
        response: { 200: twoFactorStatus, 401: errorBody },
      },
    },
    async (request) => app.read(request, ({ tx, actor }) => twoFactorStatusOf(tx, actor.id)),
  );

  app.post(
    '/auth/two-factor/setup/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Start turning on two-step verification: a new key for your authenticator app',
        description:
          'Needs your current password. The key is not in force until POST /auth/two-factor/confirm/ receives a code it made (within 30 minutes). 409 when it is already on.',
        body: twoFactorSetupRequest,
        response: { 200: twoFactorSetupResponse, 400: errorBody, 401: errorBody, 409: errorBody },
      },
    },
    async (request) =>
      app.write(request, async ({ tx, actor, now }) =>
        startSetup(tx, await loadSelf(tx, actor.id), request.body.password, now, app.keys),
      ),
  );

  app.post(
    '/auth/two-factor/confirm/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Turn on two-step verification with a code from the app; returns recovery codes',
        description:
          'The 10 recovery codes are shown this once: each logs in once in place of a code.',
        body: twoFactorConfirmRequest,
        response: { 200: recoveryCodesResponse, 400: errorBody, 401: errorBody, 409: errorBody },
      },
    },
    async (request) => {
      const recoveryCodes = await app.write(request, async (work) => {
        const codes = await confirmSetup(
          work.tx,
          work.actor.id,
          request.body.code,
          work.now,
          app.keys,
        );
        await noticeChange(work, await loadSelf(work.tx, work.actor.id), 'on');
        return codes;
      });
      logSecurityEvent(request, 'two_factor.enabled', { userId: request.user!.id });
      return { recoveryCodes };
    },
  );

  app.post(
    '/auth/two-factor/disable/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Turn off two-step verification: needs your password and a code',
        description:
          '`code` is a code of the app or an unused recovery code. Your security keys are removed too: their way back in, the recovery codes, goes.',
        body: twoFactorDisableRequest,
        response: { 204: noContent, 400: errorBody, 401: errorBody, 409: errorBody },
      },
    },
    async (request, reply) => {
      const userId = request.user!.id;
      const { used, securityKeysRemoved } = await app.write(request, async (work) => {
        const user = await loadSelf(work.tx, work.actor.id);
        const off = await disableTwoFactor(work.tx, user, request.body, work.now, app.keys);
        await noticeChange(work, user, 'off', off.securityKeysRemoved.length);
        return off;
      });
      if (used === 'recovery')
        logSecurityEvent(request, 'two_factor.recovery_code_used', { userId });
      logSecurityEvent(request, 'two_factor.disabled', { userId, method: used });
      for (const keyId of securityKeysRemoved)
        logSecurityEvent(request, 'security_key.removed', {
          userId,
          keyId,
          reason: 'two_factor_disabled',
        });
      return reply.code(204).send(null);
    },
  );
};
