import type { Socket } from 'node:net';
import { errorCodes, type ErrorBody } from '@merit/contract';
import { messages } from '@merit/domain';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isForeignKeyViolation, isUniqueViolation, pgCode } from '../data/db-errors.js';
import { HttpError } from './http-errors.js';

/** Field name for errors that belong to the request as a whole (the Django REST convention). */
export const NON_FIELD = 'non_field_errors';

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

const megabytes = (bytes: number) => {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
};

/**
 * Fastify's own client errors, in words that tell the caller what to change. Their
 * original messages can echo the request back (a whole over-long path, say), so none is
 * passed through as it is.
 */
function fastifyClientError(error: FastifyError, request: FastifyRequest): ErrorBody | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        code: errorCodes.payloadTooLarge,
        detail: `The request is larger than this address accepts (at most ${megabytes(
          request.routeOptions.bodyLimit ?? 0,
        )}).`,
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        code: 'unsupported_media_type',
        detail: 'Send the request body as JSON, with Content-Type: application/json.',
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { code: errorCodes.badRequest, detail: 'The request body is not valid JSON.' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        code: errorCodes.badRequest,
        detail: 'The request says it holds JSON but its body is empty. Send a JSON object.',
      };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return {
        code: errorCodes.badRequest,
        detail: 'The Content-Length header does not match the body.',
      };
    default:
      return null;
  }
}

/**
 * PostgreSQL refusals that reach the handler despite the checks before them. Each is a
 * clear 4xx or 503, never a 500: a unique or foreign key violation means a concurrent
 * change won the race; a data exception means a value the checks let through is out of
 * range; a timeout or a lost connection means "try again".
 */
function databaseError(error: unknown): { status: number; body: ErrorBody } | null {
  const code = pgCode(error);
  if (!code) return null;
  if (isUniqueViolation(error))
    return {
      status: 409,
      body: {
        code: errorCodes.conflict,
        detail:
          'This conflicts with something that was saved at the same moment. Reload and try again.',
      },
    };
  if (isForeignKeyViolation(error))
    return {
      status: 409,
      body: {
        code: errorCodes.conflict,
        detail:
          'Something this change refers to was removed, or something still refers to what it removes. Reload and try again.',
      },
    };
  if (code.startsWith('22'))
    return {
      status: 400,
      body: { code: errorCodes.badRequest, detail: 'A value in the request is out of range.' },
    };
  if (code === '57014' || code === '53300' || code.startsWith('08'))
    return {
      status: 503,
      body: {
        code: errorCodes.unavailable,
        detail: 'The database is busy or out of reach. Please try again in a moment.',
      },
    };
  return null;
}

/**
 * Out of disk space: the database could not grow (53100) or a file could not be written
 * (ENOSPC, or EDQUOT for a quota). Nothing was saved, and the server goes on serving
 * reads; the person is told it is not their input, and to come back.
 */
function isDiskFull(error: unknown): boolean {
  const code = pgCode(error);
  return code === '53100' || code === 'ENOSPC' || code === 'EDQUOT';
}
const diskFullBody: ErrorBody = {
  code: 'insufficient_storage',
  detail:
    'The server has run out of disk space, so this was not saved. Please try again later, and tell the administrator.',
};

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
      // A malformed id in the path names nothing: 404, as for an id that does not exist.
      if (error.validationContext === 'params')
        return reply.code(404).send({ detail: messages.notFoundApi, code: errorCodes.notFound });
      const body: ErrorBody = {
        detail: messages.validationFailed,
        code: errorCodes.validation,
        fields: fieldsFromValidation(error.validation),
      };
      return reply.code(400).send(body);
    }
    if (isDiskFull(error)) {
      request.log.error({ err: error }, 'the disk is full');
      return reply.code(507).send(diskFullBody);
    }
    const fromDatabase = databaseError(error);
    if (fromDatabase) {
      if (fromDatabase.status === 503) request.log.warn({ err: error }, 'database unavailable');
      return reply.code(fromDatabase.status).send(fromDatabase.body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const body: ErrorBody = fastifyClientError(error, request) ?? {
        code: errorCodes.badRequest,
        detail: 'The request is not valid.',
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

/**
 * Errors Fastify raises while finding the route, before any hook runs: a path that is
 * not valid URL encoding, or a path parameter longer than the router allows. The envelope
 * never repeats the path (it may be kilobytes long).
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) => {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return reply
      .code(414)
      .send({ code: 'uri_too_long', detail: 'The address is too long.' } satisfies ErrorBody);
  if (error.code === 'FST_ERR_BAD_URL')
    return reply.code(400).send({
      code: errorCodes.badRequest,
      detail: 'The address is not valid URL encoding.',
    } satisfies ErrorBody);
  return reply
    .code(500)
    .send({ code: errorCodes.internal, detail: messages.internalError } satisfies ErrorBody);
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers too large, a
 * malformed request line, a request that took too long): answered on the raw socket,
 * still in the envelope.
 */
export const clientErrorHandler = (error: Error & { code?: string }, socket: Socket): void => {
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  let status = 400;
  let body: ErrorBody = { code: errorCodes.badRequest, detail: 'The request is not valid HTTP.' };
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    body = {
      code: 'headers_too_large',
      detail: 'The request headers (or its address) are too large.',
    };
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = { code: 'request_timeout', detail: 'The request took too long to arrive.' };
  }
  const payload = JSON.stringify(body);
  const reason = {
    400: 'Bad Request',
    408: 'Request Timeout',
    431: 'Request Header Fields Too Large',
  }[status];
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
  );
};
