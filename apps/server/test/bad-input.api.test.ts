import { dateRangeMessage } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  MAX_NESTING,
  tooDeepMessage,
  unstorableTextMessage,
} from '../src/platform/http/input-guard.js';
import { auth, createTestApp, login, makeUser, type TestContext } from './helpers.js';

/**
 * Input that passes a loose schema but that PostgreSQL cannot take, sent to EVERY route
 * the server registers (read from the app's own route table, so a route added later is
 * covered without anyone remembering to): each must answer 4xx with a message on the
 * field, never a 500.
 */
let ctx: TestContext;
let headers: Record<string, string>;

beforeAll(async () => {
  ctx = await createTestApp();
  const admin = await makeUser(ctx.app, { isAdmin: true });
  headers = auth(await login(ctx.app, admin.username));
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

const apiRoutes = () =>
  ctx.app.routes.filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'OPTIONS');

/** The path with each `:param` filled in. */
const fill = (url: string, value: string) => url.replace(/:(\w+)/g, value);

/** The body fields the route's schema declares as date-times. */
function dateFields(body: z.ZodType | undefined): string[] {
  if (!body) return [];
  const schema = z.toJSONSchema(body, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { format?: string }>;
  };
  return Object.entries(schema.properties ?? {})
    .filter(([, property]) => property.format === 'date-time')
    .map(([name]) => name);
}

describe('every route, whatever it is sent', () => {
  it('covers the routes it should (the table is read from the server)', () => {
    const urls = apiRoutes().map((r) => `${r.method} ${r.url}`);
    expect(urls).toContain('POST /api/v1/auth/login/');
    expect(urls).toContain('POST /api/v1/new_call/');
    expect(urls.length).toBeGreaterThan(40);
  });

  it('refuses a NUL character in the body with a message on the field', async () => {
    for (const route of apiRoutes().filter((r) => r.method !== 'GET')) {
      const res = await ctx.app.inject({
        method: route.method as Method,
        url: fill(route.url, '1'),
        headers,
        payload: { probe: 'a\u0000b', nested: [{ name: 'fine' }] },
      });
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(400);
      expect(res.json().fields, `${route.method} ${route.url}`).toEqual({
        probe: [unstorableTextMessage],
      });
    }
  });

  it('refuses a lone UTF-16 surrogate, deep in the body too', async () => {
    for (const route of apiRoutes().filter((r) => r.method !== 'GET')) {
      const res = await ctx.app.inject({
        method: route.method as Method,
        url: fill(route.url, '1'),
        headers: { ...headers, 'content-type': 'application/json' },
        // Written by hand: a lone surrogate escaped in JSON, as a broken client sends it.
        payload: '{"outer": {"list": ["ok", "\\ud800 half a pair"]}}',
      });
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(400);
      expect(res.json().fields, `${route.method} ${route.url}`).toEqual({
        'outer.list.1': [unstorableTextMessage],
      });
    }
  });

  it('refuses a body nested deeper than MAX_NESTING levels, on every route, before it can overflow the stack', async () => {
    // Found by the route fuzzer (test/fuzz.api.test.ts): 5,000 levels of arrays in form
    // answers overflowed JSON.stringify on the way to a jsonb column, a 500.
    const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    // The root is level 1, `data` level 2: the object past the limit is `data` and 99 `a`s in.
    const tooDeepAt = ['data', ...Array.from({ length: MAX_NESTING - 1 }, () => 'a')].join('.');
    for (const route of apiRoutes().filter((r) => r.method !== 'GET')) {
      for (const levels of [MAX_NESTING + 1, 20_000]) {
        const res = await ctx.app.inject({
          method: route.method as Method,
          url: fill(route.url, '1'),
          headers: { ...headers, 'content-type': 'application/json' },
          payload: `{"data": ${deep(levels - 1)}}`,
        });
        expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(400);
        expect(res.json().fields, `${route.method} ${route.url}`).toEqual({
          [tooDeepAt]: [tooDeepMessage],
        });
      }
    }
  });

  it('takes a body nested MAX_NESTING levels deep past the guard', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/committees/',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: `{"name": "Deep", "extra": ${'['.repeat(MAX_NESTING - 1)}${']'.repeat(MAX_NESTING - 1)}}`,
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses a NUL character in the query string', async () => {
    for (const route of apiRoutes()) {
      const res = await ctx.app.inject({
        method: route.method as Method,
        url: `${fill(route.url, '1')}?probe=%00`,
        headers,
        ...(route.method === 'GET' ? {} : { payload: {} }),
      });
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(400);
      expect(res.json().fields).toEqual({ probe: [unstorableTextMessage] });
    }
  });

  it('answers 404 for a NUL character or a malformed id in the path', async () => {
    const withParams = apiRoutes().filter((r) => r.url.includes(':'));
    expect(withParams.length).toBeGreaterThan(5);
    for (const route of withParams) {
      for (const bad of ['%00', '%201', '1e0', '0x1', '+1', '1.0', '01', '-1', '99999999999']) {
        const res = await ctx.app.inject({
          method: route.method as Method,
          url: fill(route.url, bad),
          headers,
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
        expect(res.statusCode, `${route.method} ${fill(route.url, bad)}: ${res.body}`).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
      }
    }
  });

  it('refuses dates PostgreSQL cannot store on every date field, with the range in the message', async () => {
    const checked: string[] = [];
    for (const route of apiRoutes()) {
      for (const field of dateFields(route.body)) {
        for (const date of ['0000-01-01T00:00:00Z', '9999-12-31T23:00:00-05:00']) {
          const res = await ctx.app.inject({
            method: route.method as Method,
            url: fill(route.url, '1'),
            headers,
            payload: { [field]: date },
          });
          expect(res.statusCode, `${route.url} ${field}=${date}: ${res.body}`).toBe(400);
          expect(res.json().fields[field], `${route.url} ${field}=${date}`).toEqual([
            dateRangeMessage,
          ]);
        }
        checked.push(`${route.url} ${field}`);
      }
    }
    // The calls and extensions carry dates today; the list grows with the product.
    expect(checked).toEqual(
      expect.arrayContaining([
        '/api/v1/new_call/ openDateTime',
        '/api/v1/new_call/ reviewCloseDateTime',
        '/api/v1/new_extension/ commencement',
        '/api/v1/new_extension/ termination',
      ]),
    );
  });
});
