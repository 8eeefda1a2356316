import {
  captchaChallenge,
  detailResponse,
  errorBody,
  passwordChangeRequest,
  passwordResetConfirmRequest,
  passwordResetRequest,
  registrationRequest,
  resendEmailRequest,
  userDetails,
  userDetailsUpdate,
  userHashResponse,
  verifyEmailRequest,
} from '@merit/contract';
import { messages, validationMessages } from '@merit/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest } from '../../platform/http/http-errors.js';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { userDetailsOf } from '../me/me-access.js';
import { findUserById, loadSelf } from '../users/users.queries.js';
import { registerAccountJobs } from './accounts.jobs.js';
import { accountJobs } from './accounts.mails.js';
import {
  changePassword,
  confirmEmail,
  confirmPasswordReset,
  registerUser,
  renewUserHash,
  updateAccount,
} from './accounts.service.js';

export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const authLimited = { access: 'public' as const, authRateLimit: true };
  const publicUrl = app.config.publicUrl;
  registerAccountJobs(app);

  app.get(
    '/auth/captcha/',
    {
      config: authLimited,
      schema: {
        tags: ['auth'],
        summary: 'A fresh ALTCHA challenge for the registration form',
        response: { 200: captchaChallenge, 429: errorBody },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      const challenge = await app.captcha.challenge(app.now());
      return { ...challenge, parameters: { ...challenge.parameters } };
    },
  );

  app.post(
    '/auth/registration/',
    {
      config: authLimited,
      schema: {
        tags: ['auth'],
        summary: 'Register a new account; a verification link is mailed',
        body: registrationRequest,
        response: { 201: detailResponse, 400: errorBody, 429: errorBody },
      },
    },
    async (request, reply) => {
      const input = request.body;
      // The captcha first: without a solved one, nothing is checked, so nobody can learn
      // which usernames and addresses are taken without paying for each question.
      if (!(await app.captcha.verify(input.captcha, app.now()))) {
        throw badRequest(
          messages.validationFailed,
          { captcha: [validationMessages.captcha] },
          'validation_error',
        );
      }
      await app.writeAnonymous((work) =>
        registerUser(
          work,
          input,
          app.config.privacyNoticeUrl !== undefined,
          app.keys.passwordPepper,
        ),
      );
      return reply.code(201).send({ detail: 'Verification e-mail sent.' });
    },
  );

  app.post(
    '/auth/registration/verify-email/',
    {
      config: authLimited,
      schema: {
        tags: ['auth'],
        summary: 'Follow a verification link: confirms the address once',
        body: verifyEmailRequest,
        response: { 200: detailResponse, 404: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      const { userId, changed } = await app.writeAnonymous((work) =>
        confirmEmail(work, request.body.key, publicUrl),
      );
      if (changed) logSecurityEvent(request, 'email.changed', { userId });
      return { detail: 'Your email address is verified.' };
    },
  );

  app.post(
    '/auth/registration/resend-email/',
    {
      config: authLimited,
      schema: {
        tags: ['auth'],
        summary:
          'Mail a new verification link to an unverified account (same answer whether or not it exists)',
        body: resendEmailRequest,
        response: { 200: detailResponse, 429: errorBody },
      },
    },
    async (request) => {
      await app.writeAnonymous((work) =>
        work.enqueue(accountJobs.resendVerification, { email: request.body.email }),
      );
      return {
        detail:
          'If an unverified account uses this address, a new verification e-mail is on its way.',
      };
    },
  );

  app.post(
    '/auth/password/reset/',
    {
      config: authLimited,
      schema: {
        tags: ['auth'],
        summary: 'Mail a password reset link (same answer whether or not the address exists)',
        body: passwordResetRequest,
        response: { 200: detailResponse, 429: errorBody },
      },
    },
    async (request) => {
      // The same work for every address, known or not: the lookup happens in the job.
      await app.writeAnonymous((work) =>
        work.enqueue(accountJobs.passwordReset, { email: request.body.email }),
      );
      return { detail: 'Password reset e-mail has been sent.' };
    },
  );

  app.post(
    '/auth/password/reset/confirm/',
    {
      config: authLimited,
      schema: {
        tags: ['auth'],
        summary: 'Set a new password from a reset link; logs out every session',
        body: passwordResetConfirmRequest,
        response: { 200: detailResponse, 400: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      const userId = await app.writeAnonymous((work) =>
        confirmPasswordReset(work, request.body, publicUrl, app.keys.passwordPepper),
      );
      logSecurityEvent(request, 'password.reset', { userId });
      return { detail: 'Password has been reset with the new password.' };
    },
  );

  app.post(
    '/auth/password/change/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Change your password; other sessions are logged out',
        body: passwordChangeRequest,
        response: { 200: detailResponse, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => {
      const tokenId = request.user!.tokenId;
      await app.write(request, async (work) =>
        changePassword(
          work,
          await loadSelf(work.tx, work.actor.id),
          tokenId,
          request.body,
          publicUrl,
          app.keys.passwordPepper,
        ),
      );
      logSecurityEvent(request, 'password.changed', { userId: request.user!.id });
      return { detail: 'New password has been saved.' };
    },
  );

  app.patch(
    '/user_details/',
    {
      schema: {
        tags: ['users'],
        summary:
          'Edit your own details; a new email takes effect once its confirmation link is followed',
        body: userDetailsUpdate,
        response: { 200: userDetails, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => {
      const { details, newEmail } = await app.write(request, async (work) => {
        const user = await loadSelf(work.tx, work.actor.id);
        const asked = await updateAccount(work, user, request.body);
        const saved = await userDetailsOf(
          work.tx,
          (await findUserById(work.tx, user.id))!,
          work.now,
          app.config.adminTwoFactor,
        );
        return { details: saved, newEmail: asked };
      });
      if (newEmail)
        logSecurityEvent(request, 'email.change_requested', { userId: request.user!.id });
      return details;
    },
  );

  app.post(
    '/user_hash/',
    {
      schema: {
        tags: ['users'],
        summary: 'Replace your collaborator hash with a new unique one',
        response: { 200: userHashResponse, 401: errorBody },
      },
    },
    async (request) => app.write(request, (work) => renewUserHash(work)).then((hash) => ({ hash })),
  );
};
