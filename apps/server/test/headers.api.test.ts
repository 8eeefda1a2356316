import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ProposalDetail } from '@merit/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from './admin-fixtures.js';
import {
  auth,
  createTestApp,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';
import { makeProposalCall, makeProposalForms } from './proposal-fixtures.js';

/**
 * The security headers (issue 16, item 6) on everything the server sends: API answers
 * (success and refusal), the web app's HTML, its static assets, the manual, and file
 * downloads. HSTS only when PUBLIC_URL is https. No CORS for any other origin.
 */

const OTHER_ORIGIN = 'https://evil.example';

/** A built web app and a manual, as `npm run build` leaves them. */
async function builtWeb(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'merit-headers-web-'));
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><title>Merit</title><div id="root"></div><script type="module" src="/assets/index-AbC123.js"></script>',
  );
  await writeFile(path.join(dir, 'assets', 'index-AbC123.js'), 'console.log("merit");');
  await writeFile(path.join(dir, 'assets', 'index-AbC123.css'), 'body{margin:0}');
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(dir, 'manual.pdf'), '%PDF-1.7\n% the manual\n');
  return dir;
}

async function appWith(publicUrl: string | undefined, webDir: string) {
  return createTestApp({
    env: {
      WEB_DIR: webDir,
      MANUAL_PATH: path.join(webDir, 'manual.pdf'),
      ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}),
    },
  });
}

