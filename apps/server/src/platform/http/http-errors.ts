import { errorCodes, type ErrorBody } from '@merit/contract';
import { messages } from '@merit/domain';

/**
 * A failure the client caused or may see. The error handler turns it into the error
 * envelope `{ detail, code, fields? }`; anything that is not an HttpError is a 500.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly detail: string,
    readonly fields?: ErrorBody['fields'],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = 'HttpError';
  }

  toBody(): ErrorBody {
    return this.fields
      ? { detail: this.detail, code: this.code, fields: this.fields }
      : { detail: this.detail, code: this.code };
  }
}

export const badRequest = (
  detail: string,
  fields?: ErrorBody['fields'],
  code: string = errorCodes.badRequest,
) => new HttpError(400, code, detail, fields);
export const notAuthenticated = (detail: string) =>
  new HttpError(401, errorCodes.notAuthenticated, detail);
export const forbidden = (detail: string) => new HttpError(403, errorCodes.forbidden, detail);
export const notFound = (detail: string) => new HttpError(404, errorCodes.notFound, detail);
export const conflict = (detail: string) => new HttpError(409, errorCodes.conflict, detail);

/** Bad input by field: `fields` tells the form which message goes beside which field. */
export const invalid = (
  fields: NonNullable<ErrorBody['fields']>,
  detail: string = messages.validationFailed,
) => new HttpError(400, errorCodes.validation, detail, fields);

/**
 * 409 `stale`: a save that started from a version someone has changed since. Nothing was
 * written; `current` (in the envelope beside `detail`) is what is saved now, so the
 * person can choose between their answers and it.
 */
export class StaleError extends HttpError {
  constructor(
    detail: string,
    readonly current: unknown,
  ) {
    super(409, errorCodes.stale, detail);
  }

  override toBody(): ErrorBody {
    return { ...super.toBody(), current: this.current };
  }
}
export const stale = (detail: string, current: unknown) => new StaleError(detail, current);
