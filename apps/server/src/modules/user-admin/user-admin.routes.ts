import {
  adminUserDetails,
  errorBody,
  idParams,
  userAdminUpdate,
  userListQuery,
  userPage,
} from '@merit/contract';
import { userAdminMessages } from '@merit/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../platform/http/http-errors.js';
import { findUserById } from '../users/users.queries.js';
import { listUsers, presentAdminUser, updateAccountFlags } from './user-admin.service.js';

/** Manage Users (spec section 2, Admin screens). Admins only. */
export const userAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { access: 'admin' as const };
  const tags = ['users'];

  app.get(
    '/users/',
    {
      config,
      schema: {
        tags,
        summary:
          'One page of users, sorted by a column, searched with ?q= in username, name, email or institution',
        querystring: userListQuery,
        response: { 200: userPage, 400: errorBody, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => app.read(request, ({ tx }) => listUsers(tx, request.query)),
  );

  app.get(
    '/users/:id/',
    {
      config,
      schema: {
        tags,
        summary: "A user's details, whether the account is active, and their roles",
        params: idParams,
        response: { 200: adminUserDetails, 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) =>
      app.read(request, async ({ tx, now }) => {
        const user = await findUserById(tx, request.params.id);
        if (!user) throw notFound(userAdminMessages.notFound);
        return presentAdminUser(tx, user, now, app.config.adminTwoFactor);
      }),
  );

  app.patch(
    '/users/:id/',
    {
      config,
      schema: {
        tags,
        summary:
          'Make a user admin or not, or deactivate (logging them out) or reactivate the account',
        params: idParams,
        body: userAdminUpdate,
        response: {
          200: adminUserDetails,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
          409: errorBody,
        },
      },
    },
    async (request) =>
      app.write(request, async (work) =>
        presentAdminUser(
          work.tx,
          await updateAccountFlags(work, request.params.id, request.body),
          work.now,
          app.config.adminTwoFactor,
        ),
      ),
  );
};