/** The policy's directives, by name. */
function directives(res: LightMyRequestResponse): Map<string, string[]> {
  const csp = res.headers['content-security-policy'];
  expect(typeof csp, 'a content security policy is sent').toBe('string');
  return new Map(
    (csp as string)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** What every answer of the server carries, whatever it is. */
function expectSecurityHeaders(res: LightMyRequestResponse, what: string) {
  const csp = directives(res);
  // Scripts only from the site itself: nothing inline, no eval, nothing from elsewhere.
  expect(csp.get('script-src'), what).toEqual(["'self'"]);
  expect(csp.get('default-src'), what).toEqual(["'self'"]);
  expect(csp.has('script-src-elem') || csp.has('script-src-attr'), what).toBe(false);
  expect(csp.get('object-src'), what).toEqual(["'none'"]);
  expect(csp.get('base-uri'), what).toEqual(["'self'"]);
  expect(csp.get('form-action'), what).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(csp.get('connect-src'), what).toEqual(["'self'"]);
  for (const [name, values] of csp) {
    expect(values, `${what}: ${name}`).not.toContain("'unsafe-eval'");
    expect(values, `${what}: ${name}`).not.toContain('*');
    if (name !== 'style-src') expect(values, `${what}: ${name}`).not.toContain("'unsafe-inline'");
  }
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['referrer-policy'], what).toBe('no-referrer');
  // For browsers older than frame-ancestors, the same answer.
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  expect(res.headers['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(res.headers['cross-origin-resource-policy'], what).toBe('same-origin');
  expect(res.headers['x-powered-by'], what).toBeUndefined();
  expect(res.headers['access-control-allow-origin'], what).toBeUndefined();
  expect(res.headers['access-control-allow-credentials'], what).toBeUndefined();
}

interface Surface {
  what: string;
  request: () => Promise<LightMyRequestResponse>;
  status: number;
}

/** One of each kind of thing the server sends, through `ctx`'s app. */
async function surfaces(ctx: TestContext): Promise<Surface[]> {
  const { app } = ctx;
  const author = await makeUser(app);
  const key = await login(app, author.username);
  const call = caller(app, auth(key));
  const forms = await makeProposalForms(app);
  const admin = await makeUser(app, { isAdmin: true });
  const { callId, typeId } = await makeProposalCall(app, {
    committeeId: (await makeCommittee(app)).id,
    forms,
    admin: { id: admin.id, isAdmin: true },
  });
  const created = await call('POST', '/update_proposal_name/', {
    callId,
    isNew: true,
    name: 'Telescope time',
    type: typeId,
  });
  expect(created.statusCode, created.body).toBe(201);
  const proposalId = (created.json() as ProposalDetail).id;
  const form = new FormData();
  form.append('call', String(callId));
  form.append('proposal', String(proposalId));
  form.append('token', key);
  // A file a browser would run if it sniffed or rendered it: the headers must stop that.
  form.append(
    'file',
    new Blob(['<html><script>alert(1)</script></html>'], { type: 'text/html' }),
    'page.html',
  );
  const encoded = new Response(form);
  const uploaded = await app.inject({
    method: 'POST',
    url: '/api/v1/proposal_file/',
    headers: { 'content-type': encoded.headers.get('content-type')! },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const fileId = (uploaded.json() as { id: number }).id;

  const get =
    (url: string, headers: Record<string, string> = {}) =>
    () =>
      app.inject({ method: 'GET', url, headers });
  return [
    { what: 'an API answer', request: get('/api/v1/health'), status: 200 },
    {
      what: 'an API answer with personal data',
      request: get('/api/v1/user_details/', auth(key)),
      status: 200,
    },
    { what: 'an API refusal (401)', request: get('/api/v1/user_details/'), status: 401 },
    { what: 'an unknown API path (404)', request: get('/api/v1/nothing-here/'), status: 404 },
    { what: 'the web app at /', request: get('/'), status: 200 },
    { what: 'a page path of the web app', request: get(`/proposals/${proposalId}`), status: 200 },
    { what: 'a hashed script', request: get('/assets/index-AbC123.js'), status: 200 },
    { what: 'a hashed style sheet', request: get('/assets/index-AbC123.css'), status: 200 },
    { what: 'an unhashed file', request: get('/favicon.svg'), status: 200 },
    { what: 'the manual', request: get('/help/manual.pdf'), status: 200 },
    { what: 'the API description', request: get('/api/docs/json'), status: 200 },
    {
      what: 'a file download by ticket',
      request: async () => {
        const ticket = await call('POST', '/download_tickets/', { fileId });
        expect(ticket.statusCode, ticket.body).toBe(200);
        return app.inject({ method: 'GET', url: ticket.json().url });
      },
      status: 200,
    },
    {
      what: "a file download by the spec's link",
      request: get(`/api/v1/proposal_file/?token=${key}&proposal=${proposalId}&file=${fileId}`),
      status: 200,
    },
  ];
}

describe.each([
  ['https', 'https://merit.example.org'],
  ['http', 'http://merit.example.org:8080'],
  ['unset (http://localhost)', undefined],
])('with PUBLIC_URL %s', (scheme, publicUrl) => {
  let ctx: TestContext;
  let webDir: string;
  let all: Surface[];
  beforeAll(async () => {
    webDir = await builtWeb();
    ctx = await appWith(publicUrl, webDir);
    all = await surfaces(ctx);
  });
  afterAll(async () => {
    await ctx.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it('sends the security headers on every kind of answer', async () => {
    for (const surface of all) {
      const res = await surface.request();
      expect(res.statusCode, surface.what).toBe(surface.status);
      expectSecurityHeaders(res, surface.what);
    }
  });

  it(
    publicUrl?.startsWith('https:')
      ? 'tells browsers to use https for a year (HSTS) on every answer'
      : 'sends no HSTS, which would pin the host name to https',
    async () => {
      for (const surface of all) {
        const res = await surface.request();
        const hsts = res.headers['strict-transport-security'];
        if (publicUrl?.startsWith('https:')) {
          expect(hsts, surface.what).toBe('max-age=31536000; includeSubDomains');
        } else {
          expect(hsts, `${scheme}: ${surface.what}`).toBeUndefined();
        }
      }
    },
  );

  if (publicUrl?.startsWith('https:')) {
    it('sends downloads as attachments that no browser sniffs or runs', async () => {
      for (const surface of all.filter((s) => s.what.startsWith('a file download'))) {
        const res = await surface.request();
        expect(res.body, surface.what).toBe('<html><script>alert(1)</script></html>');
        expect(res.headers['content-disposition'], surface.what).toMatch(/^attachment;/);
        expect(res.headers['content-type'], surface.what).not.toMatch(/html/);
        expect(res.headers['cache-control'], surface.what).toMatch(/\bno-store\b/);
      }
    });

    it('answers the web app and its assets as their own types, for nosniff to hold', async () => {
      const types = new Map([
        ['/', /^text\/html/],
        ['/assets/index-AbC123.js', /^(text|application)\/javascript/],
        ['/assets/index-AbC123.css', /^text\/css/],
        ['/favicon.svg', /^image\/svg\+xml/],
      ]);
      for (const [url, type] of types) {
        const res = await ctx.app.inject({ method: 'GET', url });
        expect(res.headers['content-type'], url).toMatch(type);
      }
    });
  }
});

describe('other origins (no CORS)', () => {
  let ctx: TestContext;
  let webDir: string;
  let key: string;
  beforeAll(async () => {
    webDir = await builtWeb();
    ctx = await appWith('https://merit.example.org', webDir);
    key = await login(ctx.app, (await makeUser(ctx.app)).username);
  });
  afterAll(async () => {
    await ctx.close();
    await rm(webDir, { recursive: true, force: true });
  });

  const corsHeaders = (res: LightMyRequestResponse) =>
    Object.keys(res.headers).filter((name) => name.startsWith('access-control-'));

  it.each([
    ['/api/v1/auth/login/', 'POST'],
    ['/api/v1/user_details/', 'PATCH'],
    ['/api/v1/proposal_responses/', 'POST'],
    ['/api/v1/lock/1/', 'DELETE'],
  ])('grants no preflight for %s %s, in the error envelope', async (url, method) => {
    const res = await ctx.app.inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin: OTHER_ORIGIN,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(corsHeaders(res)).toEqual([]);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(Object.keys(res.json()).sort()).toEqual(['code', 'detail']);
  });

  it('lets a simple request from another origin reach nothing it could read', async () => {
    const reads = [
      await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/health',
        headers: { origin: OTHER_ORIGIN },
      }),
      await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/user_details/',
        headers: { origin: OTHER_ORIGIN, ...auth(key) },
      }),
      await ctx.app.inject({ method: 'GET', url: '/', headers: { origin: OTHER_ORIGIN } }),
    ];
    for (const res of reads) {
      expect(res.statusCode).toBe(200);
      expect(corsHeaders(res)).toEqual([]);
    }
    // A post from another site's page, with a content type it may send without asking
    // first, is not taken as JSON: refused in the envelope, no login tried, no CORS.
    const form = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/',
      headers: { origin: OTHER_ORIGIN, 'content-type': 'text/plain' },
      payload: '{"username":"someone","password":"guess"}',
    });
    expect(form.statusCode).toBe(400);
    expect(form.json().code).toBe('validation_error');
    expect(corsHeaders(form)).toEqual([]);
  });

  it('answers the same whether or not an Origin is sent, so no cache can mix them up', async () => {
    const plain = await ctx.app.inject({ method: 'GET', url: '/api/v1/health' });
    const foreign = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { origin: OTHER_ORIGIN },
    });
    expect(foreign.body).toBe(plain.body);
    expect(corsHeaders(plain)).toEqual([]);
  });
});
