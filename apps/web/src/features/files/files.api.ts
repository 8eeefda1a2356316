import type { DownloadTicketRequest, ProposalFile } from '@merit/contract';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { API_BASE, apiRequest } from '../../api/client';
import { noBody } from '../../api/contract';

/** The tus endpoint (tus 1.0, creation and termination): uploads go there in chunks. */
export const UPLOADS_ENDPOINT = `${API_BASE}/uploads/`;

/** Query keys of a proposal's files: uploads and deletions change them, nothing else does. */
export const fileKeys = {
  ofProposal: (proposalId: number) => ['proposal-files', proposalId] as const,
};

export function fetchProposalFiles(proposalId: number, signal?: AbortSignal) {
  return apiRequest(`/proposal_files/${proposalId}/`, {
    schema: (c) => c.proposalFileList,
    signal,
  });
}

/** The files attached to a proposal: its form fields' files and its other attachments. */
export function useProposalFiles(proposalId: number) {
  return useQuery({
    queryKey: fileKeys.ofProposal(proposalId),
    queryFn: ({ signal }) => fetchProposalFiles(proposalId, signal),
  });
}

/**
 * What stands in for a form field's file that the proposal's files (`useProposalFiles`)
 * do not show: still loading, not loaded, or deleted since it was chosen.
 */
export function fileNotShownText(files: { isPending: boolean; isError: boolean }): string {
  if (files.isPending) return 'Loading the file…';
  if (files.isError) return 'The file’s name could not be loaded.';
  return 'The file uploaded here has been deleted.';
}

/**
 * The file a finished tus upload made. The upload's answer carries no file id, so the
 * list is read again and searched for the upload's id (the last part of its URL); the
 * cache takes the fresh list, so every view of the files shows the new one at once.
 */
export async function fileOfUpload(
  client: QueryClient,
  proposalId: number,
  uploadUrl: string,
): Promise<ProposalFile | undefined> {
  const uploadId = new URL(uploadUrl, window.location.href).pathname
    .split('/')
    .filter(Boolean)
    .pop();
  const files = await client.fetchQuery({
    queryKey: fileKeys.ofProposal(proposalId),
    queryFn: ({ signal }) => fetchProposalFiles(proposalId, signal),
    staleTime: 0,
  });
  return files.find((file) => file.uploadId === uploadId);
}

export function refreshProposalFiles(client: QueryClient, proposalId: number): Promise<void> {
  return client.invalidateQueries({ queryKey: fileKeys.ofProposal(proposalId) });
}

export function deleteProposalFile(proposalId: number, fileId: number) {
  return apiRequest('/proposal_file/', {
    method: 'DELETE',
    body: { proposal: proposalId, file: fileId },
    schema: noBody,
  });
}

/** A single-use link, valid for a minute, to a file or to the proposal's PDF. */
export function requestDownloadTicket(body: DownloadTicketRequest) {
  return apiRequest('/download_tickets/', {
    method: 'POST',
    body,
    schema: (c) => c.downloadTicket,
  });
}
