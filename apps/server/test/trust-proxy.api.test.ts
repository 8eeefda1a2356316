import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.js';

/**
 * TRUST_PROXY decides which X-Forwarded-For entry is the client's address. A client
 * can send the header itself with any addresses in it; a proxy appends the address it
 * saw. Only the entries that trusted proxies appended may be believed, or a client
 * could take a new address per request and get past the per-address auth limit.
 */
const PROXY = '10.0.0.1';
const OUTER_PROXY = '10.0.0.2';
const CLIENT = '203.0.113.7';
const FORGED = '198.51.100.66';
const OTHER_CLIENT = '203.0.113.8';

interface Setup {
  ctx: TestContext;
  /** Each request's log line, by request id. */
  requests: Map<string, { remoteAddress: string }>;
}

async function setUp(env: Record<string, string>): Promise<Setup> {
  const requests: Setup['requests'] = new Map();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as { reqId?: string; req?: { remoteAddress: string } };
        if (entry.reqId && entry.req) requests.set(entry.reqId, entry.req);
      }
      done();
    },
  });
  const ctx = await createTestApp({
    env: { ...env, AUTH_RATE_LIMIT_PER_IP: '2' },
    logger: { level: 'info', stream },
  });
  return { ctx, requests };
}

const setups: Record<string, Setup> = {};
beforeAll(async () => {
  setups.unset = await setUp({});
  // The proxy Merit's connections come from, and one in front of it (a CDN, say).
  setups.proxies = await setUp({ TRUST_PROXY: `${PROXY},${OUTER_PROXY}` });
  // Hop counts, named by their value: one proxy in front of Merit, or two.
  setups['1'] = await setUp({ TRUST_PROXY: '1' });
  setups['2'] = await setUp({ TRUST_PROXY: '2' });
});
afterAll(() => Promise.all(Object.values(setups).map(({ ctx }) => ctx.close())));

/** The address Fastify gives the request (request.ip), as its request log records it. */
async function clientAddress(
  { ctx, requests }: Setup,
  remoteAddress: string,
  forwardedFor: string,
): Promise<string | undefined> {
  // Any route will do; an unknown one touches nothing but the log.
  const res = await ctx.app.inject({
    method: 'GET',
    url: '/api/v1/no-such-route/',
    remoteAddress,
    headers: { 'x-forwarded-for': forwardedFor },
  });
  return requests.get(String(res.headers['x-request-id']))?.remoteAddress;
}

describe('the client address behind a proxy', () => {
  it.each([
    ['unset', 'ignores the header of a direct client', CLIENT, FORGED, CLIENT],
    ['proxies', 'takes the address the proxy appended', PROXY, CLIENT, CLIENT],
    ['proxies', 'ignores a hop the client forged', PROXY, `${FORGED}, ${CLIENT}`, CLIENT],
    ['proxies', 'ignores several forged hops', PROXY, `1.2.3.4, ${FORGED}, ${CLIENT}`, CLIENT],
    ['proxies', 'ignores the header of a client that is not the proxy', CLIENT, FORGED, CLIENT],
    [
      'proxies',
      'takes what the outer proxy appended, ignoring forged hops',
      PROXY,
      `${FORGED}, ${CLIENT}, ${OUTER_PROXY}`,
      CLIENT,
    ],
    ['1', 'takes the address the one proxy appended', PROXY, CLIENT, CLIENT],
    ['1', 'ignores a forged leftmost entry', PROXY, `${FORGED}, ${CLIENT}`, CLIENT],
    ['1', 'ignores several forged entries', PROXY, `1.2.3.4, ${FORGED}, ${CLIENT}`, CLIENT],
    // One hop believes only the nearest proxy: the outer one is taken for the client.
    ['1', 'counts only the nearest proxy', PROXY, `${CLIENT}, ${OUTER_PROXY}`, OUTER_PROXY],
    [
      '2',
      'takes what the outer proxy appended, ignoring forged entries',
      PROXY,
      `${FORGED}, ${CLIENT}, ${OUTER_PROXY}`,
      CLIENT,
    ],
  ])('TRUST_PROXY %s %s', async (setup, _what, remoteAddress, forwardedFor, expected) => {
    expect(await clientAddress(setups[setup]!, remoteAddress, forwardedFor)).toBe(expected);
  });

  it.each(['proxies', '1'])(
    'TRUST_PROXY %s counts each client behind the proxy against the auth limit, whatever hops it forges',
    async (setup) => {
      const { ctx } = setups[setup]!;
      const captcha = (forwardedFor: string) =>
        ctx.app.inject({
          method: 'GET',
          url: '/api/v1/auth/captcha/',
          remoteAddress: PROXY,
          headers: { 'x-forwarded-for': forwardedFor },
        });
      // AUTH_RATE_LIMIT_PER_IP is 2.
      expect((await captcha(`1.1.1.1, ${CLIENT}`)).statusCode).toBe(200);
      expect((await captcha(`2.2.2.2, ${CLIENT}`)).statusCode).toBe(200);
      expect((await captcha(`3.3.3.3, ${CLIENT}`)).statusCode).toBe(429);
      // Another client behind the same proxy has its own count.
      expect((await captcha(OTHER_CLIENT)).statusCode).toBe(200);
    },
  );
});
