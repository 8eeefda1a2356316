import {
  errorBody,
  userDetails,
  userDataExport,
  userDetailsUpdate,
  userHashResponse,
  userLookupList,
  userLookupQuery,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { renewUserHash, updateAccount } from '../accounts/accounts.service.js';
import { logSecurityEvent } from '../auth/security-log.js';
import { userDataFileName, userDataOf } from './user-data.js';
import { userDetailsOf } from './users.details.js';
import { findUserById, loadSelf, lookUpUsers } from './users.service.js';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user_details/',
    {
      // A federated account completing its registration reads its details (the email) too.
      config: { access: 'registering' },
      schema: {
        tags: ['users'],
        summary: 'The logged-in user, with their committee roles',
        response: { 200: userDetails, 401: errorBody },
      },
    },
    async (request) =>
      app.read(request, async ({ tx, actor, now }) =>
        userDetailsOf(tx, await loadSelf(tx, actor.id), now, app.config.adminTwoFactor),
      ),
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
        logSecurityEvent(request.log, 'email.change_requested', { userId: request.user!.id });
      return details;
    },
  );

  app.get(
    '/user_data/',
    {
      schema: {
        tags: ['users'],
        summary:
          'Download what Merit holds about you, as a JSON file (beyond the spec; ASVS V8.3.2)',
        response: { 200: userDataExport, 401: errorBody },
      },
    },
    async (request, reply) => {
      const data = await app.read(request, (work) => userDataOf(work));
      const name = userDataFileName(data.profile.username, new Date(data.exported_at));
      void reply.header('content-disposition', `attachment; filename="${name}"`);
      return data;
    },
  );

  app.get(
    '/users/lookup/',
    {
      schema: {
        tags: ['users'],
        summary:
          'Find active users by name or username (or one by their exact email), for chairs granting extensions (at most 20)',
        querystring: userLookupQuery,
        response: { 200: userLookupList, 400: errorBody, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => app.read(request, (work) => lookUpUsers(work, request.query.q)),
  );

  app.get(
    '/user_hash/',
    {
      schema: {
        tags: ['users'],
        summary: 'Your collaborator hash, which authors use to add you to a proposal',
        response: { 200: userHashResponse, 401: errorBody },
      },
    },
    async (request) =>
      app.read(request, async ({ tx, actor }) => ({ hash: (await loadSelf(tx, actor.id)).hash })),
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
