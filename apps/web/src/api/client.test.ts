import { userDetails } from '@merit/contract';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/render-app';
import { makeUser } from '../test/fixtures';
import { ApiError, apiRequest, errorMessages } from './client';
import { setToken } from './session';

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
});

describe('errorMessages', () => {
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
