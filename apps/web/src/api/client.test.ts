import { noContent, userDetails } from '@merit/contract';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/render-app';
import { makeUser } from '../test/fixtures';
import { ApiError, apiRequest, apiRequestWithGuard, errorMessages, loadCode } from './client';
import { setToken } from './session';
import { getTabId, TAB_HEADER } from './tab-id';

const pickUser = () => userDetails;

describe('apiRequest', () => {
  it('returns the body parsed by the schema, sending the token', async () => {
    const user = makeUser();
    const fetchStub = stubApi({ 'GET /user_details/': { body: user } });
    setToken('secret-key');

    await expect(apiRequest('/user_details/', { schema: pickUser })).resolves.toEqual(user);
    const [url, init] = fetchStub.mock.calls[0]!;
    expect(url).toBe('/api/v1/user_details/');
    expect(init?.headers).toMatchObject({ Authorization: 'Token secret-key' });
  });

  it('names this browser tab in every request, for the editing lock', async () => {
    const fetchStub = stubApi({ 'GET /lock/30/': { status: 204 } });
    await apiRequest('/lock/30/', { schema: () => noContent.optional() });
    const init = fetchStub.mock.calls[0]![1]!;
    expect(init.headers).toMatchObject({ [TAB_HEADER]: getTabId() });
    expect(getTabId()).not.toBe('');
  });

  it('keeps what a 409 stale says is saved now', async () => {
    const current = { entryId: 'e1', version: 3, data: { title: 'Theirs' } };
    stubApi({
      'POST /proposal_responses/': {
        status: 409,
        body: { detail: 'Changed by Grace.', code: 'stale', current },
      },
    });
    const error = await apiRequest('/proposal_responses/', {
      method: 'POST',
      body: {},
      schema: () => noContent.optional(),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 409,
      body: { detail: 'Changed by Grace.', code: 'stale', current },
    });
  });

  it('sends no Authorization header when nobody is logged in', async () => {
    const fetchStub = stubApi({ 'POST /auth/login/': { body: { key: 'k' } } });
    await apiRequest('/auth/login/', {
      method: 'POST',
      body: { username: 'a', password: 'b' },
      schema: (c) => c.loginResponse,
    });
    const init = fetchStub.mock.calls[0]![1]!;
    expect(init.headers).not.toHaveProperty('Authorization');
    expect(init.body).toBe('{"username":"a","password":"b"}');
  });

  it("throws an ApiError with the status and the server's error body", async () => {
    const body = {
      detail: 'The request is not valid.',
      code: 'validation_error',
      fields: { username: ['This field is required.'] },
    };
    stubApi({ 'POST /auth/login/': { status: 400, body } });

    const error = await apiRequest('/auth/login/', {
      method: 'POST',
      body: {},
      schema: (c) => c.loginResponse,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, body, message: 'The request is not valid.' });
  });

  it('makes an error body when the failure did not come from the API (a gateway page)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad Gateway</html>', { status: 502 })),
    );
    const error = await apiRequest('/user_details/', { schema: pickUser }).catch((e) => e);
    expect(error).toMatchObject({ status: 502, body: { code: 'http_error' } });
    expect((error as ApiError).body.detail).toContain('502');
  });

  it('reports an unreachable server as status 0', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const error = await apiRequest('/user_details/', { schema: pickUser }).catch((e) => e);
    expect(error).toMatchObject({ status: 0, body: { code: 'network_error' } });
  });

  it('refuses a success body that breaks the contract', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({ 'GET /user_details/': { body: { username: 'no id' } } });
    const error = await apiRequest('/user_details/', { schema: pickUser }).catch((e) => e);
    expect(error).toMatchObject({ status: 200, body: { code: 'invalid_response' } });
  });

  it('passes on a cancel that comes while the body is on its way, without a console error', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    consoleError.mockClear();
    const controller = new AbortController();
    // The headers have arrived; the body never will: the query is cancelled meanwhile.
    const body = new ReadableStream({
      start(stream) {
        controller.signal.addEventListener('abort', () =>
          stream.error(new DOMException('The operation was aborted.', 'AbortError')),
        );
      },
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(body, { status: 200 })),
    );
    const request = apiRequest('/user_details/', { schema: pickUser, signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const error = await request.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(consoleError).not.toHaveBeenCalled();
  });
});

describe('apiRequestWithGuard', () => {
  const isNamed = (payload: unknown): payload is { name: string } =>
    typeof (payload as { name?: unknown } | null)?.name === 'string';

  it('returns a body that passes the guard', async () => {
    stubApi({ 'GET /thing/': { body: { name: 'x' } } });
    await expect(apiRequestWithGuard('/thing/', { guard: isNamed })).resolves.toEqual({
      name: 'x',
    });
  });

  it('refuses a body that fails the guard', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({ 'GET /thing/': { body: { name: 3 } } });
    const error = await apiRequestWithGuard('/thing/', { guard: isNamed }).catch((e) => e);
    expect(error).toMatchObject({ status: 200, body: { code: 'invalid_response' } });
  });

  it("throws the server's error body like apiRequest", async () => {
    const body = { detail: 'Nope.', code: 'forbidden', fields: { a: ['Bad.'] } };
    stubApi({ 'POST /thing/': { status: 403, body } });
    const error = await apiRequestWithGuard('/thing/', { method: 'POST', guard: isNamed }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ status: 403, body });
  });
});

describe('errorMessages', () => {
  it('lists a field message that repeats the detail only once', () => {
    const error = new ApiError(400, {
      detail: 'This link is invalid.',
      code: 'bad_request',
      fields: { token: ['This link is invalid.'], other: ['Another.'] },
    });
    expect(errorMessages(error)).toEqual(['This link is invalid.', 'Another.']);
  });

  it('lists the detail, then every field message, named by its label', () => {
    const error = new ApiError(400, {
      detail: 'Invalid input.',
      code: 'validation_error',
      fields: { username: ['Too long.', 'Restricted characters.'], other: ['Odd.'] },
    });
    expect(errorMessages(error, { username: 'Username' })).toEqual([
      'Invalid input.',
      'Username: Too long.',
      'Username: Restricted characters.',
      'Odd.',
    ]);
  });

  it('falls back to the message of other errors', () => {
    expect(errorMessages(new Error('Boom'))).toEqual(['Boom']);
    expect(errorMessages('weird')).toEqual(['Something went wrong. Try again.']);
  });
});

describe('loadCode', () => {
  it('hands back the code once it has downloaded', async () => {
    expect(await loadCode(() => Promise.resolve({ answer: 42 }))).toEqual({ answer: 42 });
  });

  it('tells people the server could not be reached when a part of the app fails to download, not the browser’s words', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failed = new TypeError(
      'Failed to fetch dynamically imported module: http://localhost/assets/xlsx-writer-3f2a.js',
    );
    const error = await loadCode(() => Promise.reject(failed)).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, body: { code: 'network_error' } });
    expect(errorMessages(error)).toEqual([
      'The server could not be reached. Check your connection and try again.',
    ]);
    expect(warn).toHaveBeenCalledWith(expect.any(String), failed);
  });
});
