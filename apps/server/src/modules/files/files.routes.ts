import fastifyMultipart from '@fastify/multipart';
import {
  downloadTicket,
  downloadTicketRequest,
  errorBody,
  errorCodes,
  fileDownloadQuery,
  fileIdParams,
  idParam,
  letterIdParams,
  noContent,
  proposalFile,
  proposalFileDelete,
  proposalFileList,
  proposalIdParams,
  responsePdfStored,
  ticketQuery,
} from '@merit/contract';
import { fileMessages, MAX_UPLOAD_BYTES, messages } from '@merit/domain';
import { eq } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changeRefusals } from '../../platform/http/routes.js';
import { z } from 'zod';
import { users } from '../../db/schema.js';
import { redeemTicket, type TicketKind } from './download-tickets.js';
import { DELETE_STORED_FILES_JOB, type DeleteStoredFiles } from '../../platform/io/file-storage.js';
import { HttpError, invalid, notAuthenticated, notFound } from '../../platform/http/http-errors.js';
import { sessionOf, type ReadWork } from '../../platform/data/work.js';
import { admit, administrationOfUser, tokenKeyFrom } from '../auth/auth-access.js';
import { NON_FIELD } from '../../platform/http/errors.js';
import { unstorableTextMessage, unstorableTextPaths } from '../../platform/http/input-guard.js';
import {
  checkUpload,
  downloadTicketFor,
  extractOf,
  fileForDownload,
  listFiles,
  removeFile,
  tooLarge,
  type UploadTarget,
} from './files.service.js';
import type { FileRow } from './files.queries.js';
import { letterForDownload } from '../letters/letters-access.js';
import { PdfWorkerPool } from './pdf-worker.js';
import { createUploads, storeUpload } from './uploads.js';

const tags = ['files'];
const refusals = { ...changeRefusals, 413: errorBody } as const;

/** A tus upload's id, as the tus server names them (16 random bytes in hex). */
const uploadIdParams = z.object({ uploadId: z.string().regex(/^[0-9a-f]{32}$/) });

/** The fields of the spec's multipart uploads (spec section 7), besides the file itself. */
const proposalFileForm = z.object({
  call: idParam.optional(),
  proposal: idParam,
  token: z.string().max(200).optional(),
});
const responsePdfForm = proposalFileForm.extend({
  form: idParam,
  field: z.string().min(1).max(200),
});

/**
 * `Content-Disposition: attachment` with the name as people gave it (RFC 6266): an ASCII
 * stand-in for old clients, and the exact name encoded for the rest.
 */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Sends bytes as a download: never shown in the browser's own window (attachment,
 * nosniff), never kept by a cache. Only PDFs keep their type; anything else is bytes.
 */
function sendDownload(
  reply: FastifyReply,
  name: string,
  contentType: string,
  body: Buffer | Readable,
) {
  return reply
    .header(
      'content-type',
      contentType === 'application/pdf' ? 'application/pdf' : 'application/octet-stream',
    )
    .header('content-disposition', attachment(name))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(body);
}

/**
 * The routes that send an uploaded file as it was stored: never compressed on the way.
 * Most uploads are compressed already (PDF, images, archives), and the compress plugin
 * looks at a body's first bytes to skip what seems compressed: it then sends those bytes
 * as they are under the Content-Encoding it announced, so a .gz file, a zlib stream, or
 * a text that happens to begin like one ("x " is a zlib header) reached the browser as a
 * download it could not decode.
 */
const storedBytes = { compress: false } as const;

export const malformedMultipartMessage =
  'The request body is not valid multipart/form-data. Send the form with one file, in the field "file".';

/**
 * A multipart form read whole: its text fields and its one file (at most 25 MB, in
 * memory). `beforeFile` sees the fields sent before the file, and may refuse the upload
 * before any of the file's bytes are taken.
 */
