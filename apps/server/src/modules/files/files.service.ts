import {
  errorCodes,
  type DownloadTicket,
  type DownloadTicketRequest,
  type ProposalFile,
  type ProposalFileDelete,
} from '@merit/contract';
import {
  displayFileName,
  fileFields,
  formatBytes,
  fileMessages,
  isMultiForm,
  isPdf,
  MAX_UPLOAD_BYTES,
  proposalStateName,
  seesReviewProgress,
  type FormType,
} from '@merit/domain';
import { issueTicket } from './download-tickets.js';
import { DELETE_STORED_FILES_JOB, type DeleteStoredFiles } from '../../platform/io/file-storage.js';
import { HttpError, invalid, notFound } from '../../platform/http/http-errors.js';
import type { ReadWork, Work } from '../../platform/data/work.js';
import { touchProposal, type LoadedProposal } from '../proposals/proposals.queries.js';
import { responsesOf } from '../proposals/answers.queries.js';
import { typeFormsOf } from '../forms/type-forms.queries.js';
import { loadFor } from '../proposals/proposal-access.js';
import { letterForDownload } from '../letters/letters-access.js';
import {
  deleteFileRow,
  fileCountOf,
  filesOf,
  findFile,
  insertFile,
  lockUploadQuota,
  uploadedBytesOf,
  type FileRow,
} from './files.queries.js';
import type { ExtractInput } from './proposal-extract.js';

/** Where an upload goes: a proposal, and for a form's file field, the form and the field. */
export interface UploadTarget {
  proposalId: number;
  formId: number | null;
  field: string | null;
}

/** A file whose bytes are stored under `storageKey`, to be recorded on its proposal. */
export interface StoredUpload extends UploadTarget {
  name: string;
  contentType: string;
  size: number;
  storageKey: string;
  /** The tus upload that sent it; null for a multipart form. */
  uploadId: string | null;
}

/**
 * The most files one proposal may have (OWASP ASVS V12.1.3). The spec sets no number;
 * a replaced file stays until it is deleted, so this leaves room for many replacements.
 */
export const MAX_FILES_PER_PROPOSAL = 100;
export const tooManyFilesMessage = `This proposal has ${MAX_FILES_PER_PROPOSAL} files, the most a proposal may have. Delete one in Manage Uploaded Files before uploading another.`;
const tooManyFiles = () => invalid({ file: [tooManyFilesMessage] }, tooManyFilesMessage);

const GB = 1024 * 1024 * 1024;
/** Sizes up to a quota's: GB with two decimals, rounded down (never more than is used). */
const quotaText = (bytes: number) =>
  bytes >= GB ? `${Math.floor((bytes / GB) * 100) / 100} GB` : formatBytes(bytes);

/**
 * Why a file that would take its uploader past their quota (UPLOAD_QUOTA_MB, ASVS
 * V12.1.3) is refused, and what to do; `size` is unknown before a multipart file is read.
 */
export function overQuotaMessage(usedBytes: number, quotaBytes: number, size?: number): string {
  const file = size === undefined ? 'Another file' : `This file (${formatBytes(size)})`;
  return `${file} does not fit: your uploaded files already take ${quotaText(usedBytes)} of the ${quotaText(quotaBytes)} each person may store. Delete files you no longer need in Manage Uploaded Files, then upload it again.`;
}
/** 413 like the 25 MB limit, since it is the file's size that does not fit. */
const overQuota = (usedBytes: number, quotaBytes: number, size?: number) => {
  const message = overQuotaMessage(usedBytes, quotaBytes, size);
  return new HttpError(413, errorCodes.payloadTooLarge, message, { file: [message] });
};

export const tooLarge = () =>
  new HttpError(413, errorCodes.payloadTooLarge, fileMessages.tooLarge(MAX_UPLOAD_BYTES));
export const notPdf = () => invalid({ file: [fileMessages.notPdf] }, fileMessages.notPdf);
const emptyFile = () => invalid({ file: [fileMessages.empty] }, fileMessages.empty);

