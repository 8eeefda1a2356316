import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { errorCodes, type ErrorBody } from '@merit/contract';
import { fileMessages, MAX_UPLOAD_BYTES } from '@merit/domain';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, invalid, notFound } from '../../platform/http/http-errors.js';
import { ScannerUnavailableError } from '../../platform/io/virus-scan.js';
import type { App, AuthUser } from '../../platform/http/app-types.js';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { originOf, sessionOf, type WriteAsUser } from '../../platform/data/work.js';
import { checkUpload, recordUpload, tooLarge, type StoredUpload } from './files.service.js';
import type { FileRow } from './files.queries.js';
import type { UploadStore } from './upload-store.js';

/** The tus endpoint (tus 1.0 with creation and termination), under the API's prefix. */
export const UPLOADS_PATH = '/api/v1/uploads';
/** An upload nobody has continued for this long is thrown away. */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
/** A finished upload's tus copy is kept this long after it began, for clients that ask again. */
const FINISHED_KEPT_MS = 60 * 60 * 1000;

/** Uploads in progress in a folder of this machine (`FileStore`), as without S3. */
export function fileUploadStore(datastore: FileStore): UploadStore {
  return {
    datastore,
    ids: async () => (await datastore.configstore.list?.()) ?? [],
    async begun(id) {
      const info = await datastore.configstore.get(id).catch(() => undefined);
      return info?.creation_date ? new Date(info.creation_date) : null;
    },
    // An upload whose bytes are gone loses its record.
    forget: (id) => datastore.remove(id).catch(() => datastore.configstore.delete(id)),
    bytes: (id) => Promise.resolve({ file: path.join(datastore.directory, id) }),
  };
}

const storeOf = (store: FileStore | UploadStore) =>
  store instanceof FileStore ? fileUploadStore(store) : store;

/**
 * Removes the tus copies of finished uploads begun before `before` (tus stamps uploads
 * with the real clock). Their files live on in the file storage.
 */
export async function removeFinishedUploads(
  uploads: FileStore | UploadStore,
  before: Date,
): Promise<number> {
  const store = storeOf(uploads);
  let removed = 0;
  for (const id of await store.ids()) {
    const upload = await store.datastore.getUpload(id).catch(() => null);
    const begun = upload?.creation_date ? new Date(upload.creation_date) : null;
    if (upload && upload.offset === upload.size && begun && begun < before) {
      await store.forget(id);
      removed += 1;
    }
  }
  return removed;
}

/**
 * The hourly sweep of the uploads in progress as of `now`: throws away the tus copies of
 * uploads begun a day or more before and never finished (OWASP ASVS V8.1.2), and of
 * finished ones begun an hour before. Returns how many of each it removed.
 */
export async function sweepUploads(uploads: FileStore | UploadStore, now: Date) {
  const store = storeOf(uploads);
  const abandonedBefore = new Date(now.getTime() - ABANDONED_AFTER_MS);
  let abandoned = 0;
  for (const id of await store.ids()) {
    const begun = await store.begun(id);
    if (!begun || begun >= abandonedBefore) continue;
    const upload = await store.datastore.getUpload(id).catch(() => null);
    // A finished upload is the other rule's.
    if (upload && upload.offset === upload.size) continue;
    await store.forget(id);
    abandoned += 1;
  }
  const finished = await removeFinishedUploads(store, new Date(now.getTime() - FINISHED_KEPT_MS));
  return { abandoned, finished };
}

const MAX_ID = 2_147_483_647;
/** A metadata id: canonical positive integers only, as everywhere in the API. */
function metadataId(value: string | null | undefined, name: string, required: boolean) {
  if (value == null || value === '') {
    if (required) throw invalid({ [name]: [`Say which ${name} the file is for.`] });
    return null;
  }
  const id = Number(value);
  if (!/^[1-9][0-9]{0,9}$/.test(value) || id > MAX_ID)
    throw invalid({ [name]: ['Expected an id: a whole number from 1 to 2147483647.'] });
  return id;
}

/** What an upload's metadata says it is for; the caller is the one who created it. */
function targetOf(upload: Upload) {
  const meta = upload.metadata ?? {};
  const field = meta.field ?? null;
  return {
    proposalId: metadataId(meta.proposal, 'proposal', true)!,
    formId: metadataId(meta.form, 'form', false),
    field: field === '' ? null : field,
    name: meta.filename ?? 'file',
    contentType: meta.filetype ?? '',
  };
}

