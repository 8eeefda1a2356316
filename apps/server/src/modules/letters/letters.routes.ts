import {
  callIdParams,
  callLetters,
  errorBody,
  letterPreview,
  letterTemplates,
  letterTemplatesSave,
  lettersQueued,
  lettersSend,
  proposalIdParams,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changeRefusals } from '../../platform/http/routes.js';
import { registerLetterJob } from './letters.job.js';
import {
  callLetters as getCallLetters,
  getTemplates,
  previewLetter,
  releaseDecisions,
  saveTemplates,
  sendLetters,
} from './letters.service.js';

const tags = ['decisions'];
const readRefusals = { 401: errorBody, 403: errorBody, 404: errorBody } as const;

/**
 * Decision letters (issue 29): a call's templates, a proposal's letter previewed, the
 * release of a closed call's decisions, each proposal's letter, and sending one again.
 * The letters go out in a job each (letters.job.ts), never in a request; their PDFs are
 * downloaded through a download ticket (modules/files).
 */
export const lettersRoutes: FastifyPluginAsyncZod = async (app) => {
  const publicUrl = app.config.publicUrl;
  registerLetterJob(app);

  app.get(
    '/calls/:callId/letter_templates/',
    {
      schema: {
        tags,
        summary:
          "The call's letter template per outcome (its own, else the default), signature and words for the outcomes (chairs, admins)",
        params: callIdParams,
        response: { 200: letterTemplates, ...readRefusals },
      },
    },
    async (request) => app.read(request, (work) => getTemplates(work, request.params.callId)),
  );

  app.put(
    '/calls/:callId/letter_templates/',
    {
      schema: {
        tags,
        summary:
          'Replace the letter templates from `version`: 400 naming an unknown field, 409 `stale` with `current` when they changed since (chairs, admins)',
        params: callIdParams,
        body: letterTemplatesSave,
        response: { 200: letterTemplates, ...changeRefusals },
      },
    },
    async (request) =>
      app.write(request, (work) => saveTemplates(work, request.params.callId, request.body)),
  );

  app.get(
    '/proposals/:proposalId/letter/preview/',
    {
      schema: {
        tags,
        summary:
          "The proposal's decision letter as it would be sent now (chairs not conflicted, admins; 409 without an outcome)",
        params: proposalIdParams,
        response: { 200: letterPreview, ...readRefusals, 409: errorBody },
      },
    },
    async (request) =>
      app.read(request, (work) => previewLetter(work, request.params.proposalId, publicUrl)),
  );

  app.post(
    '/calls/:callId/release_decisions/',
    {
      schema: {
        tags,
        summary:
          'Release the decisions of the closed call: one letter per proposal with an outcome, each queued to be mailed once (chairs; 409 before close or once released)',
        params: callIdParams,
        response: { 200: lettersQueued, ...changeRefusals },
      },
    },
    async (request) =>
      app.write(request, (work) => releaseDecisions(work, request.params.callId, publicUrl)),
  );

  app.get(
    '/calls/:callId/letters/',
    {
      schema: {
        tags,
        summary:
          "Each submitted proposal's current letter and its state, those without an outcome first (chairs, admins; not the proposals they are conflicted on)",
        params: callIdParams,
        response: { 200: callLetters, ...readRefusals },
      },
    },
    async (request) => app.read(request, (work) => getCallLetters(work, request.params.callId)),
  );

  app.post(
    '/calls/:callId/letters/send/',
    {
      schema: {
        tags,
        summary:
          'Send these proposals’ letters again: a failed one, or a corrected one after its outcome changed, which supersedes the old (chairs, once released)',
        params: callIdParams,
        body: lettersSend,
        response: { 200: lettersQueued, ...changeRefusals },
      },
    },
    async (request) =>
      app.write(request, (work) =>
        sendLetters(work, request.params.callId, request.body.proposalIds, publicUrl),
      ),
  );
};
