// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- bench/ compiles this file too, without the test folder that declares s3rver
/// <reference path="./s3rver.d.ts" />
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/**
 * An S3 server on loopback for tests and benchmarks: s3rver (from npm), with the three
 * multipart calls it lacks and @tus/s3-store makes (ListParts, AbortMultipartUpload and
 * ListMultipartUploads; s3rver 3.7 answers them 405 or NotImplemented). No server on npm
 * that runs on Node 20 has them (s3rver's fork @20minutes/s3rver neither, and fauxqs lacks
 * ListParts too), so they are answered here from the parts s3rver itself keeps on disk:
 * the uploads it began, the parts it stored, and the files it removes when it completes
 * an upload, so that ListParts of a completed upload is NoSuchUpload, as on S3.
 */

export interface S3Server {
  /** `http://127.0.0.1:port` */
  endpoint: string;
  /** The S3_URL of `bucket` on this server, with s3rver's fixed keys. */
  url: string;
  bucket: string;
  close(): Promise<void>;
}

/** What s3rver exposes of itself beyond its types (s3rver.d.ts): its Koa middleware and store. */
interface S3rverInternals {
  middleware: Middleware[];
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
}
interface Context {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}
type Middleware = (ctx: Context, next: () => Promise<void>) => Promise<void>;

const xmlEscape = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;

function noSuchUpload(ctx: Context, uploadId: string) {
  ctx.status = 404;
  ctx.type = 'application/xml';
  ctx.body = xml(
    `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${xmlEscape(uploadId)}</UploadId></Error>`,
  );
}

/** The multipart calls s3rver lacks, in front of its own routes. */
function multipartCalls(server: S3rverInternals): Middleware {
  const uploadsOf = (bucket: string) => server.store.getResourcePath(bucket, undefined, 'uploads');
  return async (ctx, next) => {
    const [, bucket, ...rest] = ctx.path.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    if (!bucket) return next();
    // Upload ids are s3rver's own hex; anything else names no upload.
    const dir =
      uploadId && /^[0-9a-f]+$/.test(uploadId) ? path.join(uploadsOf(bucket), uploadId) : '';

    if (ctx.method === 'GET' && key && uploadId) {
      // ListParts: every part stored so far, in order (one page: tus uploads have few).
      const names = await readdir(dir).catch(() => null);
      if (!names) return noSuchUpload(ctx, uploadId);
      const numbers = names
        .filter((n) => /^[0-9]+$/.test(n))
        .map(Number)
        .sort((a, b) => a - b);
      const parts = await Promise.all(
        numbers.map(async (n) => {
          const [info, md5] = await Promise.all([
            stat(path.join(dir, String(n))),
            readFile(path.join(dir, `${n}.md5`), 'utf8'),
          ]);
          return `<Part><PartNumber>${n}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${info.size}</Size></Part>`;
        }),
      );
      ctx.status = 200;
      ctx.type = 'application/xml';
      ctx.body = xml(
        `<ListPartsResult><Bucket>${xmlEscape(bucket)}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
      );
      return;
    }
    if (ctx.method === 'DELETE' && key && uploadId) {
      // AbortMultipartUpload: its parts are thrown away.
      if (!(await stat(dir).catch(() => null))) return noSuchUpload(ctx, uploadId);
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    if (ctx.method === 'GET' && !key && 'uploads' in ctx.query) {
      // ListMultipartUploads: every upload begun and not completed or aborted.
      const ids = await readdir(uploadsOf(bucket)).catch(() => [] as string[]);
      const uploads = await Promise.all(
        ids.map(async (id) => {
          const [objectKey, info] = await Promise.all([
            readFile(path.join(uploadsOf(bucket), id, 'key'), 'utf8'),
            stat(path.join(uploadsOf(bucket), id)),
          ]);
          return `<Upload><Key>${xmlEscape(objectKey)}</Key><UploadId>${id}</UploadId><Initiated>${info.birthtime.toISOString()}</Initiated></Upload>`;
        }),
      );
      ctx.status = 200;
      ctx.type = 'application/xml';
      ctx.body = xml(
        `<ListMultipartUploadsResult><Bucket>${xmlEscape(bucket)}</Bucket><IsTruncated>false</IsTruncated>${uploads.join('')}</ListMultipartUploadsResult>`,
      );
      return;
    }
    return next();
  };
}

/** Starts an S3 server on a free loopback port with one empty bucket, its data in a temporary folder. */
export async function startS3Server(bucket = 'merit'): Promise<S3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'merit-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const internals = server as unknown as S3rverInternals;
  // First, before s3rver's own routes answer these calls with an error.
  internals.middleware.unshift(multipartCalls(internals));
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    url: `http://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}`,
    bucket,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
