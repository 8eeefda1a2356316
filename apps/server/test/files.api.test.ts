import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, deflateSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { TAB_HEADER, type ProposalDetail, type ProposalFile } from '@merit/contract';
import { fileMessages, MAX_UPLOAD_BYTES } from '@merit/domain';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { FileStore } from '@tus/file-store';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proposalCollaborators, proposalFiles, proposals } from '../src/db/schema.js';
import { loadConfig } from '../src/config/config.js';
import { insertFile, type FileRow } from '../src/modules/files/files.queries.js';
import { overQuotaMessage } from '../src/modules/files/files.service.js';
import { removeFinishedUploads } from '../src/modules/files/uploads.js';
import { malformedMultipartMessage } from '../src/modules/files/files.routes.js';
import { auditOf, caller, makeForm, makeFormName } from './admin-fixtures.js';
import {
  auth,
  createTestApp,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';
import { makeProposalCall, makeProposalForms, type ProposalForms } from './proposal-fixtures.js';
import { multipartBody, sendTusBytes, startTusUpload, tusHeaders } from './upload-fixtures.js';

/**
 * Files of proposals (issue 12) on a real database and real disk: resumable tus uploads,
 * the spec's multipart endpoints, who may list, download and delete, single-use
 * download tickets, and the proposal's PDF with its attached PDFs merged in.
 */
let ctx: TestContext;
let forms: ProposalForms;
let fileForm: number;
let committeeId: number;
let admin: { id: number; isAdmin: boolean };

const attachmentSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', title: 'Project title' },
    cv: { type: 'string', format: 'data-url', title: 'CV (PDF)' },
  },
};

beforeAll(async () => {
  ctx = await createTestApp();
  forms = await makeProposalForms(ctx.app);
  fileForm = (
    await makeForm(ctx.app, (await makeFormName(ctx.app, { type: 0 })).id, {
      jsonSchema: attachmentSchema,
    })
  ).id;
  committeeId = (await makeCommittee(ctx.app)).id;
  admin = { id: (await makeUser(ctx.app, { isAdmin: true })).id, isAdmin: true };
});
afterAll(() => ctx.close());

async function person() {
  const user = await makeUser(ctx.app);
  const key = await login(ctx.app, user.username);
  return { user, key, headers: auth(key), call: caller(ctx.app, auth(key)) };
}
type Person = Awaited<ReturnType<typeof person>>;

