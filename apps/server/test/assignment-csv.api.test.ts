import type { MatrixResponse } from '@merit/contract';
import { assignmentMessages } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf } from './admin-fixtures.js';
import {
  assignmentsOf,
  assignmentWorld,
  type AssignmentWorld,
  type Person,
} from './assignment-fixtures.js';
import { assignReviewers } from './call-fixtures.js';
import { auth, createTestApp, login, type TestContext } from './helpers.js';
import { outbox } from './mail.js';

/**
 * Reviewer assignment (issue 27): the assignments of a call as CSV, downloaded and uploaded
 * (every line checked as the matrix checks a cell, all of the file or none of it), and the
 * matrix of proposals by members, on a real database. The world is assignment-fixtures.ts's.
 */
let ctx: TestContext;
let w: AssignmentWorld;

beforeAll(async () => {
  ctx = await createTestApp();
  w = await assignmentWorld(ctx);
  const { carla, rita, ben, mia } = w.people;
  // Rita and Carla review the pulsar array, Ben the dark matter halos; Mia will not
  // review the exoplanet transits; Ben's cap is 1.
  await assignReviewers(ctx.app, w.ids.pulsar, [rita.user.id, carla.user.id]);
  await assignReviewers(ctx.app, w.ids.halos, [ben.user.id]);
  const bidding = await carla.call('PATCH', `/calls/${w.callId}/assignment/settings/`, {
    biddingOpen: true,
    caps: { [ben.user.id]: 1 },
  });
  expect(bidding.statusCode, bidding.body).toBe(200);
  const notMe = await mia.call('POST', `/calls/${w.callId}/bids/`, {
    proposalId: w.ids.transits,
    preference: 'not_me',
  });
  expect(notMe.statusCode, notMe.body).toBe(200);
});
afterAll(() => ctx.close());

const csvUrl = () => `/api/v1/calls/${w.callId}/assignment/csv/`;
const headersOf = async (who: Person) => auth(await login(ctx.app, who.user.username));

async function download(who: Person = w.people.carla) {
  return ctx.app.inject({ method: 'GET', url: csvUrl(), headers: await headersOf(who) });
}
async function upload(text: string, who: Person = w.people.carla) {
  return ctx.app.inject({
    method: 'POST',
    url: csvUrl(),
    headers: { ...(await headersOf(who)), 'content-type': 'text/csv; charset=utf-8' },
    payload: text,
  });
}
const allIds = () => Object.values(w.ids);

