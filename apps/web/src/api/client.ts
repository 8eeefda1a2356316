import type { ErrorBody } from '@merit/contract';
import type { z } from 'zod';
import { loadContract, type ContractModule, type SchemaPicker } from './contract';
import { getToken } from './session';

export const API_BASE = '/api/v1';

/**
 * A failed API call. `body` is always an ErrorBody: the server's own when it sent one,
 * otherwise one made here, so forms can show `detail` and `fields` without checks.
 * `status` is 0 when the server (or the app's own code) could not be reached.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody) {
    super(body.detail);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

const unreachable: ErrorBody = {
  detail: 'The server could not be reached. Check your connection and try again.',
  code: 'network_error',
};

export interface RequestOptions<S extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** The contract schema of the success body, e.g. `(c) => c.userDetails`. */
  schema: SchemaPicker<S>;
  signal?: AbortSignal;
}

/** Calls `/api/v1<path>` with the session token; returns the body parsed by `schema`. */
export async function apiRequest<S extends z.ZodType>(
  path: string,
  { method = 'GET', body, schema, signal }: RequestOptions<S>,
): Promise<z.output<S>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = getToken();
  if (token) headers.Authorization = `Token ${token}`;

  let contract: ContractModule;
  let response: Response;
  try {
    [contract, response] = await Promise.all([
      loadContract(),
      fetch(`${API_BASE}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      }),
    ]);
  } catch (error) {
    // A cancelled query is not a failure to report; TanStack Query expects the abort.
    if (signal?.aborted) throw error;
    throw new ApiError(0, unreachable);
  }

  const payload = await readJson(response);
  if (!response.ok) {
    throw new ApiError(response.status, toErrorBody(contract, response, payload));
  }

  const parsed = schema(contract).safeParse(payload);
  if (!parsed.success) {
    // The server and this app disagree on the contract: most likely a deployment
    // replaced the server while this page was open, so reloading fixes it.
    console.error(`Unexpected response body from ${method} ${path}`, parsed.error);
    throw new ApiError(response.status, {
      detail: 'The server sent a response this page does not understand. Reload the page.',
      code: 'invalid_response',
    });
  }
  return parsed.data;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function toErrorBody(contract: ContractModule, response: Response, payload: unknown): ErrorBody {
  const parsed = contract.errorBody.safeParse(payload);
  if (parsed.success) return parsed.data;
  // Not our server's error shape: a proxy or gateway answered instead.
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return { detail: `The request failed (${status}). Try again later.`, code: 'http_error' };
}

/** Every message an error carries, for the red list above a form (spec section 8). */
export function errorMessages(error: unknown, fieldLabels: Record<string, string> = {}): string[] {
  if (error instanceof ApiError) {
    const fieldMessages = Object.entries(error.body.fields ?? {}).flatMap(([field, list]) => {
      const label = fieldLabels[field];
      return list.map((message) => (label ? `${label}: ${message}` : message));
    });
    return [error.body.detail, ...fieldMessages];
  }
  if (error instanceof Error && error.message) return [error.message];
  return ['Something went wrong. Try again.'];
}
