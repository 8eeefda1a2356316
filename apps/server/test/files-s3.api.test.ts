import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ProposalDetail } from '@merit/contract';
import { eq } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { proposalFiles } from '../src/db/schema.js';
import { s3Storage, storageFor, type FileStorage } from '../src/platform/io/file-storage.js';
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
 * Uploaded files in S3-compatible storage, against a real S3 server on loopback
 * (s3rver, from npm): the storage interface itself, and the app configured with S3_URL
 * storing, serving and deleting a proposal's file there.
 */
let server: S3rver;
let directory: string;
let endpoint: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'merit-s3-'));
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: 'merit', configs: [] }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

const storage = (): FileStorage =>
  s3Storage({
    endpoint,
    region: 'us-east-1',
    bucket: 'merit',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  });

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
  });
  afterAll(() => ctx.close());

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
});
