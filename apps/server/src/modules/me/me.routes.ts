import { errorBody, userDataExport, userDetails, userHashResponse } from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { loadSelf } from '../users/users.queries.js';
import { userDetailsOf } from './me-access.js';
import { userDataFileName, userDataOf } from './user-data.js';

/**
 * What the logged-in person reads about themselves: their details with their roles and
 * what they may do, their collaborator hash, and everything Merit holds about them.
 * Changing them is the accounts module's (accounts.routes.ts).
 */
export const meRoutes: FastifyPluginAsyncZod = async (app) => {
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
      // The person's security events kept so far (their login a moment ago) are in the file.
      await app.securityEvents.flush();
      const data = await app.read(request, (work) => userDataOf(work));
      const name = userDataFileName(data.profile.username, new Date(data.exported_at));
      logSecurityEvent(request, 'export.downloaded', {
        userId: request.user!.id,
        kind: 'user_data',
      });
      void reply.header('content-disposition', `attachment; filename="${name}"`);
      return data;
    },
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
};
