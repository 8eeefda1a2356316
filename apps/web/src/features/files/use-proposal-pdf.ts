import { fileMessages } from '@merit/domain';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify } from '../../components/notifications/notification-context';
import { safeFileName, saveBlob } from './downloads';
import { requestDownloadTicket } from './files.api';

/** Where Save PDF is: the server makes the PDF, then the browser reads it. */
export type PdfPhase = 'making' | 'downloading';

export interface PdfInProgress {
  proposalId: number;
  proposalName: string;
  phase: PdfPhase;
}

/**
 * The proposal's PDF (the extract) as bytes. The ticket's URL needs no token, so a plain
 * `fetch` reads it; an answer that is not a PDF (the app's own page, from a proxy that
 * lost the path) fails here rather than being saved as one.
 */
async function fetchProposalPdf(
  proposalId: number,
  onPhase: (phase: PdfPhase) => void,
): Promise<Blob> {
  const { url } = await requestDownloadTicket({ proposalExtract: proposalId });
  const response = await fetch(url);
  const type = response.headers.get('Content-Type') ?? '';
  if (!response.ok || !type.startsWith('application/pdf')) {
    throw new Error(`The PDF could not be made (${response.status}).`);
  }
  onPhase('downloading');
  return response.blob();
}

/**
 * Save PDF (spec section 2): one proposal's PDF at a time, saved as `<proposal name>.pdf`.
 * `progress` says which and how far, for the button's spinner and the status text; a
 * failure says so in the words of spec section 8.
 */
export function useProposalPdf() {
  const notify = useNotify();
  const [progress, setProgress] = useState<PdfInProgress | null>(null);
  const mutation = useMutation({
    mutationFn: async ({ id, proposalName }: { id: number; proposalName: string }) => {
      setProgress({ proposalId: id, proposalName, phase: 'making' });
      const pdf = await fetchProposalPdf(id, (phase) =>
        setProgress((current) => current && { ...current, phase }),
      );
      saveBlob(pdf, safeFileName(proposalName, 'pdf'));
    },
    onError: () => notify(fileMessages.pdfFailed, 'error'),
    onSettled: () => setProgress(null),
  });
  return {
    progress,
    save: (proposal: { id: number; proposalName: string }) => {
      if (!mutation.isPending) mutation.mutate(proposal);
    },
  };
}
