import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '5' } });
});
afterAll(() => ctx.close());

describe('the per-address limit on the auth endpoints', () => {
  it('allows AUTH_RATE_LIMIT_PER_IP requests per 15 minutes across them, then 429 with Retry-After', async () => {
    const requests = [
      () => ctx.app.inject({ method: 'GET', url: '/api/v1/auth/captcha/' }),
      () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login/',
          payload: { username: 'x', password: 'y' },
        }),
      () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/v1/auth/password/reset/',
          payload: { email: 'a@example.org' },
        }),
      () => ctx.app.inject({ method: 'POST', url: '/api/v1/auth/registration/', payload: {} }),
      () => ctx.app.inject({ method: 'GET', url: '/api/v1/auth/captcha/' }),
    ];
    for (const request of requests) expect((await request()).statusCode).not.toBe(429);
    const limited = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/captcha/' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Other endpoints are not limited.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);

    ctx.clock.advance(retryAfter * 1000);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/captcha/' })).statusCode).toBe(
      200,
    );
  });
});
