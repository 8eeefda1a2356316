import type { ErrorBody } from '@merit/contract';
import type { z } from 'zod';
import { loadContract, type ContractModule, type SchemaPicker } from './contract';
import { getToken } from './session';
import { getTabId, TAB_HEADER } from './tab-id';

export const API_BASE = '/api/v1';
const JSON_TYPE = 'application/json';

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

/**
 * Loads a part of the app's code that downloads when first used (`() => import(...)`). A
 * failed download (the connection dropped, or a new deployment replaced the file) fails
 * as an unreachable server does, so people read what to do instead of the browser's words
 * for developers ("Failed to fetch dynamically imported module: ...").
 */
export async function loadCode<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    console.warn('A part of the app could not be downloaded:', error);
    throw new ApiError(0, unreachable);
  }
}

export interface RequestOptions<S extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, instead of `body`: a file's text with its media type (a CSV upload). */
  text?: TextBody;
  /** The contract schema of the success body, e.g. `(c) => c.userDetails`. */
  schema: SchemaPicker<S>;
  signal?: AbortSignal;
  /**
   * Lets the request outlive the page, for a last word as the tab closes (releasing a
   * lock): `fetch`'s `keepalive`, since `sendBeacon` can neither DELETE nor send the token.
   */
  keepalive?: boolean;
}

/** Calls `/api/v1<path>` with the session token; returns the body parsed by `schema`. */
export async function apiRequest<S extends z.ZodType>(
  path: string,
  { method = 'GET', body, text, schema, signal, keepalive }: RequestOptions<S>,
): Promise<z.output<S>> {
  let contract: ContractModule;
  let payload: unknown;
  let status: number;
  try {
    // The request first: on a first load it then goes out ahead of the contract's code.
    [{ payload, status }, contract] = await Promise.all([
      send(path, { method, body, text, signal, keepalive }),
      loadContract(),
    ]);
  } catch (error) {
    // A cancelled query is not a failure to report; TanStack Query expects the abort.
    if (error instanceof ApiError || signal?.aborted) throw error;
    // The contract's code could not be downloaded.
    throw new ApiError(0, unreachable);
  }

  const parsed = schema(contract).safeParse(payload);
  if (!parsed.success) {
    // The server and this app disagree on the contract: most likely a deployment
    // replaced the server while this page was open, so reloading fixes it.
    console.error(`Unexpected response body from ${method} ${path}`, parsed.error);
    throw invalidResponse(status);
  }
  return parsed.data;
}

export interface UncheckedRequestOptions<T> extends Omit<RequestOptions<z.ZodType>, 'schema'> {
  /** A hand-written check of the success body. */
  guard: (payload: unknown) => payload is T;
}

/**
 * `apiRequest` without the contract, for the few calls a first page makes before anyone
 * acts: loading the contract would bring zod (~26 KB gzipped) into the login page's
 * budget. The body is checked by a small hand-written guard instead.
 */
export async function apiRequestWithGuard<T>(
  path: string,
  { method = 'GET', body, guard, signal }: UncheckedRequestOptions<T>,
): Promise<T> {
  const { payload, status } = await send(path, { method, body, signal });
  if (!guard(payload)) {
    console.error(`Unexpected response body from ${method} ${path}`, payload);
    throw invalidResponse(status);
  }
  return payload;
}

/** A body sent as it is, e.g. `{ content: csv, type: 'text/csv' }`. */
export interface TextBody {
  content: string;
  type: string;
}

/**
 * GETs `/api/v1<path>` as text (a CSV download) rather than JSON; errors come as the
 * ApiError every other call throws.
 */
export async function apiText(
  path: string,
  { accept, signal }: { accept: string; signal?: AbortSignal },
): Promise<string> {
  const { payload } = await send(path, { method: 'GET', accept, signal });
  return typeof payload === 'string' ? payload : '';
}

function invalidResponse(status: number): ApiError {
  return new ApiError(status, {
    detail: 'The server sent a response this page does not understand. Reload the page.',
    code: 'invalid_response',
  });
}

/** Sends the request; resolves with a successful response's JSON, or throws an ApiError. */
async function send(
  path: string,
  {
    method,
    body,
    text,
    signal,
    keepalive,
    accept = JSON_TYPE,
  }: Pick<RequestOptions<z.ZodType>, 'method' | 'body' | 'text' | 'signal' | 'keepalive'> & {
    /** Another media type than JSON: a successful answer's payload is then its text. */
    accept?: string;
  },
): Promise<{ payload: unknown; status: number }> {
  const headers: Record<string, string> = { Accept: accept };
  if (text !== undefined) headers['Content-Type'] = text.type;
  else if (body !== undefined) headers['Content-Type'] = JSON_TYPE;
  const token = getToken();
  if (token) headers.Authorization = `Token ${token}`;
  // Names the editor this request comes from: the editing lock is held per tab.
  headers[TAB_HEADER] = getTabId();

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body:
        text !== undefined ? text.content : body === undefined ? undefined : JSON.stringify(body),
      signal,
      keepalive,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, unreachable);
  }
  // An error is always the server's JSON ErrorBody, whatever was asked for.
  const payload =
    response.ok && accept !== JSON_TYPE ? await response.text() : await readJson(response, signal);
  if (!response.ok) throw new ApiError(response.status, toErrorBody(response, payload));
  return { payload, status: response.status };
}

async function readJson(response: Response, signal?: AbortSignal): Promise<unknown> {
  const text = await response.text().catch((error: unknown) => {
    // Cancelled while the body was on its way (the person moved on): not an empty body,
    // which the contract would then refuse as if the server had broken it.
    if (signal?.aborted) throw error;
    return '';
  });
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The server's error body (`ErrorBody` of the contract), checked by hand: errors must
 * read the same on pages that have not loaded the contract.
 */
function isErrorBody(payload: unknown): payload is ErrorBody {
  if (typeof payload !== 'object' || payload === null) return false;
  const { detail, code, fields } = payload as Record<string, unknown>;
  if (typeof detail !== 'string' || typeof code !== 'string') return false;
  if (fields === undefined) return true;
  return (
    typeof fields === 'object' &&
    fields !== null &&
    Object.values(fields).every(
      (list) => Array.isArray(list) && list.every((item) => typeof item === 'string'),
    )
  );
}

function toErrorBody(response: Response, payload: unknown): ErrorBody {
  if (isErrorBody(payload)) {
    const { detail, code, fields, current } = payload;
    const body: ErrorBody = fields === undefined ? { detail, code } : { detail, code, fields };
    // A 409 `stale` carries what is saved now, for the person to choose between.
    if (current !== undefined) body.current = current;
    return body;
  }
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
    // A field message that only repeats the detail (a bad reset link says so in both) is
    // listed once.
    return [...new Set([error.body.detail, ...fieldMessages])];
  }
  if (error instanceof Error && error.message) return [error.message];
  return ['Something went wrong. Try again.'];
}