/** A draft by a new author in a new open call whose one form has a PDF field. */
async function draft() {
  const { callId, typeId } = await makeProposalCall(ctx.app, {
    committeeId,
    forms,
    admin,
    proposalForms: [fileForm],
  });
  const author = await person();
  const res = await author.call('POST', '/update_proposal_name/', {
    callId,
    isNew: true,
    proposalId: null,
    name: 'Telescope time',
    type: typeId,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { callId, author, proposal: res.json() as ProposalDetail };
}

async function pdfSaying(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage();
  page.drawText(text, {
    x: 50,
    y: 700,
    size: 14,
    font: await doc.embedFont(StandardFonts.Helvetica),
  });
  return Buffer.from(await doc.save());
}

const tus = tusHeaders;
const createUpload = (who: Person, size: number, fields: Record<string, string | number>) =>
  startTusUpload(ctx.app, who.headers, size, fields);
const patch = (who: Person, location: string, offset: number, bytes: Buffer) =>
  sendTusBytes(ctx.app, who.headers, location, offset, bytes);

async function filesOf(who: Person, proposalId: number): Promise<ProposalFile[]> {
  const res = await who.call('GET', `/proposal_files/${proposalId}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function download(who: Person, fileId: number) {
  const ticket = await who.call('POST', '/download_tickets/', { fileId });
  expect(ticket.statusCode, ticket.body).toBe(200);
  return ctx.app.inject({ method: 'GET', url: ticket.json().url });
}

/** The stored files on disk (DATA_DIR/files), by storage key. */
const storedKeys = async () => readdir(path.join(ctx.dataDir, 'files')).catch(() => [] as string[]);

const multipart = multipartBody;

describe('resumable uploads (tus)', () => {
  it('takes a file in two parts, resumed after a stop, and keeps the exact bytes', async () => {
    const { author, proposal } = await draft();
    const bytes = await pdfSaying('Curriculum vitae of Ada Lovelace');
    const created = await createUpload(author, bytes.length, {
      proposal: proposal.id,
      form: fileForm,
      field: 'cv',
      filename: 'cv.pdf',
      filetype: 'application/pdf',
    });
    expect(created.statusCode, created.body).toBe(201);
    const location = created.headers.location as string;
    expect(location).toMatch(/^\/api\/v1\/uploads\/[0-9a-f]{32}$/);

    const half = Math.floor(bytes.length / 2);
    expect((await patch(author, location, 0, bytes.subarray(0, half))).statusCode).toBe(204);
    // The connection drops; the client asks where it got to, and goes on from there.
    const head = await ctx.app.inject({
      method: 'HEAD',
      url: location,
      headers: tus(author.headers),
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(half));
    expect((await filesOf(author, proposal.id)).length).toBe(0);
    const last = await patch(author, location, half, bytes.subarray(half));
    expect(last.statusCode, last.body).toBe(204);

    const [file] = await filesOf(author, proposal.id);
    expect(file).toMatchObject({
      name: 'cv.pdf',
      size: bytes.length,
      contentType: 'application/pdf',
      formId: fileForm,
      field: 'cv',
      uploadId: location.split('/').pop(),
    });
    const got = await download(author, file!.id);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(bytes)).toBe(true);
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="cv.pdf"; filename*=UTF-8''cv.pdf`,
    );
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect((await auditOf(ctx.app, 'proposal', proposal.id)).map((a) => a.action)).toContain(
      'proposal.add_file',
    );
    // A client whose last answer was lost asks again and hears that the upload is complete.
    const again = await ctx.app.inject({
      method: 'HEAD',
      url: location,
      headers: tus(author.headers),
    });
    expect(again.headers['upload-offset']).toBe(String(bytes.length));
    expect((await filesOf(author, proposal.id)).length).toBe(1);
    // Later, the tus copy goes; the file stays.
    const uploads = new FileStore({ directory: path.join(ctx.dataDir, 'uploads') });
    expect(await removeFinishedUploads(uploads, new Date(Date.now() + 60_000))).toBe(1);
    expect(await readdir(path.join(ctx.dataDir, 'uploads'))).not.toContain(
      location.split('/').pop(),
    );
    expect((await download(author, file!.id)).rawPayload.equals(bytes)).toBe(true);
  });

  it('refuses an over-size file before taking any of it, and says the limit', async () => {
    const { author, proposal } = await draft();
    const res = await createUpload(author, MAX_UPLOAD_BYTES + 1, {
      proposal: proposal.id,
      filename: 'big.bin',
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      detail: fileMessages.tooLarge(MAX_UPLOAD_BYTES),
      code: 'payload_too_large',
    });
    expect(fileMessages.tooLarge(MAX_UPLOAD_BYTES)).toContain('25 MB');
  });

  it('refuses a file that is not a PDF in a PDF field, and keeps none of it', async () => {
    const { author, proposal } = await draft();
    const before = await storedKeys();
    const bytes = Buffer.from('GIF89a pretending to be a PDF');
    const created = await createUpload(author, bytes.length, {
      proposal: proposal.id,
      form: fileForm,
      field: 'cv',
      filename: 'cv.pdf',
    });
    expect(created.statusCode).toBe(201);
    const res = await patch(author, created.headers.location as string, 0, bytes);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(fileMessages.notPdf);
    expect(await filesOf(author, proposal.id)).toEqual([]);
    expect(await storedKeys()).toEqual(before);
  });

  it('refuses a field that is not a file field of the form', async () => {
    const { author, proposal } = await draft();
    const res = await createUpload(author, 10, {
      proposal: proposal.id,
      form: fileForm,
      field: 'title',
      filename: 'x.pdf',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ field: [fileMessages.fieldNotInForm] });
  });

  it('lets only people who may edit start an upload, and only its creator go on with it', async () => {
    const { author, proposal } = await draft();
    const outsider = await person();
    const refused = await createUpload(outsider, 10, { proposal: proposal.id, filename: 'x' });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('not_found');

    const created = await createUpload(author, 10, { proposal: proposal.id, filename: 'x' });
    const stolen = await patch(outsider, created.headers.location as string, 0, Buffer.alloc(10));
    expect(stolen.statusCode).toBe(404);
    expect(await filesOf(author, proposal.id)).toEqual([]);
  });

  it('answers tus protocol errors in the error envelope', async () => {
    const { author } = await draft();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/',
      headers: { ...author.headers, 'upload-length': '5' },
    });
    expect(res.statusCode).toBe(412);
    expect(res.json()).toMatchObject({
      code: 'bad_request',
      detail: expect.stringContaining('Tus-Resumable'),
    });
  });

  it('refuses uploads to a submitted proposal', async () => {
    const { author, proposal } = await draft();
    await ctx.app.db.update(proposals).set({ stateVal: 1 }).where(eq(proposals.id, proposal.id));
    const res = await createUpload(author, 10, { proposal: proposal.id, filename: 'late.pdf' });
    expect(res.statusCode).toBe(409);
  });
});

