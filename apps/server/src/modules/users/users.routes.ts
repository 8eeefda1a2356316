import { errorBody, userDetails } from '@merit/contract';
import { messages } from '@merit/domain';
import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { committeeRoles, committees } from '../../db/schema.js';
import { notAuthenticated } from '../../lib/http-errors.js';
import { presentUserDetails } from './users.presenter.js';
import { findUserById } from './users.service.js';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user_details/',
    {
      schema: {
        tags: ['users'],
        summary: 'The logged-in user, with their committee roles',
        response: { 200: userDetails, 401: errorBody },
      },
    },
    async (request) => {
      const actor = request.user!;
      const user = await findUserById(app.db, actor.id);
      // The token was valid a moment ago; a user deleted since then is simply logged out.
      if (!user) throw notAuthenticated(messages.notAuthenticated);
      const roles = await app.db
        .select({
          id: committeeRoles.id,
          committeeId: committeeRoles.committeeId,
          committeeName: committees.name,
          role: committeeRoles.role,
          commencement: committeeRoles.commencement,
          termination: committeeRoles.termination,
        })
        .from(committeeRoles)
        .innerJoin(committees, eq(committees.id, committeeRoles.committeeId))
        .where(eq(committeeRoles.userId, user.id))
        .orderBy(asc(committees.name), asc(committeeRoles.commencement));
      return presentUserDetails(user, roles, app.now());
    },
  );
};
