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

// PostgreSQL integer ids: a larger number would fail in the database instead of as bad input.
const MAX_ID = 2_147_483_647;
const idMessage = 'Expected an id: a whole number from 1 to 2147483647.';

/** An id in a JSON body. */
export const entityId = z
  .number({ error: (issue) => (issue.input == null ? undefined : idMessage) })
  .int({ error: idMessage })
  .min(1, { error: idMessage })
  .max(MAX_ID, { error: idMessage });

/** An id in a path or query string, where it arrives as text. */
export const idParam = z.coerce
  .number({ error: idMessage })
  .int({ error: idMessage })
  .min(1, { error: idMessage })
  .max(MAX_ID, { error: idMessage });

export const idParams = z.object({ id: idParam });

/** The body of a 204 No Content answer: nothing. */
export const noContent = z.null().describe('No content');