/** The content type a file is recorded with: PDF when its bytes say so, else what the client said, if sane. */
export function contentTypeOf(claimed: string | undefined, head: Uint8Array): string {
  if (isPdf(head)) return 'application/pdf';
  const type = claimed?.trim().toLowerCase() ?? '';
  return /^[a-z0-9.+-]{1,60}\/[a-z0-9.+-]{1,100}$/.test(type) ? type : 'application/octet-stream';
}

/**
 * Checks an upload may go to `target` before any of its bytes are taken: the caller may
 * edit the proposal now (`file.upload`), the size is within the limit, the caller's files
 * and this one fit in `quotaBytes`, and a form's file field names a file field of one of
 * the proposal's forms. Answers whether only a PDF may go there (a form's file field:
 * spec section 7, `/proposal_response_pdf/`). `size` is unknown only before a multipart
 * file's bytes are read: then a caller already at the quota is refused.
 */
export async function checkUpload(
  work: ReadWork,
  target: UploadTarget,
  size: number | undefined,
  quotaBytes: number,
  forUpdate = false,
): Promise<{ pdfOnly: boolean }> {
  if (size !== undefined && size > MAX_UPLOAD_BYTES) throw tooLarge();
  if (size === 0) throw emptyFile();
  const loaded = await loadFor(work, 'file.upload', target.proposalId, forUpdate);
  // Both checked again when the file is recorded, under the proposal's row lock and the
  // uploader's quota lock.
  if ((await fileCountOf(work.tx, target.proposalId)) >= MAX_FILES_PER_PROPOSAL)
    throw tooManyFiles();
  if (forUpdate) await lockUploadQuota(work.tx, work.actor.id);
  const used = await uploadedBytesOf(work.tx, work.actor.id);
  if (used + (size ?? 1) > quotaBytes) throw overQuota(used, quotaBytes, size);
  if (target.formId === null) {
    if (target.field !== null) throw invalid({ form: [fileMessages.fieldNotInForm] });
    return { pdfOnly: false };
  }
  const form = (await typeFormsOf(work.tx, loaded.proposal.proposalTypeId, 'proposal')).find(
    (f) => f.id === target.formId,
  );
  if (!form || !target.field || !fileFields(form.jsonSchema, form.uiSchema).includes(target.field))
    throw invalid({ field: [fileMessages.fieldNotInForm] }, fileMessages.fieldNotInForm);
  return { pdfOnly: true };
}

/**
 * Records a stored upload on its proposal, checking again under the proposal's row lock
 * (the proposal may have been submitted, or locked by someone else, while the bytes came
 * in): the file's row, lastModified, and the audit row, all or nothing.
 */
export async function recordUpload(
  work: Work,
  upload: StoredUpload,
  head: Uint8Array,
  quotaBytes: number,
): Promise<FileRow> {
  const { pdfOnly } = await checkUpload(work, upload, upload.size, quotaBytes, true);
  if (pdfOnly && !isPdf(head)) throw notPdf();
  const row = await insertFile(work.tx, {
    proposalId: upload.proposalId,
    storageKey: upload.storageKey,
    name: displayFileName(upload.name),
    size: upload.size,
    contentType: contentTypeOf(upload.contentType, head),
    formId: upload.formId,
    field: upload.field,
    uploadedBy: work.actor.id,
    uploadedAt: work.now,
    uploadId: upload.uploadId,
  });
  await touchProposal(work.tx, upload.proposalId, work.now);
  await work.audit({
    action: 'proposal.add_file',
    entityId: upload.proposalId,
    after: { fileId: row.id, name: row.name, size: row.size, formId: row.formId, field: row.field },
  });
  return row;
}

const presentFile = (file: FileRow, uploaderName: string | null): ProposalFile => ({
  id: file.id,
  name: file.name,
  size: file.size,
  contentType: file.contentType,
  formId: file.formId,
  field: file.field,
  uploadedBy: uploaderName ?? 'A former user',
  uploaded: file.uploadedAt.toISOString(),
  uploadId: file.uploadId,
});

export async function listFiles(work: ReadWork, proposalId: number): Promise<ProposalFile[]> {
  await loadFor(work, 'file.download', proposalId);
  const rows = await filesOf(work.tx, proposalId);
  return rows.map((r) => presentFile(r.file, r.uploaderName));
}

