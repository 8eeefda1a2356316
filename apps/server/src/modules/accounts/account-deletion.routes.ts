import { accountDeletionRequest, detailResponse, errorBody } from '@merit/contract';
import { accountDeletionMessages } from '@merit/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientKey } from '../../platform/security/client-address.js';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { loadSelf } from '../users/users.queries.js';
import { checkDeletionConfirmation, deleteAccount } from './account-deletion.js';

/** Deleting one's own account (beyond the spec; ASVS V8.3.2): the rules are account-deletion.ts's. */
export const accountDeletionRoutes: FastifyPluginAsyncZod = async (app) => {
  const publicUrl = app.config.publicUrl;
  app.post(
    '/auth/account/delete/',
    {
      // Also before a federated registration is complete: someone who will not accept the
      // privacy notice must still be able to leave.
      config: { access: 'registering' },
      schema: {
        tags: ['auth'],
        summary: 'Delete your own account (beyond the spec; ASVS V8.3.2)',
        description:
          'Confirmed with `password`, or with `username` for an account without a password (federated only). ' +
          'Your drafts without collaborators or reviews are deleted with their files; submitted proposals, shared drafts and your reviews stay, under an anonymised account ("Deleted user <id>") that cannot log in. ' +
          'Every session ends. 409 when you are the only active admin. A wrong password counts as a failed login of yours (429 after too many).',
        body: accountDeletionRequest,
        response: {
          200: detailResponse,
          400: errorBody,
          401: errorBody,
          409: errorBody,
          429: errorBody,
        },
      },
    },
    async (request) => {
      const userId = request.user!.id;
      const user = await loadSelf(app.db, userId);
      // Checked before the transaction: the password's hash is slow by design, and a wrong
      // one must stay counted by the throttle when the change is refused.
      const address = clientKey(request.ip);
      const pepper = app.keys.passwordPepper;
      await checkDeletionConfirmation(app.db, user, request.body, address, app.now(), pepper);
      // The person's events kept so far are written first, so the deletion forgets their
      // address in them too; its own event keeps none.
      await app.securityEvents.flush();
      await app.write(request, (work) => deleteAccount(work, user.passwordHash, publicUrl));
      logSecurityEvent(
        { log: request.log, events: app.securityEvents, requestId: request.id, address: null },
        'account.deleted',
        { userId },
      );
      return { detail: accountDeletionMessages.deleted };
    },
  );
};
