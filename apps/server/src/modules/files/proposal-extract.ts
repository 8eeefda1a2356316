import { loadFiles } from './extract-attachments.js';
import type { ExtractInput, ReadFileBytes } from './extract-input.js';
import { layOut } from './extract-layout.js';
import { PdfWorker, type PdfWorkerLimits } from './pdf-worker.js';

/**
 * The proposal extract (GET /download_proposal_extract/{proposalId}/): one PDF with the
 * proposal's facts, every form's answers under the schema's titles, and then the PDFs
 * uploaded to its file fields, each after a page that says which field it answers.
 *
 * Pure apart from the font files: the caller loads the proposal and hands over a reader
 * for file bytes. The input carries nothing of reviews, so an author's extract cannot
 * show any; keep it that way.
 */

export type { ExtractFile, ExtractForm, ExtractInput, ReadFileBytes } from './extract-input.js';
export { MAX_MERGED_PAGES } from './extract-attachments.js';

/**
 * The extract's pages, then for each PDF in a file field (forms in order, entries in
 * order) a separator page and the PDF's pages. Files that are not PDFs are named in their
 * form's section only; a PDF that cannot be read, or that runs the PDF worker out of
 * memory or time, gets its separator page with a note. Uploaded PDFs are parsed only in
 * that worker (pdf-worker.ts), never on the server's own thread.
 */
export async function renderProposalExtract(
  input: ExtractInput,
  readBytes: ReadFileBytes,
  options: { attachmentsMaxBytes?: number; pdfWorker?: PdfWorkerLimits } = {},
): Promise<Buffer> {
  const cap = options.attachmentsMaxBytes ?? Number.POSITIVE_INFINITY;
  const worker = new PdfWorker(options.pdfWorker);
  try {
    const loaded = await loadFiles(input, readBytes, cap, worker);
    // A file that loaded alone may still fail in the merge (its pages' objects are only
    // copied then): it is named as left out and the extract is laid out again without it.
    for (;;) {
      const { documents, owners } = await layOut(input, loaded);
      const merged = await worker.run({
        kind: 'merge',
        documents,
        title: input.proposalName,
        subject: `Proposal extract: ${input.callName}`,
      });
      if ('pdf' in merged) return Buffer.from(merged.pdf);
      const at = 'failedAt' in merged ? merged.failedAt : 'at' in merged ? merged.at : null;
      const fileId = at === null ? undefined : owners[at];
      const file = fileId === undefined ? undefined : loaded.get(fileId);
      const problem =
        'problem' in merged ? merged.problem : 'failed' in merged ? merged.failed : '';
      // Only uploaded files can fail: the extract's own pages are made here.
      if (fileId === undefined || !file || file.kind !== 'pdf')
        throw new Error(`merging the proposal extract failed: ${problem}`);
      loaded.set(fileId, { kind: 'unreadable', name: file.name, problem });
    }
  } finally {
    await worker.close();
  }
}
