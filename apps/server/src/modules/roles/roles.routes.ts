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
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Tx } from '../../db/client.js';
import { invalid, notFound } from '../../lib/http-errors.js';
import { userNotFound } from '../user-admin/user-admin.service.js';
import { findUserById } from '../users/users.service.js';
import {
  checkRoleInput,
  createRole,
  deleteRole,
  findRole,
  presentCommitteeRole,
  roleNotFound,
  rolesOfUser,
  updateRole,
} from './roles.service.js';

async function loadUser(db: Tx, id: number) {
  const user = await findUserById(db, id);
  if (!user) throw notFound(userNotFound);
  return user;
}

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
    async (request) => {
      const user = await loadUser(app.db, request.params.userId);
      const now = app.now();
      return (await rolesOfUser(app.db, user.id)).map((r) => presentCommitteeRole(r, now));
    },
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
      const user = await loadUser(app.db, request.params.userId);
      checkSameUser(request.body.userId, user.id);
      const change = { actorId: request.user!.id, now: app.now() };
      const role = await app.db.transaction(async (tx) =>
        createRole(tx, user.id, await checkRoleInput(tx, request.body), change),
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
      const user = await loadUser(app.db, request.params.userId);
      checkSameUser(request.body.userId, user.id);
      const change = { actorId: request.user!.id, now: app.now() };
      return app.db.transaction(async (tx) => {
        const existing = await findRole(tx, request.body.id);
        if (!existing || existing.userId !== user.id) throw notFound(roleNotFound);
        return updateRole(tx, existing, await checkRoleInput(tx, request.body), change);
      });
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
      const change = { actorId: request.user!.id, now: app.now() };
      await app.db.transaction(async (tx) => {
        const existing = await findRole(tx, request.params.id);
        if (!existing) throw notFound('There is no role with this id.');
        await deleteRole(tx, existing, change);
      });
      return reply.code(204).send(null);
    },
  );
};
