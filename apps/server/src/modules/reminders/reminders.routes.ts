import {
  callIdParams,
  errorBody,
  myReminders,
  reminderRules,
  reminderRulesSave,
  remindNow as remindNowBody,
  remindNowResult,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changeRefusals } from '../../platform/http/routes.js';
import { getMyReminders, getRules, remindNow, saveRules } from './reminders.service.js';

const tags = ['reminders'];
const readRefusals = { 401: errorBody, 403: errorBody, 404: errorBody } as const;

/**
 * Reminders (issue 28): a call's rules, which the chairs read and change, "Remind
 * selected" from the Progress page, and the caller's own reminders on My Account. The
 * sweep that sends them when due is a scheduled job (reminders.sweep.ts), never a request.
 */
export const remindersRoutes: FastifyPluginAsyncZod = async (app) => {
  const publicUrl = app.config.publicUrl;

  app.get(
    '/calls/:callId/reminders/',
    {
      schema: {
        tags,
        summary: "The call's reminder rules, each with when it is next due (chairs, admins)",
        params: callIdParams,
        response: { 200: reminderRules, ...readRefusals },
      },
    },
    async (request) => app.read(request, (work) => getRules(work, request.params.callId)),
  );

  app.put(
    '/calls/:callId/reminders/',
    {
      schema: {
        tags,
        summary:
          "Replace the call's reminder rules from `version`: 409 `stale` with `current` when they changed since (chairs, call not closed)",
        params: callIdParams,
        body: reminderRulesSave,
        response: { 200: reminderRules, ...changeRefusals },
      },
    },
    async (request) =>
      app.write(request, (work) => saveRules(work, request.params.callId, request.body)),
  );

  app.post(
    '/calls/:callId/reminders/send/',
    {
      schema: {
        tags,
        summary:
          'Remind these members now of their reviews not yet saved, with the reviewers’ text (chairs, call not closed)',
        params: callIdParams,
        body: remindNowBody,
        response: { 200: remindNowResult, ...changeRefusals },
      },
    },
    async (request) =>
      app.write(request, (work) =>
        remindNow(work, request.params.callId, request.body.userIds, publicUrl),
      ),
  );

  app.get(
    '/my_reminders/',
    {
      schema: {
        tags,
        summary: 'The reminders the caller will receive, and those sent to them lately',
        response: { 200: myReminders, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => app.read(request, (work) => getMyReminders(work, publicUrl)),
  );
};
