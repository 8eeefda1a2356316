import { dateRangeMessage, isStorableDate } from '@merit/domain';
import { z } from 'zod';

/** The body of every failed response (ARCHITECTURE.md "Errors"). */
export const errorBody = z
  .object({
    detail: z.string(),
    code: z.string(),
    fields: z.record(z.string(), z.array(z.string())).optional(),
    /**
     * With `code` `stale` (a save that started from a version someone has since changed):
     * what is saved now, so the person can choose between theirs and it. Its shape is the
     * route's (`staleEntry`, `staleReview`, `staleDecision`); null when it is gone.
     */
    current: z.unknown().optional(),
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
  /** Too many recent failed logins for this username: the next attempt needs a solved captcha. */
  captchaRequired: 'captcha_required',
  /** The second step of a login: the code was not right (the login may try again). */
  twoFactor: 'two_factor',
  /** The second step of a login: its ticket expired, was used or had too many wrong codes. */
  twoFactorExpired: 'two_factor_expired',
  /** A federated account must complete its registration before anything else. */
  registrationIncomplete: 'registration_incomplete',
  /**
   * 409: the save started from a version that is no longer the saved one (someone saved
   * since, or the entry is gone); nothing was written, and `current` holds what is saved.
   */
  stale: 'stale',
  /** A body or a file larger than its route takes; the message says the limit. */
  payloadTooLarge: 'payload_too_large',
  /**
   * An admin route, for an admin who must turn on two-step verification before
   * administering (ADMIN_TWO_FACTOR=required).
   */
  adminTwoFactorRequired: 'admin_two_factor_required',
  /**
   * 403: the call asks its members to say whether they have a conflict of interest with a
   * proposal before it opens for them (POST /proposals/{id}/conflict_declaration/).
   */
  declarationRequired: 'declaration_required',
  /**
   * 409 of POST /reviewers/: the member has as many reviews in the call as their cap
   * (issue 27). Send the assignment again with `overCap: true` to make it all the same.
   */
  overCap: 'over_cap',
} as const;

export const healthResponse = z.object({ status: z.literal('ok') });

/** A JSON object of any shape: a form's answers. */
export const jsonObject = z.record(z.string(), z.unknown());

// PostgreSQL integer ids: a larger number would fail in the database instead of as bad input.
const MAX_ID = 2_147_483_647;
const idMessage = 'Expected an id: a whole number from 1 to 2147483647.';

/** An id in a JSON body. */
export const entityId = z
  .number({ error: (issue) => (issue.input == null ? undefined : idMessage) })
  .int({ error: idMessage })
  .min(1, { error: idMessage })
  .max(MAX_ID, { error: idMessage });

/**
 * An id in a path or query string, where it arrives as text: only the canonical spelling
 * of a positive integer. `Number()` would also read " 1", "1e0", "0x1", "+1", "1.0" and
 * "01" as 1, so one resource would answer to many addresses (and a DELETE to any of them).
 * A bad id in a path is a 404 (platform/http/errors.ts), in a query string a 400.
 */
export const idParam = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, { error: idMessage })
  .transform(Number)
  .pipe(z.number().max(MAX_ID, { error: idMessage }));

export const idParams = z.object({ id: idParam });

/** `{id}` in a body: the spec's delete calls (committees, form names, forms). */
export const idBody = z.object({ id: entityId });

/** An instant in a response: ISO 8601 in UTC, as `Date.toISOString()` writes it. */
export const dateTime = z.iso.datetime({ offset: true });

/**
 * An instant in a request: ISO 8601 with its time zone, within the years every part of
 * Merit can store (a year 0000 or a 9999-12-31 with a negative offset would otherwise pass
 * the format and fail in the database).
 */
export const dateTimeInput = z.iso
  .datetime({
    offset: true,
    error:
      'Enter a date and time in ISO 8601 with its time zone, such as 2026-07-01T09:00:00+10:00.',
  })
  .refine((text) => isStorableDate(new Date(text)), { error: dateRangeMessage });

/** The body of a 204 No Content answer: nothing. */
export const noContent = z.null().describe('No content');

// --- Lists -------------------------------------------------------------------------

/** The most rows one page of a list may hold. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

const positiveInt = (max: number, message: string) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, { error: message })
    .transform(Number)
    .pipe(z.number().max(max, { error: message }));

/**
 * The query of a list that pages on the server: `page` (from 1), `pageSize` (at most
 * MAX_PAGE_SIZE), `sort` (a column key, `-` in front for descending) and `q` (search).
 * `sortKeys` names the columns the list sorts by; anything else is a 400.
 */
export function listQuery(sortKeys: readonly [string, ...string[]], defaultSort: string) {
  const sorts = sortKeys.flatMap((key) => [key, `-${key}`]) as [string, ...string[]];
  return z.object({
    page: positiveInt(1_000_000, 'Expected a page number from 1.').default(1),
    pageSize: positiveInt(
      MAX_PAGE_SIZE,
      `Expected a page size from 1 to ${MAX_PAGE_SIZE}.`,
    ).default(DEFAULT_PAGE_SIZE),
    sort: z.enum(sorts, { error: `Sort by one of: ${sorts.join(', ')}.` }).default(defaultSort),
    q: z.string().trim().max(200).default(''),
  });
}
export interface ListQuery {
  page: number;
  pageSize: number;
  /** A column key, with `-` in front for descending. */
  sort: string;
  q: string;
}

/** The column and direction of a list's `sort`. */
export function parseSort(sort: string): { key: string; descending: boolean } {
  return sort.startsWith('-')
    ? { key: sort.slice(1), descending: true }
    : { key: sort, descending: false };
}

/**
 * One page of a list: the rows, where they sit (`page`, `pageSize`), how many rows the
 * whole list holds after the search (`total`), and the sort that ordered them.
 */
export function paginated<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE),
    total: z.number().int().min(0),
    sort: z.string(),
  });
}
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
  sort: string;
}