/** The first bytes of a file: enough to tell a PDF. */
async function headOf(bytes: Buffer | { file: string }): Promise<Uint8Array> {
  if (Buffer.isBuffer(bytes)) return bytes.subarray(0, 8);
  const handle = await open(bytes.file, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(8), 0, 8, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export const newStorageKey = () => randomBytes(24).toString('base64url');

/**
 * Refuses a file the virus scanner (CLAMD_URL) finds something in, and any file while the
 * scanner gives no verdict: nothing unscanned is stored. Without a scanner, takes all.
 */
async function scanUpload(
  app: App,
  request: FastifyRequest,
  user: Pick<AuthUser, 'id'>,
  upload: Pick<StoredUpload, 'proposalId'>,
  bytes: Readable | Buffer,
): Promise<void> {
  if (!app.virusScanner) return;
  let result;
  try {
    result = await app.virusScanner.scan(bytes);
  } catch (error) {
    if (!(error instanceof ScannerUnavailableError)) throw error;
    request.log.error(
      { err: error },
      'the virus scanner gave no verdict, so the upload was refused',
    );
    throw new HttpError(503, errorCodes.unavailable, fileMessages.scannerUnavailable);
  }
  if (!result.clean) {
    logSecurityEvent(request, 'file.infected', {
      userId: user.id,
      proposalId: upload.proposalId,
      signature: result.signature,
    });
    const message = fileMessages.infected(result.signature);
    throw invalid({ file: [message] }, message);
  }
}

/**
 * Stores a finished file's bytes and records it on its proposal as `user`, all or
 * nothing: the bytes are scanned for malware (when a scanner is set) and then written
 * before the row, so a row never names bytes that are not there, and forgotten again
 * when the proposal refuses them (submitted meanwhile, not a PDF). Used by the tus
 * endpoint (`bytes` in its file) and by the spec's multipart endpoints alike.
 */
export async function storeUpload(
  app: App,
  request: FastifyRequest,
  user: Pick<AuthUser, 'id' | 'isAdmin'> & Pick<WriteAsUser, 'session'>,
  upload: Omit<StoredUpload, 'storageKey'>,
  bytes: Buffer | { file: string },
  head: Uint8Array,
): Promise<FileRow> {
  const read = () => (Buffer.isBuffer(bytes) ? bytes : createReadStream(bytes.file));
  await scanUpload(app, request, user, upload, read());
  const storageKey = newStorageKey();
  await app.files.write(storageKey, read());
  try {
    return await app.writeAs(
      user,
      (work) => recordUpload(work, { ...upload, storageKey }, head, app.config.uploadQuotaBytes),
      originOf(request),
    );
  } catch (error) {
    await app.files.delete(storageKey).catch((e: unknown) => app.log.warn(e));
    throw error;
  }
}

const statusCodes: Record<number, string> = {
  400: errorCodes.badRequest,
  401: errorCodes.notAuthenticated,
  403: errorCodes.forbidden,
  404: errorCodes.notFound,
  409: errorCodes.conflict,
  413: errorCodes.payloadTooLarge,
};

/** A tus answer's body in the error envelope: the tus server words its own refusals as text. */
function envelopeOf(status: number, text: string): ErrorBody {
  try {
    const body = JSON.parse(text) as ErrorBody;
    if (typeof body.detail === 'string') return body;
  } catch {
    // Plain text from the tus server itself: wrapped below.
  }
  return {
    detail: text.trim() || 'The upload request was refused.',
    code: statusCodes[status] ?? errorCodes.badRequest,
  };
}

/**
 * The tus server behind `/api/v1/uploads/`. Each request has passed the API's auth hook
 * (so `request.user` is the caller); the hooks below check the rest: who may upload to
 * the proposal and field (at creation, and again when the last byte arrives), that only
 * the creator continues an upload, that a form's file field gets a PDF. A finished
 * upload becomes a file of the proposal in the configured storage, and the tus copy goes.
 *
 * With S3 (S3_URL) uploads in progress live in the bucket too, so any process behind a
 * load balancer takes an upload's next chunk; without it, in DATA_DIR/uploads of the
 * process that receives them.
 */
export function createUploads(app: App) {
  // Each tus request's API request: its caller, and the request (its log, id and address).
  const requests = new WeakMap<Request, FastifyRequest>();
  const requestOf = (req: Request) => {
    const request = requests.get(req);
    if (!request?.user) throw new Error('A tus request reached its hooks without a caller.');
    // With its session and tab: the proposal's rules compare the editor holding its lock.
    return { user: { ...request.user, session: sessionOf(request) }, request };
  };
  const callerOf = (req: Request) => requestOf(req).user;
  const s3 = app.config.s3;
  // The S3 store loads the AWS SDK: with the first upload, not at start-up (bench figure (f)).
  let loaded: Promise<UploadStore> | undefined;
  const uploadStore = () =>
    (loaded ??= s3
      ? import('./s3-upload-store.js').then((m) => m.s3UploadStore(s3, ABANDONED_AFTER_MS))
      : Promise.resolve(
          fileUploadStore(
            new FileStore({
              directory: path.join(app.config.dataDir, 'uploads'),
              expirationPeriodInMilliseconds: ABANDONED_AFTER_MS,
            }),
          ),
        ));

  /** The tus server on `store`, made with the first request. */
  const serverFor = (store: UploadStore) => {
    const { datastore } = store;
    return new Server({
      path: UPLOADS_PATH,
      datastore,
      maxSize: MAX_UPLOAD_BYTES,
      relativeLocation: true,
      // Same origin only: no CORS headers for other sites.
      allowedOrigins: [],
      // A finished upload is a file of the proposal: it is deleted through /proposal_file/.
      disableTerminationForFinishedUploads: true,
      async onIncomingRequest(req, uploadId) {
        if (req.method === 'POST') return;
        const upload = await datastore.getUpload(uploadId).catch(() => null);
        // An upload is its creator's alone: to anyone else it does not exist.
        if (upload && upload.metadata?.userId !== String(callerOf(req).id))
          throw notFound('There is no such upload.');
      },
      async onUploadCreate(req, upload) {
        const user = callerOf(req);
        if (upload.size === undefined)
          throw invalid({ file: ['Say the size of the file (Upload-Length).'] });
        const target = targetOf(upload);
        await app.writeAs(user, (work) =>
          checkUpload(work, target, upload.size, app.config.uploadQuotaBytes),
        );
        return { metadata: { ...upload.metadata, userId: String(user.id) } };
      },
      async onUploadFinish(req, upload) {
        const { user, request } = requestOf(req);
        try {
          const bytes = await store.bytes(upload.id);
          await storeUpload(
            app,
            request,
            user,
            { ...targetOf(upload), size: upload.size ?? upload.offset, uploadId: upload.id },
            bytes,
            await headOf(bytes),
          );
        } catch (error) {
          // Refused: a client that asks again must start again, and be refused again.
          await store.forget(upload.id).catch((e: unknown) => app.log.warn(e));
          throw error;
        }
        // Stored. The tus copy stays a while (removeFinishedUploads), so a client whose
        // last answer was lost asks for the offset, hears "complete", and does not send
        // the whole file again as a new upload.
        return {};
      },
      async onResponseError(_req, error) {
        if (error instanceof HttpError)
          return { status_code: error.statusCode, body: JSON.stringify(error.toBody()) };
        const status = (error as { status_code?: number }).status_code;
        if (status === 413) return { status_code: 413, body: JSON.stringify(tooLarge().toBody()) };
        if (status === undefined || status >= 500) {
          app.log.error(error, 'upload failed');
          return {
            status_code: 500,
            body: JSON.stringify({
              detail: 'The upload failed on the server.',
              code: 'internal_error',
            }),
          };
        }
        return undefined;
      },
    });
  };

  let server: Promise<Server> | undefined;
  const tusServer = () => (server ??= uploadStore().then(serverFor));

  /** Hands one API request to the tus server and sends its answer through Fastify's reply. */
  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const carriesBytes = request.method === 'PATCH' || request.method === 'POST';
    const req = new Request(new URL(request.url, 'http://merit.invalid'), {
      method: request.method,
      headers,
      body: carriesBytes && request.body === undefined ? Readable.toWeb(request.raw) : undefined,
      duplex: 'half',
    } as RequestInit);
    requests.set(req, request);
    const res = await (await tusServer()).handleWeb(req);
    for (const [name, value] of res.headers) {
      // Fastify sets these itself for the body it sends.
      if (name !== 'content-length' && name !== 'connection') void reply.header(name, value);
    }
    void reply.code(res.status);
    const text = await res.text();
    if (res.status >= 400) return reply.type('application/json').send(envelopeOf(res.status, text));
    return reply.send(text || null);
  }

  /** Throws away uploads abandoned for a day, and finished ones kept long enough; run now and then. */
  const cleanUp = async () => {
    try {
      // tus stamps uploads with the real clock, so the sweep goes by it too.
      await sweepUploads(await uploadStore(), new Date());
    } catch (error) {
      app.log.warn(error, 'cleaning up uploads failed');
    }
  };

  return { handle, cleanUp };
}
