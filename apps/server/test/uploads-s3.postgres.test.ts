import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ProposalDetail, ProposalFile } from '@merit/contract';
import { UPLOAD_CHUNK_BYTES } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { openDatabase } from '../src/db/client.js';
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
import { startS3Server, type S3Server } from './s3-server.js';
import { sendTusBytes, startTusUpload, tusHeaders } from './upload-fixtures.js';

/**
 * Scale-out of uploads (issue 31, "Several machines"): two app processes on one PostgreSQL
 * database and one S3 bucket, each with a DATA_DIR of its own, take one resumable upload
 * chunk by chunk, alternately, as a load balancer without sticky sessions sends them, and
 * the file they make holds the exact bytes. Without S3 the same upload cannot move: the
 * second process does not know it.
 */

/** One server secret for both processes, as README.md tells a deployment of several to set. */
const SECRET_KEY = randomBytes(32).toString('hex');

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Another app on the same database and configuration, with its own DATA_DIR. */
async function otherProcess(ctx: TestContext): Promise<{ app: App; close: () => Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'merit-other-'));
  const database = await openDatabase({ kind: 'postgres', url: ctx.databaseUrl! });
  const app = await buildApp(
    { ...ctx.app.config, dataDir },
    { database, now: ctx.clock.now, logger: false, validateResponses: true, alertFlushMs: 0 },
  );
  return {
    app,
    close: async () => {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new author's draft, with the author's headers. */
async function draft(app: App) {
  const forms = await makeProposalForms(app);
  const committeeId = (await makeCommittee(app)).id;
  const admin = { id: (await makeUser(app, { isAdmin: true })).id, isAdmin: true };
  const { callId, typeId } = await makeProposalCall(app, { committeeId, forms, admin });
  const author = await makeUser(app);
  const headers = auth(await login(app, author.username));
  const created = await caller(app, headers)('POST', '/update_proposal_name/', {
    callId,
    isNew: true,
    proposalId: null,
    name: 'Uploaded through two processes',
    type: typeId,
  });
  expect(created.statusCode, created.body).toBe(201);
  return { headers, proposalId: (created.json() as ProposalDetail).id };
}

describe('one upload through two app processes', () => {
  let s3: S3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(() => s3?.close());

  describe('with S3_URL: one PostgreSQL and one bucket', () => {
    let ctx: TestContext;
    let other: Awaited<ReturnType<typeof otherProcess>>;
    beforeAll(async () => {
      ctx = await createTestApp({ env: { S3_URL: s3.url, SECRET_KEY } });
      ctx.clock.current = new Date();
      other = await otherProcess(ctx);
    }, 120_000);
    afterAll(async () => {
      await other?.close();
      await ctx?.close();
    });

    it(
      'takes the chunks alternately, each process answering the offset the other left, and keeps the exact bytes',
      { timeout: 120_000 },
      async () => {
        const processes = [ctx.app, other.app];
        const { headers, proposalId } = await draft(ctx.app);
        // Two whole S3 parts and a pending remainder, in the web client's chunks.
        const bytes = randomBytes(2 * 5 * 1024 * 1024 + 300_001);
        const created = await startTusUpload(processes[1]!, headers, bytes.length, {
          proposal: proposalId,
          filename: 'instrument-time.bin',
          filetype: 'application/octet-stream',
        });
        expect(created.statusCode, created.body).toBe(201);
        const url = created.headers.location as string;

        let chunk = 0;
        for (let offset = 0; offset < bytes.length; offset += UPLOAD_CHUNK_BYTES, chunk += 1) {
          const app = processes[chunk % 2]!;
          // The client asks where the upload stands, of the process that did not take the
          // last chunk: it knows.
          const head = await app.inject({ method: 'HEAD', url, headers: tusHeaders(headers) });
          expect(head.statusCode, head.body).toBe(200);
          expect(head.headers['upload-offset']).toBe(String(offset));
          const sent = await sendTusBytes(
            app,
            headers,
            url,
            offset,
            bytes.subarray(offset, offset + UPLOAD_CHUNK_BYTES),
          );
          expect(sent.statusCode, sent.body).toBe(204);
        }
        expect(chunk).toBeGreaterThan(20);

        // Either process serves the file, byte for byte.
        const files = caller(other.app, headers);
        const listed = (
          await files('GET', `/proposal_files/${proposalId}/`)
        ).json() as ProposalFile[];
        const file = listed.find((f) => f.uploadId === url.split('/').pop());
        expect(file).toMatchObject({ name: 'instrument-time.bin', size: bytes.length });
        for (const app of processes) {
          const got = await app.inject({
            method: 'GET',
            url: `/api/v1/proposal_file/?proposal=${proposalId}&file=${file!.id}`,
            headers,
          });
          expect(got.statusCode).toBe(200);
          expect(sha256(got.rawPayload)).toBe(sha256(bytes));
        }
      },
    );
  });

  describe('without S3_URL (each process its own DATA_DIR/uploads)', () => {
    let ctx: TestContext;
    let other: Awaited<ReturnType<typeof otherProcess>>;
    beforeAll(async () => {
      ctx = await createTestApp({ env: { SECRET_KEY } });
      ctx.clock.current = new Date();
      other = await otherProcess(ctx);
    }, 120_000);
    afterAll(async () => {
      await other?.close();
      await ctx?.close();
    });

    it('cannot move an upload: the other process does not know it', async () => {
      const { headers, proposalId } = await draft(ctx.app);
      const created = await startTusUpload(ctx.app, headers, 2 * UPLOAD_CHUNK_BYTES, {
        proposal: proposalId,
        filename: 'stuck.bin',
      });
      const url = created.headers.location as string;
      const first = randomBytes(UPLOAD_CHUNK_BYTES);
      expect((await sendTusBytes(ctx.app, headers, url, 0, first)).statusCode).toBe(204);
      const elsewhere = await sendTusBytes(other.app, headers, url, UPLOAD_CHUNK_BYTES, first);
      expect(elsewhere.statusCode).toBe(404);
    });
  });
});