async function readMultipart(
  request: FastifyRequest,
  beforeFile?: (fields: Record<string, string>) => Promise<void>,
) {
  const fields: Record<string, string> = {};
  let file: { name: string; type: string; bytes: Buffer } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === 'file') await beforeFile?.(fields);
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file') file = { name: part.filename, type: part.mimetype, bytes };
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
      throw new HttpError(415, 'unsupported_media_type', 'Send the file as multipart/form-data.');
    if (code?.startsWith('FST_')) throw invalid({ file: ['Send one file, in the field "file".'] });
    // Anything else the parser throws is the body's fault: a multipart Content-Type with
    // no boundary, or a body that is not multipart or ends early (found by the fuzzer).
    throw new HttpError(400, errorCodes.badRequest, malformedMultipartMessage);
  }
  return { fields, file };
}

/** The spec's fields, checked as any body is: storable text, then the schema. */
function parseForm<T extends z.ZodType>(schema: T, fields: Record<string, string>): z.infer<T> {
  const unstorable = unstorableTextPaths(fields);
  if (unstorable.length > 0)
    throw invalid(Object.fromEntries(unstorable.map((p) => [p, [unstorableTextMessage]])));
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    const { fieldErrors, formErrors } = z.flattenError(parsed.error);
    throw invalid({
      ...(fieldErrors as Record<string, string[]>),
      ...(formErrors.length > 0 ? { [NON_FIELD]: formErrors } : {}),
    });
  }
  return parsed.data;
}

