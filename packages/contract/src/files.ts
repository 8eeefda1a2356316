import { z } from 'zod';
import { dateTime, entityId, idParam } from './common.js';

const id = entityId;

/** A file attached to a proposal (GET /proposal_files/{proposalId}/). */
export const proposalFile = z
  .object({
    id,
    /** The name it was uploaded with, for display only. */
    name: z.string(),
    size: z.number().int(),
    contentType: z.string(),
    /** The form and field it answers, for a form's file field; null for an attachment. */
    formId: id.nullable(),
    field: z.string().nullable(),
    /** Who uploaded it, as people read their name. */
    uploadedBy: z.string(),
    uploaded: dateTime,
    /**
     * The tus upload that made it (the last part of the upload's URL), so the browser
     * that sent it can find the file; null for a file sent as a multipart form.
     */
    uploadId: z.string().nullable(),
  })
  .meta({ id: 'ProposalFile' });
export type ProposalFile = z.infer<typeof proposalFile>;
export const proposalFileList = z.array(proposalFile);

/** POST /proposal_response_pdf/ (spec section 7): the stored PDF's id. */
export const responsePdfStored = z.object({ status: z.literal('ok'), fileId: id });

/**
 * DELETE /proposal_file/ (spec section 7: token and proposal, and the file). `token` is the
 * spec client's way to send its auth token; the Authorization header works as elsewhere.
 */
export const proposalFileDelete = z.object({
  proposal: id,
  file: id,
  token: z.string().max(200).optional(),
});
export type ProposalFileDelete = z.infer<typeof proposalFileDelete>;

/**
 * GET /proposal_file/ and GET /proposal_response_pdf/ (spec section 7): `token` (the
 * caller's auth token, as the spec's client sends it), `proposal` and `file`.
 */
export const fileDownloadQuery = z.object({
  token: z.string().max(200).optional(),
  proposal: idParam,
  file: idParam,
});

/**
 * POST /download_tickets/: a single-use link, valid for 60 s, to a file, to the
 * proposal's PDF or to a decision letter's PDF (`LetterSummary.id`, issue 29), so the web
 * app never puts the long-lived token in a URL.
 */
export const downloadTicketRequest = z.union([
  z.object({ fileId: id }),
  z.object({ proposalExtract: id }),
  z.object({ letterId: id }),
]);
export type DownloadTicketRequest = z.infer<typeof downloadTicketRequest>;
export const downloadTicket = z.object({
  /** Opens the download; works once, within `expires`. */
  url: z.string(),
  expires: dateTime,
});
export type DownloadTicket = z.infer<typeof downloadTicket>;

/**
 * GET /files/{fileId}/, GET /download_proposal_extract/{proposalId}/ and
 * GET /decision_letters/{letterId}/ with a ticket.
 */
export const ticketQuery = z.object({ ticket: z.string().max(200).optional() });
export const fileIdParams = z.object({ fileId: idParam });
export const letterIdParams = z.object({ letterId: idParam });
