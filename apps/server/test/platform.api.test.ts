import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { messages } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from './log-capture.js';
import { auth, createTestApp, login, makeUser, type TestContext } from './helpers.js';

let ctx: TestContext;
const PRECOMPRESSED_SCRIPT = 'export const merit = "precompressed";\n'.repeat(100);
const { stream: logStream, entries: logLines } = captureLog();

beforeAll(async () => {
  // A built web app and a manual, as `npm run build` leaves them.
  const dataDir = path.join(process.env.TMPDIR ?? '/tmp', `merit-web-${process.pid}-${Date.now()}`);
  await mkdir(path.join(dataDir, 'assets'), { recursive: true });
  await writeFile(
    path.join(dataDir, 'index.html'),
    '<!doctype html><title>Merit</title><div id="root"></div>',
  );
  await writeFile(
    path.join(dataDir, 'assets', 'index-AbC123.js'),
    'console.log("merit");'.repeat(200),
  );
  // The build's compressed copies (apps/web/vite.config.ts, precompress) of one script.
  await writeFile(path.join(dataDir, 'assets', 'chunk-Pre123.js'), PRECOMPRESSED_SCRIPT);
  await writeFile(
    path.join(dataDir, 'assets', 'chunk-Pre123.js.br'),
    // Marked, to tell the copy from the file compressed on the fly.
    brotliCompressSync(`${PRECOMPRESSED_SCRIPT}// the build's copy\n`),
  );
  await writeFile(path.join(dataDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(dataDir, 'manual.pdf'), '%PDF-1.7\n% the manual\n');
  ctx = await createTestApp({
    env: { WEB_DIR: dataDir, MANUAL_PATH: path.join(dataDir, 'manual.pdf') },
    logger: { level: 'info', stream: logStream },
  });
});
afterAll(() => ctx.close());

describe('health', () => {
  it('answers 200 {"status":"ok"} while the database answers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('the error envelope', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/no-such-thing/'],
      ['POST', '/api/v1/no-such-thing/'],
      ['GET', '/api/v2/health'],
      ['GET', '/api'],
    ] as const) {
      const res = await ctx.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ detail: messages.notFoundApi, code: 'not_found' });
    }
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'bad_request',
      detail: 'The request body is not valid JSON.',
    });
  });

  it('answers an unsupported content type with a 415 envelope', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(res.statusCode).toBe(415);
    expect(Object.keys(res.json()).sort()).toEqual(['code', 'detail']);
  });
});

describe('the web app', () => {
  it('serves index.html for page paths so the browser router can render them', async () => {
    for (const url of ['/', '/calls', '/auth/login?next=%2Fcalls', '/any/unknown/page']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('sends the build’s Brotli copy of a script as it is, as JavaScript, to a browser that takes Brotli', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/assets/chunk-Pre123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(
      `${PRECOMPRESSED_SCRIPT}// the build's copy\n`,
    );
    // Without Brotli in the request: the file itself, compressed as any other answer.
    const plain = await ctx.app.inject({ method: 'GET', url: '/assets/chunk-Pre123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(PRECOMPRESSED_SCRIPT);
  });

  it('serves a built file only by its exact name', async () => {
    // One route per file: another spelling of the name is a page path, never the file.
    for (const url of ['/ASSETS/index-AbC123.js', '/assets/INDEX-abc123.js']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.headers['content-type'], url).not.toMatch(/javascript/);
    }
  });

  it('revalidates unhashed files and 404s missing assets instead of returning the page', async () => {
    const icon = await ctx.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('no-cache');
    const missing = await ctx.app.inject({ method: 'GET', url: '/assets/gone-123.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('sends the security headers, with a content security policy that forbids inline scripts', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/' });
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the manual PDF at /help/manual.pdf without logging in', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/help/manual.pdf' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.body.startsWith('%PDF-')).toBe(true);
  });
});

describe('the API description', () => {
  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(
      doc.paths['/api/v1/auth/login/'].post.requestBody.content['application/json'].schema,
    ).toMatchObject({
      required: ['username', 'password'],
    });
    expect(Object.keys(doc.paths)).not.toContain('/help/manual.pdf');
  });

  it('serves a browsable page at /api/docs', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    const page =
      res.statusCode === 302
        ? await ctx.app.inject({ method: 'GET', url: res.headers.location! })
        : res;
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui');
  });
});

describe('an unexpected failure', () => {
  it('answers 500 without internals and logs the error with the request id', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    // Break the database under the running app: the next query fails unexpectedly.
    await ctx.database.close();
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/user_details/',
      headers: auth(key),
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ detail: messages.internalError, code: 'internal_error' });
    const requestId = res.headers['x-request-id'];
    const logged = logLines.find((l) => l.reqId === requestId && l.level === 50);
    expect(logged).toBeDefined();
    expect(logged!.err).toBeDefined();

    const health = await ctx.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ detail: messages.serviceUnavailable, code: 'unavailable' });
  });
});
