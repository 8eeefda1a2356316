import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { createQueryClient } from '../api/query-client';
import { setToken } from '../api/session';
import { AppProviders } from '../AppProviders';
import { routes } from '../routes/routes';
import { NAVIGATION_TIMEOUT } from './timeouts';

interface StubResponse {
  status?: number;
  body?: unknown;
  /** Sent as it is with this media type, instead of `body` as JSON (a CSV download). */
  text?: { content: string; type: string };
}

export type ApiHandler = (request: {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}) => StubResponse;

/**
 * For `findBy…` queries that wait on a chain of lazily loaded pages (login, then the
 * shell, then the page): the first import of each chunk in jsdom evaluates it, which on
 * a loaded machine takes longer than findBy's usual limit (test/timeouts.ts).
 */
export const AFTER_NAVIGATION = { timeout: NAVIGATION_TIMEOUT };

/**
 * What every page may ask without a test saying so: no federated login is configured, and
 * the person has no reminders.
 */
const DEFAULT_ANSWERS: Record<string, StubResponse> = {
  'GET /auth/methods/': { body: { oidc: null } },
  // My Account's "Reminders you receive" (issue 28): none, unless a test says otherwise.
  'GET /my_reminders/': { body: { upcoming: [], sent: [] } },
};

/**
 * Replaces `fetch` with a table of API answers keyed by "METHOD /path" (without
 * /api/v1). Component tests only: the real server has its own API and e2e suites.
 */
export function stubApi(answers: Record<string, StubResponse | ApiHandler>) {
  const table = { ...DEFAULT_ANSWERS, ...answers };
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = String(input).replace(/^\/api\/v1/, '');
    const entry = table[`${method} ${path}`];
    if (!entry) throw new Error(`Unexpected API call in test: ${method} ${path}`);
    const headers = (init.headers ?? {}) as Record<string, string>;
    // A body of another type than JSON (a CSV upload) reaches the handler as its text.
    const json = (headers['Content-Type'] ?? 'application/json') === 'application/json';
    const body: unknown =
      typeof init.body === 'string' ? (json ? JSON.parse(init.body) : init.body) : undefined;
    const {
      status = 200,
      body: responseBody,
      text,
    } = typeof entry === 'function' ? entry({ method, path, headers, body }) : entry;
    if (text) return new Response(text.content, { status, headers: { 'Content-Type': text.type } });
    return new Response(responseBody === undefined ? null : JSON.stringify(responseBody), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return fetchStub;
}

type FetchStub = ReturnType<typeof stubApi>;

/** The calls made so far, as "METHOD /path". */
export function apiCalls(fetchStub: FetchStub): string[] {
  return fetchStub.mock.calls.map(
    ([input, init]) => `${init?.method ?? 'GET'} ${String(input).replace(/^\/api\/v1/, '')}`,
  );
}

/** The JSON body of the first call to "METHOD /path". */
export function sentBody(fetchStub: FetchStub, call: string): unknown {
  const index = apiCalls(fetchStub).indexOf(call);
  if (index === -1)
    throw new Error(`No ${call} was made; the calls were: ${apiCalls(fetchStub).join(', ')}`);
  const body = fetchStub.mock.calls[index]![1]?.body;
  return typeof body === 'string' ? JSON.parse(body) : undefined;
}

/** Renders the real route table at `path`, signed in with `token` when given. */
export function renderApp(path: string, { token }: { token?: string } = {}) {
  if (token) setToken(token);
  const client = createQueryClient();
  // Tests assert the first answer; retries would only slow a failing case down.
  client.setDefaultOptions({ queries: { retry: false } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders client={client}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...view, router, client, location };
}
