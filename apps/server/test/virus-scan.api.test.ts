import { readdir } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ProposalDetail } from '@merit/contract';
import { fileMessages, MAX_UPLOAD_BYTES } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { parseClamdUrl } from '../src/config/clamd.js';
import { clamdScanner, ScannerUnavailableError } from '../src/platform/io/virus-scan.js';
import { caller } from './admin-fixtures.js';
import { EICAR, EICAR_FOUND, STREAM_MAX_BYTES, startClamd, type TestClamd } from './clamd.js';
import {
  auth,
  createTestApp,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';
import { captureLog } from './log-capture.js';
import { makeProposalCall, makeProposalForms } from './proposal-fixtures.js';
import type { App } from '../src/platform/http/app-types.js';
import { multipartBody, sendTusBytes, startTusUpload } from './upload-fixtures.js';

/**
 * Uploads scanned for malware (OWASP ASVS V12.4.2) by a real ClamAV daemon on loopback,
 * which knows one signature: the EICAR test file's. A file it finds something in is
 * refused and never stored; while it gives no verdict, no file is taken.
 */
let clamd: TestClamd;
let ctx: TestContext;
let world: World;
const { stream: logStream, entries: logEntries } = captureLog<{
  msg: string;
  securityEvent?: string;
  [field: string]: unknown;
}>();

/** What a test app needs for drafts: its forms, a committee and an admin. */
async function worldOf(app: App) {
  return {
    app,
    forms: await makeProposalForms(app),
    committeeId: (await makeCommittee(app)).id,
    admin: { id: (await makeUser(app, { isAdmin: true })).id, isAdmin: true },
  };
}
type World = Awaited<ReturnType<typeof worldOf>>;

beforeAll(async () => {
  clamd = await startClamd();
  ctx = await createTestApp({
    env: { CLAMD_URL: clamd.url },
    logger: { level: 'info', stream: logStream },
  });
  world = await worldOf(ctx.app);
});
afterAll(async () => {
  await ctx?.close();
  await clamd?.stop();
});

/** A new author's draft in a new open call, with their token. */
async function draft(at: World = world) {
  const { app } = at;
  const { callId, typeId } = await makeProposalCall(app, at);
  const user = await makeUser(app);
  const key = await login(app, user.username);
  const res = await caller(app, auth(key))('POST', '/update_proposal_name/', {
    callId,
    isNew: true,
    proposalId: null,
    name: 'Telescope time',
    type: typeId,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { app, callId, user, key, proposal: res.json() as ProposalDetail };
}
type Draft = Awaited<ReturnType<typeof draft>>;

/** Sends `bytes` as the spec's client attaches a file to a proposal. */
async function attach(who: Draft, bytes: Buffer) {
  const body = await multipartBody(
    { call: String(who.callId), proposal: String(who.proposal.id), token: who.key },
    { name: 'data.bin', bytes },
  );
  return who.app.inject({ method: 'POST', url: '/api/v1/proposal_file/', ...body });
}

const storedKeys = async (dataDir = ctx.dataDir) =>
  readdir(path.join(dataDir, 'files')).catch(() => [] as string[]);
const filesOf = async (who: Draft) => {
  const res = await caller(who.app, auth(who.key))('GET', `/proposal_files/${who.proposal.id}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as unknown[];
};

/** EICAR in the middle of other bytes, so only a scan of the whole file finds it. */
const infected = () =>
  Buffer.concat([Buffer.alloc(100_000, 'a'), EICAR, Buffer.alloc(50_000, 'z')]);

describe('the clamd client', () => {
  it('says clean for clean bytes, and names what it finds wherever it lies in a stream', async () => {
    const scanner = clamdScanner(parseClamdUrl(clamd.url) as { host: string; port: number });
    expect(await scanner.ping()).toBe(true);
    expect(await scanner.scan(Buffer.from('A letter of support'))).toEqual({ clean: true });
    expect(await scanner.scan(EICAR)).toEqual({ clean: false, signature: EICAR_FOUND });
    // Across the client's 64 KB chunks and the stream's own pieces.
    const bytes = infected();
    const pieces = [
      bytes.subarray(0, 65_530),
      bytes.subarray(65_530, 100_030),
      bytes.subarray(100_030),
    ];
    expect(await scanner.scan(Readable.from(pieces))).toEqual({
      clean: false,
      signature: EICAR_FOUND,
    });
  });

  it('scans a file of the largest size, and gives no verdict, not "clean", past what clamd takes', async () => {
    const scanner = clamdScanner({ host: '127.0.0.1', port: clamd.port });
    expect(await scanner.scan(Buffer.alloc(MAX_UPLOAD_BYTES, 'x'))).toEqual({ clean: true });
    const past = scanner.scan(Buffer.alloc(STREAM_MAX_BYTES + 1, 'x'));
    await expect(past).rejects.toThrow(ScannerUnavailableError);
    await expect(past).rejects.toThrow(/INSTREAM size limit exceeded/);
  });

  it('gives no verdict when nothing listens, and does not wait past its time limit', async () => {
    const nobody = clamdScanner({ host: '127.0.0.1', port: 1 });
    expect(await nobody.ping()).toBe(false);
    await expect(nobody.scan(EICAR)).rejects.toThrow(ScannerUnavailableError);
    // A listener that takes the connection and never answers.
    const sockets: Socket[] = [];
    const mute = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = mute.address() as AddressInfo;
      const silent = clamdScanner({ host: '127.0.0.1', port }, 300);
      const started = Date.now();
      await expect(silent.scan(EICAR)).rejects.toThrow(/did not answer within 0.3 s/);
      expect(Date.now() - started).toBeLessThan(5_000);
      // A file too big for the socket's buffers stalls mid-send: it is let go, not left open.
      const stalled = Readable.from(
        (function* () {
          for (let i = 0; i < 400; i++) yield Buffer.alloc(64 * 1024, 'x');
        })(),
      );
      await expect(silent.scan(stalled)).rejects.toThrow(/did not answer within 0.3 s/);
      expect(stalled.destroyed).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => mute.close(resolve));
    }
  });

  it('reads CLAMD_URL as tcp://host:port or unix:/path, and refuses anything else at start', () => {
    expect(parseClamdUrl('tcp://127.0.0.1:3310')).toEqual({ host: '127.0.0.1', port: 3310 });
    expect(parseClamdUrl('tcp://[::1]:3310')).toEqual({ host: '::1', port: 3310 });
    expect(parseClamdUrl('unix:/run/clamav/clamd.ctl')).toEqual({ path: '/run/clamav/clamd.ctl' });
    expect(parseClamdUrl('unix:///run/clamav/clamd.ctl')).toEqual({
      path: '/run/clamav/clamd.ctl',
    });
    expect(loadConfig({}).clamd).toBeUndefined();
    for (const wrong of [
      'clamd:3310',
      'http://clamd:3310',
      'tcp://clamd',
      'unix:clamd.ctl',
      'tcp://h:1/x',
    ]) {
      expect(() => loadConfig({ CLAMD_URL: wrong }), wrong).toThrow(ConfigError);
    }
    expect(() => loadConfig({ CLAMD_URL: 'tcp://clamd' })).toThrow(
      'CLAMD_URL must be tcp://host:port or unix:/path/to/clamd.ctl, but is "tcp://clamd".',
    );
  });
});

describe('uploads with CLAMD_URL set', () => {
  it('refuse a file the scanner finds something in, store none of it, and log who tried', async () => {
    const who = await draft();
    const before = await storedKeys();
    const res = await attach(who, infected());
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation_error',
      detail: fileMessages.infected(EICAR_FOUND),
      fields: { file: [fileMessages.infected(EICAR_FOUND)] },
    });
    expect(await filesOf(who)).toEqual([]);
    expect(await storedKeys()).toEqual(before);
    expect(logEntries.filter((e) => e.securityEvent === 'file.infected')).toContainEqual(
      expect.objectContaining({
        userId: who.user.id,
        proposalId: who.proposal.id,
        signature: EICAR_FOUND,
      }),
    );
  });

  it('refuse a resumable upload whose parts together hold it, and throw its tus copy away', async () => {
    const who = await draft();
    const before = await storedKeys();
    const bytes = infected();
    const created = await startTusUpload(who.app, auth(who.key), bytes.length, {
      proposal: who.proposal.id,
      filename: 'data.bin',
    });
    expect(created.statusCode, created.body).toBe(201);
    const location = created.headers.location as string;
    // The signature is split between the two parts: neither holds it alone.
    const cut = 100_000 + 20;
    expect(
      (await sendTusBytes(who.app, auth(who.key), location, 0, bytes.subarray(0, cut))).statusCode,
    ).toBe(204);
    const last = await sendTusBytes(who.app, auth(who.key), location, cut, bytes.subarray(cut));
    expect(last.statusCode, last.body).toBe(400);
    expect(last.json().detail).toBe(fileMessages.infected(EICAR_FOUND));
    expect(await filesOf(who)).toEqual([]);
    expect(await storedKeys()).toEqual(before);
    const uploads = await readdir(path.join(ctx.dataDir, 'uploads'));
    expect(uploads.filter((name) => name.startsWith(location.split('/').pop()!))).toEqual([]);
  });

  it('store clean files as before, through both ways in', async () => {
    const who = await draft();
    const bytes = Buffer.from('budget,amount\ntravel,1200\n');
    const attached = await attach(who, bytes);
    expect(attached.statusCode, attached.body).toBe(201);
    const created = await startTusUpload(who.app, auth(who.key), bytes.length, {
      proposal: who.proposal.id,
      filename: 'budget.csv',
    });
    const sent = await sendTusBytes(
      who.app,
      auth(who.key),
      created.headers.location as string,
      0,
      bytes,
    );
    expect(sent.statusCode, sent.body).toBe(204);
    expect(await filesOf(who)).toHaveLength(2);
  });
});

describe('uploads while the scanner gives no verdict', () => {
  let down: TestContext;
  const { stream, lines } = captureLog();
  beforeAll(async () => {
    // Port 1 on loopback: nothing listens, as when clamd is stopped or not yet started.
    down = await createTestApp({
      env: { CLAMD_URL: 'tcp://127.0.0.1:1' },
      logger: { level: 'info', stream },
    });
  });
  afterAll(() => down?.close());

  it('are refused with 503 and a message to try later, and nothing is stored', async () => {
    const who = await draft(await worldOf(down.app));
    const res = await attach(who, Buffer.from('clean, but unscanned'));
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toEqual({
      code: 'unavailable',
      detail: fileMessages.scannerUnavailable,
    });
    expect(await filesOf(who)).toEqual([]);
    expect(await storedKeys(down.dataDir)).toEqual([]);
    // The operator hears of it at start, and at each refusal.
    expect(lines.join('\n')).toContain(
      'CLAMD_URL is set, but clamd does not answer at tcp://127.0.0.1:1: uploads are refused until it does',
    );
    expect(lines.join('\n')).toContain(
      'the virus scanner gave no verdict, so the upload was refused',
    );
  });
});
