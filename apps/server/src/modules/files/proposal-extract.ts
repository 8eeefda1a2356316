import { loadFiles } from './extract-attachments.js';
import type { ExtractInput, ReadFileBytes } from './extract-input.js';
import { PdfWorkerPool, type PdfWorkerLimits } from './pdf-worker.js';

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
 * memory or time, gets its separator page with a note. The PDF work (reading uploads,
 * laying the pages out, merging) runs in a worker of `pool` (pdf-worker.ts), never on the
 * server's own thread; without a pool, in a worker of its own.
 */
export async function renderProposalExtract(
  input: ExtractInput,
  readBytes: ReadFileBytes,
  options: { attachmentsMaxBytes?: number; pdfWorker?: PdfWorkerLimits; pool?: PdfWorkerPool } = {},
): Promise<Buffer> {
  const cap = options.attachmentsMaxBytes ?? Number.POSITIVE_INFINITY;
  const pool = options.pool ?? new PdfWorkerPool(1, options.pdfWorker);
  try {
    return await pool.run(async (worker) => {
      const loaded = await loadFiles(input, readBytes, cap, worker);
      for (;;) {
        const made = await worker.run({ kind: 'extract', input, loaded });
        if ('pdf' in made) return Buffer.from(made.pdf);
        // The worker died copying a file's pages (out of memory or time): that file is
        // named as left out, and a fresh worker makes the extract without it.
        const file = 'failed' in made && made.at !== null ? loaded.get(made.at) : undefined;
        if ('failed' in made && made.at !== null && file?.kind === 'pdf') {
          loaded.set(made.at, { kind: 'unreadable', name: file.name, problem: made.failed });
          continue;
        }
        const problem = 'failed' in made ? made.failed : 'problem' in made ? made.problem : '';
        throw new Error(`making the proposal extract failed: ${problem}`);
      }
    });
  } finally {
    if (!options.pool) await pool.close();
  }
}
