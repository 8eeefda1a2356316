import {
  captchaChallenge,
  detailResponse,
  errorBody,
  passwordChangeRequest,
  passwordResetConfirmRequest,
  passwordResetRequest,
  registrationRequest,
  resendEmailRequest,
  verifyEmailRequest,
} from '@merit/contract';
import { messages, validationMessages } from '@merit/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { users } from '../../db/schema.js';
import { badRequest } from '../../lib/http-errors.js';
import { findUserById } from '../users/users.service.js';
import { federatedResetMail, passwordResetMail, verificationMail } from './accounts.mails.js';
import {
  changePassword,
  checkRegistration,
  confirmEmail,
  confirmPasswordReset,
  createEmailConfirmation,
  createPasswordReset,
  encodeUid,
  registerUser,
} from './accounts.service.js';

export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const authLimited = { access: 'public' as const, authRateLimit: true };
  const link = (path: string) => `${app.config.publicUrl}${path}`;

  const sendVerification = async (user: {
    id: number;
    email: string;
    firstName: string;
    username: string;
  }) => {
    const key = await createEmailConfirmation(app.db, user.id, user.email, app.now());
    await app.mailer.send(
      verificationMail(
        user.email,
        user.firstName || user.username,
        link(`/auth/registration/account-confirm-email/${key}/`),
        false,
      ),
    );
  };

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
      await checkRegistration(app.db, input);
      // The captcha is checked last, so a typo elsewhere does not use up the solution.
      if (!(await app.captcha.verify(input.captcha, app.now()))) {
        throw badRequest(
          messages.validationFailed,
          { captcha: [validationMessages.captcha] },
          'validation_error',
        );
      }
      const user = await registerUser(app.db, input);
      await sendVerification(user);
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
      await confirmEmail(app.db, request.body.key, app.now());
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
      const [user] = await app.db
        .select()
        .from(users)
        .where(
          and(
            eq(sql`lower(${users.email})`, request.body.email.trim().toLowerCase()),
            eq(users.emailVerified, false),
          ),
        )
        .limit(1);
      if (user?.isActive) await sendVerification(user);
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
      const [user] = await app.db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, request.body.email.trim().toLowerCase()))
        .limit(1);
      if (user?.isActive) {
        const name = user.firstName || user.username;
        if (user.isAaf || user.passwordHash === null) {
          await app.mailer.send(federatedResetMail(user.email, name, link('/auth/login')));
        } else {
          const token = await createPasswordReset(app.db, user.id, app.now());
          await app.mailer.send(
            passwordResetMail(
              user.email,
              name,
              link(`/auth/password-reset/confirm/${encodeUid(user.id)}/${token}`),
            ),
          );
        }
      }
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
      await confirmPasswordReset(app.db, request.body, app.now());
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
      const user = await findUserById(app.db, request.user!.id);
      await changePassword(app.db, user!, request.user!.tokenId, request.body, app.now());
      return { detail: 'New password has been saved.' };
    },
  );
};
