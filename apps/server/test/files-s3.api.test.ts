import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { ProposalDetail, ProposalFile } from '@merit/contract';
import { UPLOAD_CHUNK_BYTES } from '@merit/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { proposalFiles } from '../src/db/schema.js';
import { s3UploadStore } from '../src/modules/files/s3-upload-store.js';
import { removeFinishedUploads, sweepUploads } from '../src/modules/files/uploads.js';
import {
  s3ClientConfig,
  s3Storage,
  storageFor,
  type FileStorage,
} from '../src/platform/io/file-storage.js';
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
 * Uploaded files in S3-compatible storage, against a real S3 server on loopback
 * (s3rver, from npm, see s3-server.ts): the storage interface itself, and the app
 * configured with S3_URL storing, serving and deleting a proposal's file there, and
 * keeping uploads in progress (tus) in the bucket.
 */
let server: S3Server;
let endpoint: string;

beforeAll(async () => {
  server = await startS3Server();
  endpoint = server.endpoint;
});
afterAll(() => server.close());

const location = () => ({
  endpoint,
  region: 'us-east-1',
  bucket: 'merit',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
});
const storage = (): FileStorage => s3Storage(location());

/** The keys in the bucket that start with `prefix`. */
async function keysIn(prefix: string): Promise<string[]> {
  const client = new S3Client(s3ClientConfig(location()));
  const page = await client.send(new ListObjectsV2Command({ Bucket: 'merit', Prefix: prefix }));
  client.destroy();
  return (page.Contents ?? []).map((object) => object.Key!);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const readAll = async (stream: Readable) => Buffer.concat(await stream.toArray());

describe('S3 storage', () => {
  it('keeps bytes written as a buffer or a stream, and forgets them', async () => {
    const files = storage();
    await files.write('key_from_a_buffer_1', Buffer.from('first'));
    await files.write(
      'key_from_a_stream_1',
      Readable.from([Buffer.from('sec'), Buffer.from('ond')]),
    );
    expect((await readAll(await files.read('key_from_a_buffer_1'))).toString()).toBe('first');
    expect((await readAll(await files.read('key_from_a_stream_1'))).toString()).toBe('second');
    await files.delete('key_from_a_buffer_1');
    await expect(files.read('key_from_a_buffer_1')).rejects.toThrow();
  });

  it('refuses keys the server did not make', async () => {
    await expect(storage().write('../escape', Buffer.from('x'))).rejects.toThrow(/storage key/);
  });

  it('is what S3_URL configures', () => {
    const config = loadConfig({ S3_URL: `http://S3RVER:S3RVER@${endpoint.slice(7)}/merit` });
    expect(config.s3).toEqual({
      endpoint,
      region: 'us-east-1',
      bucket: 'merit',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    expect(storageFor(config)).not.toBeNull();
  });
});

describe('the app on S3 storage', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      env: { S3_URL: `http://S3RVER:S3RVER@${endpoint.slice(7)}/merit` },
    });
  }, 120_000);
  afterAll(() => ctx?.close());

  it('stores an attachment in the bucket, serves it, and deletes it from there', async () => {
    const forms = await makeProposalForms(ctx.app);
    const committeeId = (await makeCommittee(ctx.app)).id;
    const admin = { id: (await makeUser(ctx.app, { isAdmin: true })).id, isAdmin: true };
    const { callId, typeId } = await makeProposalCall(ctx.app, { committeeId, forms, admin });
    const author = await makeUser(ctx.app);
    const key = await login(ctx.app, author.username);
    const call = caller(ctx.app, auth(key));
    const proposal = (
      await call('POST', '/update_proposal_name/', {
        callId,
        isNew: true,
        proposalId: null,
        name: 'On S3',
        type: typeId,
      })
    ).json() as ProposalDetail;

    const form = new FormData();
    form.append('proposal', String(proposal.id));
    form.append('file', new Blob(['kept in a bucket']), 'bucket.txt');
    const encoded = new Response(form);
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/proposal_file/',
      headers: { ...auth(key), 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const fileId = uploaded.json().id as number;

    const got = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/proposal_file/?proposal=${proposal.id}&file=${fileId}`,
      headers: auth(key),
    });
    expect(got.body).toBe('kept in a bucket');

    const [row] = await ctx.app.db
      .select({ key: proposalFiles.storageKey })
      .from(proposalFiles)
      .where(eq(proposalFiles.id, fileId));
    expect((await readAll(await storage().read(row!.key))).toString()).toBe('kept in a bucket');
    const deleted = await call('DELETE', '/proposal_file/', {
      proposal: proposal.id,
      file: fileId,
    });
    expect(deleted.statusCode).toBe(204);
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/proposal_file/?proposal=${proposal.id}&file=${fileId}`,
      headers: auth(key),
    });
    expect(again.statusCode).toBe(404);
    // The bytes leave the bucket once the deletion has committed.
    await expect
      .poll(
        () =>
          storage()
            .read(row!.key)
            .then(
              () => 'there',
              () => 'gone',
            ),
        { timeout: 5_000 },
      )
      .toBe('gone');
  });

  /** A new author's draft, with the author's headers. */
  async function draft() {
    const forms = await makeProposalForms(ctx.app);
    const committeeId = (await makeCommittee(ctx.app)).id;
    const admin = { id: (await makeUser(ctx.app, { isAdmin: true })).id, isAdmin: true };
    const { callId, typeId } = await makeProposalCall(ctx.app, { committeeId, forms, admin });
    const author = await makeUser(ctx.app);
    const headers = auth(await login(ctx.app, author.username));
    const created = await caller(ctx.app, headers)('POST', '/update_proposal_name/', {
      callId,
      isNew: true,
      proposalId: null,
      name: 'Uploaded to S3',
      type: typeId,
    });
    return { headers, proposalId: (created.json() as ProposalDetail).id };
  }

  const head = (headers: Record<string, string>, url: string) =>
    ctx.app.inject({ method: 'HEAD', url, headers: tusHeaders(headers) });

  it("keeps a tus upload in progress in the bucket, in the web client's chunks, and stores the exact bytes", async () => {
    const { headers, proposalId } = await draft();
    // Past S3's 5 MiB part, so the upload has a whole part and a pending one.
    const bytes = randomBytes(6 * 1024 * 1024 + 1234);
    const created = await startTusUpload(ctx.app, headers, bytes.length, {
      proposal: proposalId,
      filename: 'data.bin',
      filetype: 'application/octet-stream',
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = created.headers.location as string;
    const id = url.split('/').pop()!;
    expect(id).toMatch(/^[0-9a-f]{32}$/);

    for (let offset = 0; offset < bytes.length; offset += UPLOAD_CHUNK_BYTES) {
      const chunk = bytes.subarray(offset, offset + UPLOAD_CHUNK_BYTES);
      const sent = await sendTusBytes(ctx.app, headers, url, offset, chunk);
      expect(sent.statusCode, sent.body).toBe(204);
      expect(sent.headers['upload-offset']).toBe(String(offset + chunk.length));
      if (offset === 0) {
        // In the bucket, not in DATA_DIR: the record and the first chunk, pending.
        expect((await keysIn(id)).sort()).toEqual([`${id}.info`, `${id}.part`]);
        expect((await head(headers, url)).headers['upload-offset']).toBe(
          String(UPLOAD_CHUNK_BYTES),
        );
      }
    }
    const files = (
      await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/proposal_files/${proposalId}/`,
        headers,
      })
    ).json() as ProposalFile[];
    const file = files.find((f) => f.uploadId === id)!;
    expect(file).toMatchObject({ name: 'data.bin', size: bytes.length });
    const got = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/proposal_file/?proposal=${proposalId}&file=${file.id}`,
      headers,
    });
    expect(sha256(got.rawPayload)).toBe(sha256(bytes));
    // Asked again, the upload is complete; an hour later its tus copy goes, the file stays.
    expect((await head(headers, url)).headers['upload-offset']).toBe(String(bytes.length));
    const uploads = s3UploadStore(location(), 24 * 60 * 60 * 1000);
    expect(await removeFinishedUploads(uploads, new Date(Date.now() + 60_000))).toBe(1);
    expect(await keysIn(id)).toEqual([]);
    expect((await head(headers, url)).statusCode).toBe(404);
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/proposal_file/?proposal=${proposalId}&file=${file.id}`,
      headers,
    });
    expect(sha256(again.rawPayload)).toBe(sha256(bytes));
  });

  it('sweeps an upload abandoned for a day out of the bucket, and not before', async () => {
    const { headers, proposalId } = await draft();
    const start = async () => {
      const created = await startTusUpload(ctx.app, headers, 2 * UPLOAD_CHUNK_BYTES, {
        proposal: proposalId,
        filename: 'half.bin',
      });
      expect(created.statusCode, created.body).toBe(201);
      const url = created.headers.location as string;
      const sent = await sendTusBytes(ctx.app, headers, url, 0, randomBytes(UPLOAD_CHUNK_BYTES));
      expect(sent.statusCode, sent.body).toBe(204);
      return url.split('/').pop()!;
    };
    const old = await start();
    const uploads = s3UploadStore(location(), 24 * 60 * 60 * 1000);
    const hour = 60 * 60 * 1000;
    // Nothing is a day old yet.
    expect(await sweepUploads(uploads, new Date(Date.now() + 23 * hour))).toMatchObject({
      abandoned: 0,
    });
    expect(await keysIn(old)).toHaveLength(2);
    const swept = await sweepUploads(uploads, new Date(Date.now() + 25 * hour));
    expect(swept.abandoned).toBeGreaterThanOrEqual(1);
    expect(await keysIn(old)).toEqual([]);
    const gone = await head(headers, `/api/v1/uploads/${old}`);
    expect(gone.statusCode).toBe(404);
  });
});
