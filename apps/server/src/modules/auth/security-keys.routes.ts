import {
  errorBody,
  errorCodes,
  idParam,
  loginResponse,
  noContent,
  securityKey,
  securityKeyAddRequest,
  securityKeyList,
  securityKeyLoginOptionsRequest,
  securityKeyLoginRequest,
  securityKeyOptions,
  securityKeyOptionsRequest,
} from '@merit/contract';
import { securityKeyMessages } from '@merit/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../platform/http/http-errors.js';
import { enqueueMail } from '../../platform/io/mail-job.js';
import { findUserById, loadSelf, type UserRow } from '../users/users.queries.js';
import { securityKeyChangedMail } from './security-keys.mails.js';
import {
  addSecurityKey,
  checkAssertion,
  listSecurityKeys,
  loginOptions,
  registrationOptions,
  relyingPartyOf,
  removeSecurityKey,
  type SecurityKeyRefusal,
} from './security-keys.service.js';
import { takeSecondStep, ticketExpired } from './second-step.js';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { ticketUser } from './two-factor.service.js';

const keyIdParams = z.object({ keyId: idParam });

/** A key's answer that was refused, in the words the user reads. */
const refusalMessage = (refused: SecurityKeyRefusal) => securityKeyMessages[refused];

/**
 * Security keys (WebAuthn, ASVS V2.3.2), beyond the spec: adding and removing one's own
 * keys while two-step verification is on, and a key's answer in place of a code at the
 * second step of a password login (two-factor.routes.ts takes codes).
 */
export const securityKeysRoutes: FastifyPluginAsyncZod = async (app) => {
  const rp = relyingPartyOf(app.config.publicUrl);
  const resetLink = `${app.config.publicUrl}/auth/password-reset/`;
  /** Queued in the change's transaction: the mail goes once it has committed. */
  const noticeChange = (
    work: Parameters<typeof enqueueMail>[0],
    user: UserRow,
    change: 'added' | 'removed',
    keyName: string,
  ) =>
    enqueueMail(
      work,
      securityKeyChangedMail(
        user.email,
        user.firstName || user.username,
        resetLink,
        change,
        keyName,
      ),
    );

  app.get(
    '/auth/security-keys/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Your security keys, the oldest first',
        response: { 200: securityKeyList, 401: errorBody },
      },
    },
    async (request) => app.read(request, ({ tx, actor }) => listSecurityKeys(tx, actor.id)),
  );

  app.post(
    '/auth/security-keys/options/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Start adding a security key: the request to pass to the key',
        description:
          'Needs your current password, and two-step verification on (409 otherwise: its recovery codes are the way back in when a key is lost); at most 10 keys (409). `options` is for navigator.credentials.create (WebAuthn); its challenge works once, for 5 minutes, and a new request replaces it.',
        body: securityKeyOptionsRequest,
        response: { 200: securityKeyOptions, 400: errorBody, 401: errorBody, 409: errorBody },
      },
    },
    async (request) =>
      app.write(request, async ({ tx, actor, now }) => ({
        options: {
          ...(await registrationOptions(
            tx,
            await loadSelf(tx, actor.id),
            request.body.password,
            now,
            app.keys,
            rp,
          )),
        },
      })),
  );

  app.post(
    '/auth/security-keys/',
    {
      schema: {
        tags: ['auth'],
        summary: "Add a security key: its name and its answer to the last request's challenge",
        description:
          "400 when the answer does not hold (not to Merit's request, from another site, or malformed) or the request expired or was used; either way the request is used up. 409 as for the request.",
        body: securityKeyAddRequest,
        response: { 201: securityKey, 400: errorBody, 401: errorBody, 409: errorBody },
      },
    },
    async (request, reply) => {
      const outcome = await app.write(request, async (work) => {
        const added = await addSecurityKey(work.tx, work.actor.id, request.body, work.now, rp);
        if ('key' in added)
          await noticeChange(work, await loadSelf(work.tx, work.actor.id), 'added', added.key.name);
        return added;
      });
      // Thrown after the commit, which used up the request.
      if ('refused' in outcome) throw badRequest(refusalMessage(outcome.refused));
      logSecurityEvent(request, 'security_key.added', {
        userId: request.user!.id,
        keyId: outcome.key.id,
      });
      return reply.code(201).send(outcome.key);
    },
  );

  app.delete(
    '/auth/security-keys/:keyId/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Remove one of your security keys',
        description: "Another user's key, or one that is gone, is 404.",
        params: keyIdParams,
        response: { 204: noContent, 401: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const { keyId } = request.params;
      await app.write(request, async (work) => {
        const name = await removeSecurityKey(work.tx, work.actor.id, keyId);
        await noticeChange(work, await loadSelf(work.tx, work.actor.id), 'removed', name);
      });
      logSecurityEvent(request, 'security_key.removed', { userId: request.user!.id, keyId });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/login/security-key/options/',
    {
      config: { access: 'public', authRateLimit: true },
      schema: {
        tags: ['auth'],
        summary: "The second step of a login with a security key: the request to the user's keys",
        description:
          "`ticket` is the one POST /auth/login/ answered. `options` is for navigator.credentials.get (WebAuthn), listing the account's keys; its challenge works once, for 5 minutes, and a new request for the ticket replaces it. 400 `two_factor_expired` for a ticket that ended; 400 `two_factor` when the account has no key.",
        body: securityKeyLoginOptionsRequest,
        response: { 200: securityKeyOptions, 400: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      const { ticket } = request.body;
      const options = await app.writeAnonymous(async ({ tx, now }) => {
        // Locked, as an answer to the ticket is checked under the same lock.
        const userId = await ticketUser(tx, ticket, now);
        const user = userId === null ? undefined : await findUserById(tx, userId);
        if (!user || !user.isActive) throw ticketExpired();
        return loginOptions(tx, user.id, ticket, now, rp);
      });
      if (!options)
        throw badRequest(securityKeyMessages.notVerified, undefined, errorCodes.twoFactor);
      return { options: { ...options } };
    },
  );

  app.post(
    '/auth/login/security-key/',
    {
      config: { access: 'public', authRateLimit: true },
      schema: {
        tags: ['auth'],
        summary: "The second step of a login: the ticket and a security key's answer",
        description:
          "`credential` is the key's answer to the request of POST /auth/login/security-key/options/ for this ticket; the answer is the spec's login answer, `{ key }`. A refused answer (another key, another site, a used or expired request, a signature counter that did not go forward) is 400 `two_factor` and counts as a wrong code: in the login throttle, and 5 end the ticket (400 `two_factor_expired`).",
        body: securityKeyLoginRequest,
        response: { 200: loginResponse, 400: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      const { ticket, credential } = request.body;
      return takeSecondStep(app, request, ticket, 'password_webauthn', {
        check: ({ tx, now }, user) => checkAssertion(tx, user.id, ticket, credential, now, rp),
        refused({ refused, counter }, userId) {
          if (counter)
            logSecurityEvent(request, 'security_key.counter_rejected', {
              userId,
              keyId: counter.keyId,
            });
          return badRequest(refusalMessage(refused), undefined, errorCodes.twoFactor);
        },
        accepted: ({ keyId }) => ({ keyId }),
      });
    },
  );
};
