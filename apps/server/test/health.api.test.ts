import { describe, expect, it, onTestFinished } from 'vitest';
import { createTestApp } from './helpers.js';

async function testApp() {
  const ctx = await createTestApp();
  onTestFinished(() => ctx.close());
  return ctx;
}

// Each test makes its own app (one closes its database), which is a hook's work: given a
// hook's time, as a busy machine can take longer than a test's 20 s to make one.
describe('liveness and readiness', { timeout: 60_000 }, () => {
  it('answers both with 200 {"status":"ok"} while the database answers', async () => {
    const { app } = await testApp();
    for (const url of ['/api/v1/live', '/api/v1/health']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toEqual({ status: 'ok' });
    }
  });

  it('stays live without the database, while readiness answers 503', async () => {
    const { app, database } = await testApp();
    await database.close();
    const live = await app.inject({ method: 'GET', url: '/api/v1/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ detail: 'The database is not reachable.', code: 'unavailable' });
  });
});
