import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitationNotValid } from '../src/modules/setup/setup.routes.js';
import { caller } from './admin-fixtures.js';
import { callPayload, makeCallForms } from './call-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';

let ctx: TestContext;
let asAdmin: ReturnType<typeof caller>;

beforeAll(async () => {
  ctx = await createTestApp();
  const admin = await makeUser(ctx.app, { isAdmin: true });
  asAdmin = caller(ctx.app, auth(await login(ctx.app, admin.username)));
});
afterAll(() => ctx.close());

const anonymous = () => caller(ctx.app, {});

describe('GET /admin/setup/ (the first-run checklist)', () => {
  it('counts each step as the installation is set up, from nothing', async () => {
    const status = async () => {
      const res = await asAdmin('GET', '/admin/setup/');
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await status()).toEqual({ committees: 0, chairs: 0, forms: 0, calls: 0, people: 0 });

    const committee = await makeCommittee(ctx.app, 'Beamline');
    expect(await status()).toMatchObject({ committees: 1, chairs: 0, people: 0 });

    const chair = await makeUser(ctx.app);
    expect(await status()).toMatchObject({ chairs: 0, people: 1 });
    await giveRole(ctx.app, chair.id, committee.id, 'MEMBER', ctx.clock.now());
    expect(await status()).toMatchObject({ chairs: 0 });
    await giveRole(ctx.app, chair.id, committee.id, 'CHAIR', ctx.clock.now());
    expect(await status()).toMatchObject({ chairs: 1 });

    const forms = await makeCallForms(ctx.app);
    expect(await status()).toMatchObject({ forms: 4, calls: 0 });
    const created = await asAdmin(
      'POST',
      '/new_call/',
      callPayload(committee.id, forms, ctx.clock.now()),
    );
    expect(created.statusCode, created.body).toBeLessThan(300);
    expect(await status()).toEqual({ committees: 1, chairs: 1, forms: 4, calls: 1, people: 1 });
  });

  it('is for admins only', async () => {
    const user = await makeUser(ctx.app);
    const asUser = caller(ctx.app, auth(await login(ctx.app, user.username)));
    expect((await asUser('GET', '/admin/setup/')).statusCode).toBe(403);
    expect((await anonymous()('GET', '/admin/setup/')).statusCode).toBe(401);
  });
});

describe('invitation links', () => {
  let committeeId: number;
  let otherId: number;
  let asChair: ReturnType<typeof caller>;
  let asMember: ReturnType<typeof caller>;

  beforeAll(async () => {
    committeeId = (await makeCommittee(ctx.app, 'Neutron Scattering')).id;
    otherId = (await makeCommittee(ctx.app, 'Other Panel')).id;
    const chair = await makeUser(ctx.app);
    const member = await makeUser(ctx.app);
    await giveRole(ctx.app, chair.id, committeeId, 'CHAIR', ctx.clock.now());
    await giveRole(ctx.app, member.id, committeeId, 'MEMBER', ctx.clock.now());
    asChair = caller(ctx.app, auth(await login(ctx.app, chair.username)));
    asMember = caller(ctx.app, auth(await login(ctx.app, member.username)));
  });

  const linkFor = async (as: ReturnType<typeof caller>, id: number) =>
    as('GET', `/committees/${id}/invitation/`);

  it('gives the committee’s chair a token that anyone can read the committee’s name from', async () => {
    const res = await linkFor(asChair, committeeId);
    expect(res.statusCode, res.body).toBe(200);
    const { token, committeeName } = res.json();
    expect(committeeName).toBe('Neutron Scattering');
    const read = await anonymous()('GET', `/invitations/${encodeURIComponent(token)}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ committeeName: 'Neutron Scattering' });
  });

  it('gives admins the link of any committee, the same link each time', async () => {
    const first = (await linkFor(asAdmin, otherId)).json();
    const again = (await linkFor(asAdmin, otherId)).json();
    expect(first.token).toBe(again.token);
    expect(first.committeeName).toBe('Other Panel');
    expect((await linkFor(asAdmin, 999_999)).statusCode).toBe(404);
  });

  it('refuses members, chairs of another committee and anonymous callers', async () => {
    expect((await linkFor(asMember, committeeId)).statusCode).toBe(403);
    expect((await linkFor(asChair, otherId)).statusCode).toBe(403);
    expect((await linkFor(anonymous(), committeeId)).statusCode).toBe(401);
  });

  it('names no committee for a tampered or forged token', async () => {
    const { token } = (await linkFor(asChair, committeeId)).json();
    const [, signature] = token.split('.');
    const flipped = signature[0] === 'A' ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    const candidates = [
      // Another committee's id under this committee's signature: the enumeration attempt.
      `${otherId}.${signature}`,
      `${committeeId}.${flipped}`,
      `999999.${signature}`,
    ];
    for (const bad of candidates) {
      const res = await anonymous()('GET', `/invitations/${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(404);
      expect(res.json().detail).toBe(invitationNotValid);
    }
  });

  it('answers a plain 404 for what is no token at all', async () => {
    const { token } = (await linkFor(asChair, committeeId)).json();
    for (const bad of [`${committeeId}`, 'not-a-token', `${token}x`, `0${token}`]) {
      const res = await anonymous()('GET', `/invitations/${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
  });
});
