import {
  committeeRole,
  committeeRoleList,
  errorBody,
  idParams,
  noContent,
  roleRequest,
  roleUpdateRequest,
  userIdParams,
} from '@merit/contract';
import { userAdminMessages } from '@merit/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { invalid, notFound } from '../../platform/http/http-errors.js';
import { findUserById } from '../users/users.queries.js';
import { createRole, deleteRole, presentCommitteeRole, updateRole } from './roles.service.js';
import { rolesOfUser } from './roles.queries.js';

/** The spec's role payload may repeat the user; when it does, it must be the user of the path. */
function checkSameUser(bodyUserId: number | undefined, pathUserId: number): void {
  if (bodyUserId !== undefined && bodyUserId !== pathUserId) {
    throw invalid({ userId: ['userId must be the user of the path, or left out.'] });
  }
}

/** Committee roles of users (spec section 7, Users and roles). Admins only. */
export const rolesRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { access: 'admin' as const };
  const tags = ['roles'];

  app.get(
    '/roles/:userId/',
    {
      config,
      schema: {
        tags,
        summary: "A user's committee roles, each with whether it is current",
        params: userIdParams,
        response: { 200: committeeRoleList, 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) =>
      app.read(request, async ({ tx, now }) => {
        const user = await findUserById(tx, request.params.userId);
        if (!user) throw notFound(userAdminMessages.notFound);
        return (await rolesOfUser(tx, user.id)).map((r) => presentCommitteeRole(r, now));
      }),
  );

  app.post(
    '/roles/:userId/',
    {
      config,
      schema: {
        tags,
        summary: 'Give a user a role (CHAIR or MEMBER) on a committee for a period',
        params: userIdParams,
        body: roleRequest,
        response: {
          201: committeeRole,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    async (request, reply) => {
      checkSameUser(request.body.userId, request.params.userId);
      const role = await app.write(request, (work) =>
        createRole(work, request.params.userId, request.body),
      );
      return reply.code(201).send(role);
    },
  );

  app.patch(
    '/roles/:userId/',
    {
      config,
      schema: {
        tags,
        summary: "Change one of a user's roles: send the whole role with its id",
        params: userIdParams,
        body: roleUpdateRequest,
        response: {
          200: committeeRole,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    async (request) => {
      checkSameUser(request.body.userId, request.params.userId);
      return app.write(request, (work) =>
        updateRole(work, request.params.userId, request.body.id, request.body),
      );
    },
  );

  app.delete(
    '/roles/:id/',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a role',
        params: idParams,
        response: {
          204: noContent,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    async (request, reply) => {
      await app.write(request, (work) => deleteRole(work, request.params.id));
      return reply.code(204).send(null);
    },
  );
};