/**
 * Files of proposals (issue 12): resumable uploads (tus), the spec's multipart uploads,
 * the list, deletion, downloads and the proposal's PDF. Every route loads the proposal
 * and authorizes with the domain's `file.*` rules; who may see the proposal downloads,
 * who may edit it now uploads and deletes.
 */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  const uploads = createUploads(app);
  const cleaner = setInterval(() => void uploads.cleanUp(), 60 * 60 * 1000);
  cleaner.unref();
  app.addHook('onClose', async () => clearInterval(cleaner));
  app.jobs.handle<DeleteStoredFiles>(DELETE_STORED_FILES_JOB, async ({ keys }) => {
    await Promise.all(keys.map((key) => app.files.delete(key)));
  });
  // The proposal extracts' worker threads: at most PDF_WORKERS at once, started when needed.
  const pdfWorkers = new PdfWorkerPool(app.config.pdfWorkers);
  app.addHook('onClose', () => pdfWorkers.close());

  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 10_000, parts: 12 },
  });
  // tus sends the bytes raw: the tus server reads them from the request itself.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) =>
    done(null),
  );

  /**
   * Sends a stored file as a download, under the name it was uploaded with, byte for byte:
   * its length is known, so the browser can show the download's progress.
   */
  async function sendFile(reply: FastifyReply, file: FileRow) {
    const body = await app.files.read(file.storageKey).catch(() => {
      throw notFound(fileMessages.notFound);
    });
    return sendDownload(
      reply.header('content-length', file.size),
      file.name,
      file.contentType,
      body,
    );
  }

  /**
   * Runs a read for the caller of a download link: the user a ticket was made for (used
   * up here, whatever follows), or the caller's own token. The rules are then checked as
   * for any read, so a ticket outlives nobody's rights.
   */
  async function readForDownload<T>(
    request: FastifyRequest,
    ticket: { value: string | undefined; kind: TicketKind; targetId: number },
    fn: (work: ReadWork) => Promise<T>,
  ): Promise<T> {
    if (ticket.value !== undefined) {
      const userId = await redeemTicket(
        app.db,
        ticket.value,
        ticket.kind,
        ticket.targetId,
        app.now(),
      );
      const [user] = userId
        ? await app.db
            .select({ id: users.id, isAdmin: users.isAdmin, isActive: users.isActive })
            .from(users)
            .where(eq(users.id, userId))
        : [];
      if (!user?.isActive) throw notFound(fileMessages.ticketInvalid);
      // The admin flag counts as the auth hook counts it (ADMIN_TWO_FACTOR).
      const administration = await administrationOfUser(app.db, app.config.adminTwoFactor, user);
      return app.writeAs({ id: user.id, isAdmin: administration === 'allowed' }, fn);
    }
    if (!request.user) throw notAuthenticated(messages.notAuthenticated);
    await admit(app, request, null, 'user');
    return app.read(request, fn);
  }

  // --- Uploads -----------------------------------------------------------------------------

  // The tus protocol's own requests (creation, HEAD for the offset, PATCH with bytes,
  // termination): described by the protocol, not by a body schema.
  app.post('/uploads/', { schema: { tags, hide: true } }, (request, reply) =>
    uploads.handle(request, reply),
  );
  for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
    app.route({
      method,
      url: '/uploads/:uploadId',
      schema: { tags, hide: true, params: uploadIdParams },
      handler: (request, reply) => uploads.handle(request, reply),
    });
  }

  app.post(
    '/proposal_file/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Attach a file to a proposal (multipart: call, proposal, token, file)',
        consumes: ['multipart/form-data'],
        response: { 201: proposalFile, ...refusals, 415: errorBody },
      },
    },
    async (request, reply) => {
      const { fields, file } = await readMultipart(request, (sent) =>
        refuseEarly(request, sent, (fields) => {
          const form = proposalFileForm.safeParse(fields);
          return form.success
            ? { proposalId: form.data.proposal, formId: null, field: null }
            : null;
        }),
      );
      await admit(app, request, tokenKeyFrom(request) ?? fields.token ?? null, 'user');
      const form = parseForm(proposalFileForm, fields);
      const stored = await storeMultipart(
        request,
        { proposalId: form.proposal, formId: null, field: null },
        file,
      );
      const [listed] = (await app.read(request, (work) => listFiles(work, form.proposal))).filter(
        (f) => f.id === stored.id,
      );
      return reply.code(201).send(listed!);
    },
  );

  app.post(
    '/proposal_response_pdf/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Store a PDF for one form field (multipart: proposal, token, field, form, file)',
        consumes: ['multipart/form-data'],
        response: { 200: responsePdfStored, ...refusals, 415: errorBody },
      },
    },
    async (request) => {
      const { fields, file } = await readMultipart(request, (sent) =>
        refuseEarly(request, sent, (fields) => {
          const form = responsePdfForm.safeParse(fields);
          return form.success
            ? { proposalId: form.data.proposal, formId: form.data.form, field: form.data.field }
            : null;
        }),
      );
      await admit(app, request, tokenKeyFrom(request) ?? fields.token ?? null, 'user');
      const form = parseForm(responsePdfForm, fields);
      const stored = await storeMultipart(
        request,
        { proposalId: form.proposal, formId: form.form, field: form.field },
        file,
      );
      return { status: 'ok' as const, fileId: stored.id };
    },
  );

  /**
   * When the fields before the file already say who uploads where, refuses the upload
   * before its bytes are read if it may not go there (a caller at their quota, a full
   * proposal, a submitted one). Fields that come after the file are checked once it is read.
   */
  async function refuseEarly(
    request: FastifyRequest,
    sent: Record<string, string>,
    targetOf: (fields: Record<string, string>) => UploadTarget | null,
  ) {
    const target = targetOf(sent);
    if (!target) return;
    await admit(app, request, tokenKeyFrom(request) ?? sent.token ?? null, 'user');
    await app.read(request, (work) =>
      checkUpload(work, target, undefined, app.config.uploadQuotaBytes),
    );
  }

  async function storeMultipart(
    request: FastifyRequest,
    target: { proposalId: number; formId: number | null; field: string | null },
    file: { name: string; type: string; bytes: Buffer } | null,
  ) {
    if (!file) throw invalid({ file: ['Choose a file to upload.'] });
    // Refused before anything is stored when the caller may not upload there.
    await app.read(request, (work) =>
      checkUpload(work, target, file.bytes.length, app.config.uploadQuotaBytes),
    );
    return storeUpload(
      app,
      request,
      { ...request.user!, session: sessionOf(request) },
      {
        ...target,
        name: file.name,
        contentType: file.type,
        size: file.bytes.length,
        uploadId: null,
      },
      file.bytes,
      file.bytes.subarray(0, 8),
    );
  }

  // --- The list and deletion ---------------------------------------------------------------

  app.get(
    '/proposal_files/:proposalId/',
    {
      schema: {
        tags,
        summary: "A proposal's files, for anyone who may see the proposal",
        params: proposalIdParams,
        response: { 200: proposalFileList, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => app.read(request, (work) => listFiles(work, request.params.proposalId)),
  );

  app.delete(
    '/proposal_file/',
    {
      // The spec's client sends its token in the body: checked in the handler.
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Delete a file of a proposal (whoever may edit the proposal now)',
        body: proposalFileDelete,
        response: { 204: noContent, ...refusals },
      },
    },
    async (request, reply) => {
      await admit(app, request, tokenKeyFrom(request) ?? request.body.token ?? null, 'user');
      await app.write(request, (work) => removeFile(work, request.body));
      return reply.code(204).send(null);
    },
  );

  // --- Downloads -----------------------------------------------------------------------------

  app.post(
    '/download_tickets/',
    {
      schema: {
        tags,
        summary: 'A single-use link, valid for 60 s, to a file or to the proposal PDF',
        body: downloadTicketRequest,
        response: { 200: downloadTicket, ...refusals },
      },
    },
    async (request) => app.write(request, (work) => downloadTicketFor(work, request.body)),
  );

  for (const url of ['/proposal_file/', '/proposal_response_pdf/']) {
    app.get(
      url,
      {
        ...storedBytes,
        config: { tokenInQuery: true },
        schema: {
          tags,
          summary: 'Download a file of a proposal (query: token, proposal, file)',
          querystring: fileDownloadQuery,
          response: { 401: errorBody, 403: errorBody, 404: errorBody },
        },
      },
      async (request, reply) => {
        const { proposal, file } = request.query;
        const row = await app.read(request, (work) => fileForDownload(work, file, proposal));
        return sendFile(reply, row);
      },
    );
  }

  app.get(
    '/files/:fileId/',
    {
      ...storedBytes,
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Download a file with a download ticket (or the Authorization header)',
        params: fileIdParams,
        querystring: ticketQuery,
        response: { 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const { fileId } = request.params;
      const row = await readForDownload(
        request,
        { value: request.query.ticket, kind: 'file', targetId: fileId },
        (work) => fileForDownload(work, fileId),
      );
      return sendFile(reply, row);
    },
  );

  app.get(
    '/decision_letters/:letterId/',
    {
      ...storedBytes,
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "A decision letter's PDF with a download ticket (or the Authorization header): whoever may read the proposal's outcome, never a superseded letter",
        params: letterIdParams,
        querystring: ticketQuery,
        response: { 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const { letterId } = request.params;
      const letter = await readForDownload(
        request,
        { value: request.query.ticket, kind: 'letter', targetId: letterId },
        (work) => letterForDownload(work, letterId),
      );
      const body = await app.files.read(letter.storageKey!).catch(() => {
        throw notFound(fileMessages.notFound);
      });
      return sendDownload(
        reply,
        `Decision letter ${letter.proposalId}.pdf`,
        'application/pdf',
        body,
      );
    },
  );

  app.get(
    '/download_proposal_extract/:proposalId/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The proposal as one PDF: its facts, forms and answers, then its PDF files',
        params: proposalIdParams,
        querystring: ticketQuery,
        response: { 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const { proposalId } = request.params;
      const { input, files } = await readForDownload(
        request,
        { value: request.query.ticket, kind: 'extract', targetId: proposalId },
        (work) => extractOf(work, proposalId),
      );
      // pdfmake and pdf-lib load on the first extract, not at start-up (bench figure (f)).
      const { renderProposalExtract } = await import('./proposal-extract.js');
      const pdf = await renderProposalExtract(
        input,
        async (fileId) => {
          // Only the proposal's own files: an answer naming another proposal's file gets nothing.
          const file = files.find((f) => f.id === fileId);
          if (!file) return null;
          const stream = await app.files.read(file.storageKey).catch(() => null);
          return stream ? Buffer.concat(await stream.toArray()) : null;
        },
        { attachmentsMaxBytes: app.config.extractAttachmentsMaxBytes, pool: pdfWorkers },
      );
      return sendDownload(reply, `${input.proposalName}.pdf`, 'application/pdf', pdf);
    },
  );
};
