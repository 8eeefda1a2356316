import { errorCodes, type ErrorBody } from '@merit/contract';
import { messages } from '@merit/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/http-errors.js';

/** Field name for errors that belong to the request as a whole (the Django REST convention). */
const NON_FIELD = 'non_field_errors';

type ValidationIssue = { instancePath?: string; message?: string };

/** Groups schema validation issues by field, as the web forms show them beside each field. */
export function fieldsFromValidation(issues: ValidationIssue[]): NonNullable<ErrorBody['fields']> {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || NON_FIELD;
    (fields[key] ??= []).push(issue.message ?? 'This value is not valid.');
  }
  return fields;
}

/**
 * Every failure leaves as the error envelope `{ detail, code, fields? }`. Bad input is
 * a 4xx with a message a person can act on; anything unexpected is a 500 that is logged
 * with the request id and shows nothing of the internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) void reply.headers(error.headers);
      return reply.code(error.statusCode).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = fieldsFromValidation(error.validation);
      const body: ErrorBody = {
        detail: messages.validationFailed,
        code: errorCodes.validation,
        fields,
      };
      return reply.code(400).send(body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, wrong content type, body too large):
      // their messages describe the request, not the server, so they are safe to show.
      const body: ErrorBody = {
        detail: error.message,
        code: error.code ? error.code.toLowerCase() : errorCodes.badRequest,
      };
      return reply.code(status).send(body);
    }
    request.log.error({ err: error }, 'request failed');
    const body: ErrorBody = { detail: messages.internalError, code: errorCodes.internal };
    return reply.code(500).send(body);
  });
}

export function apiNotFoundBody(): ErrorBody {
  return { detail: messages.notFoundApi, code: errorCodes.notFound };
}