describe('the CSV download', () => {
  it('lists every assignment as assign, with a header, as a file', async () => {
    const res = await download();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="assignments-call-${w.callId}.csv"`,
    );
    const { rita, carla, ben } = w.people;
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('proposal_id,username,action');
    expect(lines.slice(1).sort()).toEqual(
      [
        `${w.ids.pulsar},${rita.user.username},assign`,
        `${w.ids.pulsar},${carla.user.username},assign`,
        `${w.ids.halos},${ben.user.username},assign`,
      ].sort(),
    );
  });

  it('leaves out what a chair with a conflict must not see', async () => {
    await assignReviewers(ctx.app, w.ids.galaxy, [w.people.rita.user.id]);
    try {
      const galaxyLines = async (who?: Person) =>
        (await download(who)).body
          .split('\r\n')
          .filter((line) => line.startsWith(`${w.ids.galaxy},`));
      expect(await galaxyLines()).toHaveLength(1);
      // Cleo has a conflict with the galaxy survey.
      expect(await galaxyLines(w.people.cleo)).toEqual([]);
    } finally {
      await ctx.app.inject({
        method: 'DELETE',
        url: '/api/v1/reviewers/',
        headers: await headersOf(w.people.carla),
        payload: { proposalId: w.ids.galaxy, userId: w.people.rita.user.id },
      });
    }
  });

  it('is the chairs’ only', async () => {
    expect((await download(w.people.rita)).statusCode).toBe(403);
    expect((await download(w.people.otto)).statusCode).toBe(403);
  });
});

describe('the CSV upload', () => {
  it('saves nothing when any line fails, and names every error by its line', async () => {
    const { rita, ben, mia, sam, cleo, carla } = w.people;
    const before = await assignmentsOf(ctx, allIds());
    const file = [
      'proposal_id,username,action',
      `${w.ids.transits},${rita.user.username},assign`, // 2: fine
      `${w.ids.transits},${rita.user.username}`, // 3: two values
      `${w.ids.transits},${rita.user.username},add`, // 4: no such action
      `${w.ids.draft},${rita.user.username},assign`, // 5: a draft
      `${w.ids.transits},nobody_here,assign`, // 6: no such member
      `${w.ids.pulsar},${mia.user.username},assign`, // 7: her own
      `${w.ids.galaxy},${ben.user.username},assign`, // 8: his conflict
      `${w.ids.transits},${mia.user.username},assign`, // 9: Not me
      `${w.ids.transits},${sam.user.username},assign`, // 10: his role ends
      `${w.ids.halos},${cleo.user.username},remove`, // 11: not a reviewer
      `${w.ids.transits},${ben.user.username},assign`, // 12: Ben past his cap of 1
      '',
      `${w.ids.pulsar},${carla.user.username},assign`, // 14: there already: nothing to do
    ].join('\n');
    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_error',
      detail: assignmentMessages.csvFailed(10),
    });
    expect(res.json().fields).toEqual({
      'line 3': [assignmentMessages.csvColumns],
      'line 4': [assignmentMessages.csvAction],
      'line 5': [assignmentMessages.csvProposal(String(w.ids.draft))],
      'line 6': [assignmentMessages.csvUser('nobody_here')],
      'line 7': [assignmentMessages.excluded.team(mia.user.username)],
      'line 8': [assignmentMessages.excluded.conflict(ben.user.username)],
      'line 9': [assignmentMessages.excluded.notMe(mia.user.username)],
      'line 10': [assignmentMessages.excluded.ineligible(sam.user.username)],
      'line 11': [assignmentMessages.csvNotReviewer(cleo.user.username, String(w.ids.halos))],
      'line 12': [assignmentMessages.overCap('Ben Second', 1)],
    });
    expect(await assignmentsOf(ctx, allIds())).toEqual(before);
  });

  it('refuses a file without the header, or with nothing after it', async () => {
    const headless = await upload(`${w.ids.transits},${w.people.rita.user.username},assign\n`);
    expect(headless.statusCode).toBe(400);
    expect(headless.json().fields).toEqual({ 'line 1': [assignmentMessages.csvHeader] });
    const empty = await upload('proposal_id,username,action\r\n\r\n');
    expect(empty.json().fields).toEqual({ 'line 1': [assignmentMessages.csvEmpty] });
  });

  it('refuses the lines of a proposal a chair has a conflict with', async () => {
    const res = await upload(
      `proposal_id,username,action\n${w.ids.galaxy},${w.people.rita.user.username},assign\n`,
      w.people.cleo,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      'line 2': [assignmentMessages.csvNotYours(String(w.ids.galaxy))],
    });
  });

  it('saves a file that passes, in one batch: one audit row, one digest per member', async () => {
    const { rita, ben, mia, cleo } = w.people;
    const mailsBefore = (await outbox(ctx)).length;
    const auditBefore = (await auditOf(ctx.app, 'call', w.callId)).length;
    const file = [
      'Proposal_ID,Username,Action',
      `${w.ids.transits},${rita.user.username},assign`,
      `${w.ids.halos},"${mia.user.username.toUpperCase()}",assign`,
      `${w.ids.transits},${cleo.user.username},assign`,
      // Ben gives the halos up, so his cap of 1 lets him take the transits.
      `${w.ids.halos},${ben.user.username},remove`,
      `${w.ids.transits},${ben.user.username},assign`,
    ].join('\r\n');
    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ assigned: 4, removed: 1 });
    const now = await assignmentsOf(ctx, allIds());
    expect(now).toEqual(
      expect.arrayContaining([
        `${w.ids.transits}:${rita.user.id}`,
        `${w.ids.halos}:${mia.user.id}`,
        `${w.ids.transits}:${cleo.user.id}`,
        `${w.ids.transits}:${ben.user.id}`,
      ]),
    );
    expect(now).not.toContain(`${w.ids.halos}:${ben.user.id}`);
    const audit = (await auditOf(ctx.app, 'call', w.callId)).slice(auditBefore);
    expect(audit.map((row) => row.action)).toEqual(['call.assign_reviewers']);
    expect(audit[0]!.changes).toMatchObject({
      kind: { after: 'csv' },
      added: { after: 4 },
      removed: { after: 1 },
    });
    const mails = (await outbox(ctx)).slice(mailsBefore);
    expect(mails.map((mail) => mail.to).sort()).toEqual(
      [rita, mia, cleo, ben].map((p) => p.user.email).sort(),
    );
    expect(mails.every((m) => m.subject === assignmentMessages.digestSubject(1, w.callName))).toBe(
      true,
    );
  });

  it('takes its own download back unchanged', async () => {
    const before = await assignmentsOf(ctx, allIds());
    const res = await upload((await download()).body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ assigned: 0, removed: 0 });
    expect(await assignmentsOf(ctx, allIds())).toEqual(before);
  });

  it('refuses a body that is not CSV text', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: csvUrl(),
      headers: await headersOf(w.people.carla),
      payload: { lines: [] },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('the matrix', () => {
  const matrix = async (query = '', who: Person = w.people.carla) => {
    const res = await who.call('GET', `/calls/${w.callId}/assignment/matrix/${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as MatrixResponse;
  };

  it('lists the submitted proposals by name, with only the cells that hold something', async () => {
    const { rita, carla, mia, ben } = w.people;
    const page = await matrix();
    expect(page).toMatchObject({ count: 4, page: 1, pageSize: 200 });
    expect(page.rows.map((row) => row.name)).toEqual([
      'Dark matter halos',
      'Exoplanet transits',
      'Galaxy rotation curves',
      'Pulsar timing array',
    ]);
    expect(page.facilities).toEqual(['ATCA', 'Parkes']);
    expect(page.types).toEqual([
      { id: w.types.radio, name: 'Radio' },
      { id: w.types.optical, name: 'Optical' },
    ]);
    expect(page.members).toHaveLength(6);
    expect(page.members.find((m) => m.userId === rita.user.id)).toMatchObject({
      name: 'Rita Reviewer',
      load: 2,
      cap: 3,
    });
    const pulsar = page.rows.find((row) => row.proposalId === w.ids.pulsar)!;
    expect(pulsar).toMatchObject({
      typeName: 'Radio',
      facilities: ['Parkes'],
      wanted: 3,
      assigned: 2,
    });
    expect(pulsar.cells).toEqual(
      [
        { userId: rita.user.id, assigned: true, locked: false, conflict: false },
        { userId: carla.user.id, assigned: true, locked: false, conflict: false },
        // Mia collaborates on it.
        { userId: mia.user.id, assigned: false, locked: false, conflict: true },
      ].sort((a, b) => a.userId - b.userId),
    );
    const transits = page.rows.find((row) => row.proposalId === w.ids.transits)!;
    expect(transits.cells).toContainEqual({
      userId: mia.user.id,
      assigned: false,
      locked: false,
      preference: 'not_me',
      conflict: false,
    });
    const galaxy = page.rows.find((row) => row.proposalId === w.ids.galaxy)!;
    expect(galaxy.cells).toContainEqual({
      userId: ben.user.id,
      assigned: false,
      locked: false,
      conflict: true,
    });
  });

  it('pages, searches and filters', async () => {
    const first = await matrix('?page_size=3');
    expect(first.rows).toHaveLength(3);
    expect(first.count).toBe(4);
    const second = await matrix('?page_size=3&page=2');
    expect(second.rows.map((row) => row.name)).toEqual(['Pulsar timing array']);
    expect((await matrix('?search=GALAXY')).rows.map((row) => row.proposalId)).toEqual([
      w.ids.galaxy,
    ]);
    expect((await matrix(`?search=${w.ids.halos}`)).rows.map((row) => row.proposalId)).toEqual([
      w.ids.halos,
    ]);
    expect((await matrix(`?type=${w.types.optical}`)).rows.map((row) => row.name).sort()).toEqual([
      'Exoplanet transits',
      'Galaxy rotation curves',
    ]);
    expect((await matrix('?facility=Parkes')).rows.map((row) => row.proposalId)).toEqual([
      w.ids.pulsar,
    ]);
    expect((await matrix('?show=unassigned')).rows.map((row) => row.proposalId)).toEqual([
      w.ids.galaxy,
    ]);
    // Fewer than k (3) reviewers: all but the exoplanet transits.
    expect((await matrix('?show=under')).rows.map((row) => row.proposalId).sort()).toEqual(
      [w.ids.halos, w.ids.galaxy, w.ids.pulsar].sort(),
    );
  });

  it('leaves out the rows of a proposal the chair has a conflict with', async () => {
    const page = await matrix('', w.people.cleo);
    expect(page.count).toBe(3);
    expect(page.rows.map((row) => row.proposalId)).not.toContain(w.ids.galaxy);
  });

  it('is the chairs’ only', async () => {
    const res = await w.people.mia.call('GET', `/calls/${w.callId}/assignment/matrix/`);
    expect(res.statusCode).toBe(403);
  });
});
