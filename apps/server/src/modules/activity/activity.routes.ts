import {
  activityPage,
  activityQuery,
  callIdParams,
  errorBody,
  historyQuery,
  proposalHistory,
  proposalIdParams,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { activityCsv } from './activity.presenter.js';
import {
  getCallActivity,
  getProposalHistory,
  getSystemActivity,
  type ActivityResult,
} from './activity.service.js';

const tags = ['activity'];
const readRefusals = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody } as const;

/**
 * History and Activity (issue 28): the audit log, readable. A proposal's history; a call's
 * activity (its chairs); the whole system's with the security events (administrators).
 * The two Activity pages answer `format=csv` with every row of the filter as CSV.
 */
export const activityRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The page as JSON, or the CSV as a download (itself a security event: many people's data). */
  function send(
    request: FastifyRequest,
    reply: FastifyReply,
    result: ActivityResult,
    file: string,
    callId?: number,
  ) {
    if (result.format === 'json') return result.page;
    logSecurityEvent(request, 'export.downloaded', {
      userId: request.user!.id,
      kind: 'activity_csv',
      ...(callId === undefined ? {} : { callId }),
      rows: result.entries.length,
    });
    const date = app.now().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file}-${date}.csv"`)
      .send(activityCsv(result.entries));
  }

  app.get(
    '/proposals/:proposalId/history/',
    {
      schema: {
        tags,
        summary:
          "A proposal's history, newest first: its team's own timeline, or every row for its chairs and administrators",
        params: proposalIdParams,
        querystring: historyQuery,
        response: { 200: proposalHistory, ...readRefusals },
      },
    },
    async (request) =>
      app.read(request, (work) =>
        getProposalHistory(work, request.params.proposalId, request.query),
      ),
  );

  app.get(
    '/calls/:callId/activity/',
    {
      schema: {
        tags,
        summary:
          "A call's activity, filtered by person, action, proposal and time, newest first; format=csv for every row of the filter (chairs)",
        params: callIdParams,
        querystring: activityQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: activityPage, ...readRefusals },
      },
    },
    async (request, reply) => {
      const { callId } = request.params;
      const result = await app.read(request, (work) =>
        getCallActivity(work, callId, request.query),
      );
      return send(request, reply, result, `activity-call-${callId}`, callId);
    },
  );

  app.get(
    '/activity/',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary:
          "The whole system's audit rows and security events, filtered, newest first; format=csv for every row of the filter (administrators)",
        querystring: activityQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: activityPage, ...readRefusals },
      },
    },
    async (request, reply) => {
      // What this process recorded a moment ago (the admin's own login) is on the page.
      await app.securityEvents.flush();
      const result = await app.read(request, (work) => getSystemActivity(work, request.query));
      return send(request, reply, result, 'activity');
    },
  );
};