/** Deletes a file of a proposal its caller may edit; its bytes go once this has committed. */
export async function removeFile(work: Work, request: ProposalFileDelete): Promise<void> {
  await loadFor(work, 'file.delete', request.proposal, true);
  const removed = await deleteFileRow(work.tx, request.proposal, request.file);
  if (!removed) throw notFound(fileMessages.notFound);
  await touchProposal(work.tx, request.proposal, work.now);
  await work.audit({
    action: 'proposal.remove_file',
    entityId: request.proposal,
    before: { fileId: request.file, name: removed.name },
  });
  await work.enqueue(DELETE_STORED_FILES_JOB, {
    keys: [removed.storageKey],
  } satisfies DeleteStoredFiles);
}

/**
 * A file for its download: found, of `proposalId` when one is named, and of a proposal
 * the caller may see. Anything else is the same 404, so nobody learns which files exist.
 */
export async function fileForDownload(
  work: ReadWork,
  fileId: number,
  proposalId?: number,
): Promise<FileRow> {
  const file = await findFile(work.tx, fileId);
  if (!file || (proposalId !== undefined && file.proposalId !== proposalId))
    throw notFound(fileMessages.notFound);
  await loadFor(work, 'file.download', file.proposalId);
  return file;
}

/**
 * A single-use link, valid for a minute, to a file, a proposal's PDF or a decision
 * letter's PDF (letters-access.ts `letterForDownload` says who may have it), for a caller who
 * may download it now; the link checks again when it is used.
 */
export async function downloadTicketFor(
  work: Work,
  request: DownloadTicketRequest,
): Promise<DownloadTicket> {
  const [kind, targetId, path] =
    'fileId' in request
      ? (['file', request.fileId, 'files'] as const)
      : 'letterId' in request
        ? (['letter', request.letterId, 'decision_letters'] as const)
        : (['extract', request.proposalExtract, 'download_proposal_extract'] as const);
  if (kind === 'file') await fileForDownload(work, targetId);
  else if (kind === 'letter') await letterForDownload(work, targetId);
  else await loadFor(work, 'file.download', targetId);
  const { ticket, expires } = await issueTicket(
    work.tx,
    { userId: work.actor.id, kind, targetId },
    work.now,
  );
  return {
    url: `/api/v1/${path}/${targetId}/?ticket=${encodeURIComponent(ticket)}`,
    expires: expires.toISOString(),
  };
}

/**
 * What the proposal's PDF shows, for a caller who may see the proposal: its facts, its
 * forms in the call's order with their answers, and its files. Nothing of reviews.
 */
export async function extractOf(
  work: ReadWork,
  proposalId: number,
): Promise<{ input: ExtractInput; files: FileRow[] }> {
  const loaded: LoadedProposal = await loadFor(work, 'file.download', proposalId);
  const { proposal } = loaded;
  // One after another: inside a transaction, they share its one connection.
  const typeForms = await typeFormsOf(work.tx, proposal.proposalTypeId, 'proposal');
  const entries = await responsesOf(work.tx, proposalId);
  const files = await filesOf(work.tx, proposalId);
  const input: ExtractInput = {
    callName: loaded.call.name,
    proposalName: proposal.name,
    proposalTypeName: loaded.typeName,
    author: loaded.author.name,
    authorEmail: loaded.author.email,
    collaborators: loaded.collaborators.map((c) => ({ name: c.name, email: c.email })),
    // Reviewed only for those who may know it, as the proposal's own page says.
    state: proposalStateName(
      proposal.stateVal,
      loaded.reviewed && seesReviewProgress(work.actor, loaded.resource, work.now),
    ),
    created: proposal.createdAt,
    lastModified: proposal.updatedAt,
    forms: typeForms.map((form) => {
      const answers = entries.filter((e) => e.formId === form.id).map((e) => e.data);
      const multi = isMultiForm(form.type as FormType);
      return {
        id: form.id,
        name: form.name,
        jsonSchema: form.jsonSchema,
        uiSchema: form.uiSchema,
        multi,
        answers: multi ? answers : (answers[0] ?? null),
      };
    }),
    files: files.map(({ file }) => ({
      id: file.id,
      name: file.name,
      contentType: file.contentType,
      size: file.size,
    })),
  };
  return { input, files: files.map((f) => f.file) };
}
