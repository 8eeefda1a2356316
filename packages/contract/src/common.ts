import { z } from 'zod';

/** The body of every failed response (ARCHITECTURE.md "Errors"). */
export const errorBody = z
  .object({
    detail: z.string(),
    code: z.string(),
    fields: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBody>;

/** Stable machine-readable codes for `ErrorBody.code`. */
export const errorCodes = {
  badRequest: 'bad_request',
  validation: 'validation_error',
  notAuthenticated: 'not_authenticated',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  rateLimited: 'rate_limited',
  unavailable: 'unavailable',
  internal: 'internal_error',
  invalidCredentials: 'invalid_credentials',
  emailNotVerified: 'email_not_verified',
} as const;

export const healthResponse = z.object({ status: z.literal('ok') });