describe('uploads and the editing lock', () => {
  it('take files from the editor that holds the lock, by tus and by multipart; another tab is refused', async () => {
    const { callId, author, proposal } = await draft();
    // A save takes the lock for the author's session (no tab named).
    const saved = await author.call('POST', '/proposal_responses/', {
      call: callId,
      proposalTypeId: proposal.proposalTypeId,
      proposal: proposal.id,
      new: false,
      hash: 11,
      formId: fileForm,
      index: 0,
      data: { title: 'Held' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const created = await createUpload(author, 10, { proposal: proposal.id, filename: 'a.txt' });
    expect(created.statusCode, created.body).toBe(201);
    const finished = await patch(author, created.headers.location as string, 0, Buffer.alloc(10));
    expect(finished.statusCode, finished.body).toBe(204);
    const body = await multipart(
      { call: String(callId), proposal: String(proposal.id), token: author.key },
      { name: 'budget.csv', bytes: Buffer.from('travel,1200\n') },
    );
    const attached = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/proposal_file/',
      ...body,
    });
    expect(attached.statusCode, attached.body).toBe(201);
    expect(await filesOf(author, proposal.id)).toHaveLength(2);

    const otherTab = { ...author.headers, [TAB_HEADER]: 'tab-two' };
    const refused = await startTusUpload(ctx.app, otherTab, 10, { proposal: proposal.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'locked' });
  });
});

describe("the spec's multipart endpoints", () => {
  it('attach a file with the token in the form, and give the same bytes back', async () => {
    const { callId, author, proposal } = await draft();
    const bytes = Buffer.from('budget,amount\ntravel,1200\n');
    const body = await multipart(
      { call: String(callId), proposal: String(proposal.id), token: author.key },
      { name: 'budget.csv', bytes },
    );
    const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/proposal_file/', ...body });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'budget.csv',
      size: bytes.length,
      formId: null,
      uploadId: null,
    });

    const got = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/proposal_file/?token=${author.key}&proposal=${proposal.id}&file=${res.json().id}`,
    });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(bytes)).toBe(true);
    expect(got.headers['content-type']).toBe('application/octet-stream');
  });

  it('store a PDF for a form field and answer {status: "ok", fileId}', async () => {
    const { author, proposal } = await draft();
    const bytes = await pdfSaying('A letter of support');
    const body = await multipart(
      { proposal: String(proposal.id), field: 'cv', form: String(fileForm), token: author.key },
      { name: 'letter.pdf', bytes },
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/proposal_response_pdf/',
      ...body,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { status, fileId } = res.json();
    expect(status).toBe('ok');
    const got = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/proposal_response_pdf/?proposal=${proposal.id}&file=${fileId}`,
      headers: author.headers,
    });
    expect(got.rawPayload.equals(bytes)).toBe(true);
    expect(got.headers['content-type']).toBe('application/pdf');
  });

  it('refuse what is not a PDF, what is too large, and callers without a token, storing nothing', async () => {
    const { author, proposal } = await draft();
    const before = await storedKeys();
    const notPdf = await multipart(
      { proposal: String(proposal.id), field: 'cv', form: String(fileForm), token: author.key },
      { name: 'cv.pdf', bytes: Buffer.from('<html>not a pdf</html>') },
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/proposal_response_pdf/',
      ...notPdf,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(fileMessages.notPdf);

    const huge = await multipart(
      { proposal: String(proposal.id), token: author.key },
      { name: 'huge.bin', bytes: Buffer.alloc(MAX_UPLOAD_BYTES + 1) },
    );
    const big = await ctx.app.inject({ method: 'POST', url: '/api/v1/proposal_file/', ...huge });
    expect(big.statusCode).toBe(413);
    expect(big.json().detail).toBe(fileMessages.tooLarge(MAX_UPLOAD_BYTES));

    const anonymous = await multipart(
      { proposal: String(proposal.id) },
      { name: 'a.txt', bytes: Buffer.from('hello') },
    );
    const anon = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/proposal_file/',
      ...anonymous,
    });
    expect(anon.statusCode).toBe(401);

    expect(await filesOf(author, proposal.id)).toEqual([]);
    expect(await storedKeys()).toEqual(before);
  });

  it('refuse a body that is not multipart as it says (no boundary, cut short) with a 400, not a 500', async () => {
    // Found by the route fuzzer (test/fuzz.api.test.ts): the multipart parser's own errors.
    const { author, proposal } = await draft();
    const whole = await multipart(
      { proposal: String(proposal.id), token: author.key },
      { name: 'a.txt', bytes: Buffer.from('hello') },
    );
    const broken = [
      { 'content-type': 'multipart/form-data', payload: '{"proposal": 1}' },
      { 'content-type': 'multipart/form-data; boundary=xyz', payload: '{"proposal": 1}' },
      { ...whole.headers, payload: whole.payload.subarray(0, whole.payload.length - 20) },
    ];
    for (const url of ['/api/v1/proposal_file/', '/api/v1/proposal_response_pdf/'])
      for (const { payload, ...headers } of broken) {
        const res = await ctx.app.inject({ method: 'POST', url, headers, payload });
        expect(res.statusCode, `${url} ${headers['content-type']}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual({ code: 'bad_request', detail: malformedMultipartMessage });
      }
    expect(await filesOf(author, proposal.id)).toEqual([]);
  });
});

/** A proposal with one attached file, made through the multipart endpoint. */
async function draftWithFile() {
  const made = await draft();
  const body = await multipart(
    { proposal: String(made.proposal.id), token: made.author.key },
    { name: 'notes.txt', bytes: Buffer.from('private notes') },
  );
  const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/proposal_file/', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return { ...made, file: res.json() as ProposalFile };
}

describe('downloads', () => {
  it('are for people who may see the proposal only', async () => {
    const { proposal, file } = await draftWithFile();
    const outsider = await person();
    expect((await outsider.call('GET', `/proposal_files/${proposal.id}/`)).statusCode).toBe(404);
    expect(
      (await outsider.call('POST', '/download_tickets/', { fileId: file.id })).statusCode,
    ).toBe(404);
    const direct = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/proposal_file/?proposal=${proposal.id}&file=${file.id}`,
      headers: outsider.headers,
    });
    expect(direct.statusCode).toBe(404);
    const noTicket = await ctx.app.inject({ method: 'GET', url: `/api/v1/files/${file.id}/` });
    expect(noTicket.statusCode).toBe(401);
  });

  it('stop for a collaborator once removed, even with a ticket made before', async () => {
    const { author, proposal, file } = await draftWithFile();
    const collaborator = await person();
    await ctx.app.db
      .insert(proposalCollaborators)
      .values({ proposalId: proposal.id, userId: collaborator.user.id });
    expect((await download(collaborator, file.id)).statusCode).toBe(200);
    const ticket = await collaborator.call('POST', '/download_tickets/', { fileId: file.id });
    const removed = await author.call('DELETE', '/collaborators/', {
      proposalId: proposal.id,
      userId: collaborator.user.id,
    });
    expect(removed.statusCode).toBe(204);
    expect((await ctx.app.inject({ method: 'GET', url: ticket.json().url })).statusCode).toBe(404);
    expect((await collaborator.call('GET', `/proposal_files/${proposal.id}/`)).statusCode).toBe(
      404,
    );
  });

  it('take a ticket once, and not after its minute', async () => {
    const { author, file } = await draftWithFile();
    const ticket = (await author.call('POST', '/download_tickets/', { fileId: file.id })).json();
    expect(ticket.url).toMatch(new RegExp(`^/api/v1/files/${file.id}/\\?ticket=`));
    expect((await ctx.app.inject({ method: 'GET', url: ticket.url })).statusCode).toBe(200);
    const again = await ctx.app.inject({ method: 'GET', url: ticket.url });
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toBe(fileMessages.ticketInvalid);

    const late = (await author.call('POST', '/download_tickets/', { fileId: file.id })).json();
    ctx.clock.advance(61_000);
    expect((await ctx.app.inject({ method: 'GET', url: late.url })).statusCode).toBe(404);
  });

  // Files whose first bytes look compressed: a gzip file, a zlib stream, and text that
  // happens to begin with a valid zlib header ("x " is 0x78 0x20). A compressing server
  // that sniffs those bytes sends them as they are under a Content-Encoding it did not
  // apply, and the browser's download fails or saves something else.
  it.each([
    ['archive.csv.gz', gzipSync(Buffer.from('budget,amount\ntravel,1200\n'.repeat(200)))],
    ['data.zz', deflateSync(Buffer.from('a zlib stream '.repeat(500)))],
    ['notes.txt', Buffer.from(`x marks the spot\n${'and more notes\n'.repeat(300)}`)],
  ])(
    'give %s back byte for byte to a browser that takes compressed answers',
    async (name, bytes) => {
      const { author, proposal } = await draft();
      const body = await multipart(
        { proposal: String(proposal.id), token: author.key },
        { name, bytes },
      );
      const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/proposal_file/', ...body });
      expect(res.statusCode, res.body).toBe(201);
      const fileId = (res.json() as ProposalFile).id;
      const browser = { 'accept-encoding': 'gzip, deflate, br' };
      const ticket = (await author.call('POST', '/download_tickets/', { fileId })).json();
      for (const got of [
        await ctx.app.inject({ method: 'GET', url: ticket.url, headers: browser }),
        await ctx.app.inject({
          method: 'GET',
          url: `/api/v1/proposal_file/?token=${author.key}&proposal=${proposal.id}&file=${fileId}`,
          headers: browser,
        }),
      ]) {
        expect(got.statusCode).toBe(200);
        // What a browser saves: the body decoded as its Content-Encoding says.
        const decode = { gzip: gunzipSync, deflate: inflateSync, br: brotliDecompressSync };
        const encoding = got.headers['content-encoding'] as keyof typeof decode | undefined;
        const saved = encoding ? decode[encoding](got.rawPayload) : got.rawPayload;
        expect(saved.equals(bytes)).toBe(true);
        expect(got.headers['content-length']).toBe(String(bytes.length));
      }
    },
  );

  it('refuse a ticket for one file used on another', async () => {
    const { author, file } = await draftWithFile();
    const other = await draftWithFile();
    const ticket = (await author.call('POST', '/download_tickets/', { fileId: file.id })).json();
    const res = await ctx.app.inject({
      method: 'GET',
      url: ticket.url.replace(`/files/${file.id}/`, `/files/${other.file.id}/`),
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('deleting a file', () => {
  it('removes its row and, once committed, its bytes', async () => {
    const { author, proposal, file } = await draftWithFile();
    const [row] = await ctx.app.db
      .select()
      .from(proposalFiles)
      .where(eq(proposalFiles.id, file.id));
    expect(await storedKeys()).toContain(row!.storageKey);
    const res = await author.call('DELETE', '/proposal_file/', {
      proposal: proposal.id,
      file: file.id,
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(await filesOf(author, proposal.id)).toEqual([]);
    await expect.poll(storedKeys, { timeout: 5_000 }).not.toContain(row!.storageKey);
  });

  it('is for people who may edit, and a file of another proposal is not found', async () => {
    const { author, proposal, file } = await draftWithFile();
    const outsider = await person();
    const other = await draftWithFile();
    expect(
      (await outsider.call('DELETE', '/proposal_file/', { proposal: proposal.id, file: file.id }))
        .statusCode,
    ).toBe(404);
    const wrong = await author.call('DELETE', '/proposal_file/', {
      proposal: proposal.id,
      file: other.file.id,
    });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().detail).toBe(fileMessages.notFound);
    expect((await filesOf(author, proposal.id)).length).toBe(1);
  });
});

describe('the proposal PDF', () => {
  it('holds every answer and the text of its merged PDFs, for anyone who may see it', async () => {
    const { author, proposal, callId } = await draft();
    const bytes = await pdfSaying('Distinctive sentence from the attached CV');
    const body = await multipart(
      { proposal: String(proposal.id), field: 'cv', form: String(fileForm), token: author.key },
      { name: 'cv.pdf', bytes },
    );
    const { fileId } = (
      await ctx.app.inject({ method: 'POST', url: '/api/v1/proposal_response_pdf/', ...body })
    ).json();
    const saved = await author.call('POST', '/proposal_responses/', {
      call: callId,
      proposalTypeId: proposal.proposalTypeId,
      proposal: proposal.id,
      new: false,
      hash: 7,
      formId: fileForm,
      index: 0,
      singleSave: true,
      validate: true,
      data: { title: 'Mapping the southern sky', cv: String(fileId) },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const ticket = (
      await author.call('POST', '/download_tickets/', { proposalExtract: proposal.id })
    ).json();
    const res = await ctx.app.inject({ method: 'GET', url: ticket.url });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('Telescope time.pdf');
    const parser = new PDFParse({ data: new Uint8Array(res.rawPayload) });
    const { text } = await parser.getText();
    await parser.destroy();
    for (const expected of [
      'Telescope time',
      'Mapping the southern sky',
      'Project title',
      'CV (PDF)',
      'Distinctive sentence from the attached CV',
    ])
      expect(text).toContain(expected);

    const outsider = await person();
    const refused = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/download_proposal_extract/${proposal.id}/`,
      headers: outsider.headers,
    });
    expect(refused.statusCode).toBe(404);
  });
});

describe('deleting a proposal', () => {
  it('takes its files with it, bytes and all', async () => {
    const { author, proposal, file } = await draftWithFile();
    const [row] = await ctx.app.db
      .select()
      .from(proposalFiles)
      .where(eq(proposalFiles.id, file.id));
    const res = await author.call('DELETE', `/proposals/${proposal.id}/`);
    expect(res.statusCode, res.body).toBe(204);
    expect(
      await ctx.app.db.select().from(proposalFiles).where(eq(proposalFiles.id, file.id)),
    ).toEqual([]);
    await expect.poll(storedKeys, { timeout: 5_000 }).not.toContain(row!.storageKey);
  });
});

describe('the per-user upload quota (UPLOAD_QUOTA_MB, 2 GB unless set)', () => {
  const quota = 2048 * 1024 * 1024;

  /**
   * Records files of `bytes` in all as `who`'s uploads to `proposalId`, straight in the
   * database (their bytes need not exist: only the sizes count). Rows of at most 1 GB,
   * the column being a 32-bit integer.
   */
  async function alreadyUploaded(who: Person, proposalId: number, bytes: number) {
    const rows: FileRow[] = [];
    for (let left = bytes, i = 0; left > 0; i += 1) {
      const size = Math.min(left, 1024 * 1024 * 1024);
      rows.push(
        await insertFile(ctx.app.db, {
          proposalId,
          storageKey: `quota-fixture-${proposalId}-${i}-${left}`,
          name: `old-${i}.bin`,
          size,
          contentType: 'application/octet-stream',
          uploadedBy: who.user.id,
          uploadedAt: ctx.clock.now(),
        }),
      );
      left -= size;
    }
    return rows;
  }

  /**
   * Runs `requests` so that their transactions really overlap: on PostgreSQL, another
   * connection holds the proposals' rows until every upload waits for one, then lets them
   * all go at once. (PGlite has one connection, which runs transactions one at a time.)
   */
  async function allAtOnce<T>(proposalIds: number[], requests: () => Promise<T>): Promise<T> {
    if (!ctx.databaseUrl) return requests();
    const holder = new pg.Client({ connectionString: ctx.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from proposals where id = any($1) for update', [proposalIds]);
      const running = requests();
      const waiting = async () => {
        // pg_stat_activity is read once per transaction unless its snapshot is cleared.
        await holder.query('select pg_stat_clear_snapshot()');
        const { rows } = await holder.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        return rows[0]!.n;
      };
      await expect.poll(waiting, { timeout: 10_000 }).toBe(proposalIds.length);
      await holder.query('commit');
      return await running;
    } finally {
      await holder.end();
    }
  }

  const multipartUpload = async (who: Person, proposalId: number, bytes: Buffer) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/proposal_file/',
      ...(await multipart(
        { proposal: String(proposalId), token: who.key },
        { name: 'more.bin', bytes },
      )),
    });

  it('is 2 GB unless UPLOAD_QUOTA_MB says otherwise, and a wrong setting stops the start', () => {
    expect(ctx.app.config.uploadQuotaBytes).toBe(quota);
    expect(loadConfig({ UPLOAD_QUOTA_MB: '100' }).uploadQuotaBytes).toBe(100 * 1024 * 1024);
    for (const wrong of ['0', '24', '1.5', 'lots', '1048577'])
      expect(() => loadConfig({ UPLOAD_QUOTA_MB: wrong })).toThrow(
        `UPLOAD_QUOTA_MB must be a whole number of megabytes from 25 (one file of the largest size) to 1048576 (1 TB), but is "${wrong}".`,
      );
  });

  it('refuses a tus upload whose declared size would pass it, before taking a byte, and says why', async () => {
    const { author, proposal } = await draft();
    await alreadyUploaded(author, proposal.id, quota - 100);
    const uploadsBefore = await readdir(path.join(ctx.dataDir, 'uploads')).catch(() => []);
    const refused = await createUpload(author, 101, { proposal: proposal.id, filename: 'a.bin' });
    expect(refused.statusCode).toBe(413);
    const message = overQuotaMessage(quota - 100, quota, 101);
    expect(message).toBe(
      'This file (101 bytes) does not fit: your uploaded files already take 1.99 GB of the 2 GB each person may store. Delete files you no longer need in Manage Uploaded Files, then upload it again.',
    );
    expect(refused.json()).toEqual({
      detail: message,
      code: 'payload_too_large',
      fields: { file: [message] },
    });
    expect(await readdir(path.join(ctx.dataDir, 'uploads')).catch(() => [])).toEqual(uploadsBefore);
    // Exactly up to the quota is allowed.
    const fits = await createUpload(author, 100, { proposal: proposal.id, filename: 'b.bin' });
    expect(fits.statusCode, fits.body).toBe(201);
  });

  it('refuses a multipart upload by someone at their quota before reading the file, and one that would pass it once read', async () => {
    const { author, proposal } = await draft();
    const [first] = await alreadyUploaded(author, proposal.id, quota);
    const before = await storedKeys();
    // Larger than any file may be: had the body been read first, the answer would be the 25 MB limit.
    const huge = await multipartUpload(author, proposal.id, Buffer.alloc(MAX_UPLOAD_BYTES + 1024));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().detail).toBe(
      'Another file does not fit: your uploaded files already take 2 GB of the 2 GB each person may store. Delete files you no longer need in Manage Uploaded Files, then upload it again.',
    );

    // Deleting a file frees its share: 1 GB free now, but not 1 GB and more.
    const deleted = await author.call('DELETE', '/proposal_file/', {
      proposal: proposal.id,
      file: first!.id,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    await alreadyUploaded(author, proposal.id, 1024 * 1024 * 1024 - 10);
    const over = await multipartUpload(author, proposal.id, Buffer.alloc(11, 'x'));
    expect(over.statusCode).toBe(413);
    expect(over.json().detail).toBe(overQuotaMessage(quota - 10, quota, 11));
    expect(await storedKeys()).toEqual(before);
    const fits = await multipartUpload(author, proposal.id, Buffer.alloc(10, 'x'));
    expect(fits.statusCode, fits.body).toBe(201);
    // Others' uploads are theirs: a collaborator's count against the collaborator alone.
    const other = await person();
    const theirs = await createUpload(other, 1000, { proposal: proposal.id, filename: 'c.bin' });
    expect(theirs.statusCode).not.toBe(413);
  });

  it('lets concurrent uploads to different proposals together take no more than the quota', async () => {
    const { callId, author, proposal } = await draft();
    const targets = [proposal.id];
    while (targets.length < 6) {
      const more = await author.call('POST', '/update_proposal_name/', {
        callId,
        isNew: true,
        proposalId: null,
        name: `Proposal ${targets.length + 1}`,
        type: proposal.proposalTypeId,
      });
      expect(more.statusCode, more.body).toBe(201);
      targets.push((more.json() as ProposalDetail).id);
    }
    await alreadyUploaded(author, proposal.id, quota - 1500);
    const bytes = Buffer.alloc(1000, 'q');
    // Each fits when it starts (1,000 of 1,500 bytes left); no two together do. They go to
    // different proposals, whose row locks do not keep them apart.
    const locations: string[] = [];
    for (const proposalId of targets) {
      const res = await createUpload(author, bytes.length, {
        proposal: proposalId,
        filename: 'q.bin',
      });
      expect(res.statusCode, res.body).toBe(201);
      locations.push(res.headers.location as string);
    }
    const finished = await allAtOnce(targets, () =>
      Promise.all(locations.map((location) => patch(author, location, 0, bytes))),
    );
    expect(finished.map((res) => res.statusCode).sort()).toEqual([204, 413, 413, 413, 413, 413]);
    for (const res of finished.filter((r) => r.statusCode === 413))
      expect(res.json().detail).toBe(overQuotaMessage(quota - 500, quota, 1000));
    const [{ used }] = (await ctx.app.db
      .select({ used: sql<string>`sum(${proposalFiles.size})::text` })
      .from(proposalFiles)
      .where(eq(proposalFiles.uploadedBy, author.user.id))) as [{ used: string }];
    expect(Number(used)).toBe(quota - 500);
  });
});
