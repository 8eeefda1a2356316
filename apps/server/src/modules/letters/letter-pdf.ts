import { formatDate } from '@merit/domain';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { breakable, PdfWorkerPool, richText } from '../files/files-access.js';

/*
 * A decision letter as a PDF (issue 29): the committee's name at the top, the subject, then
 * the letter's HTML laid out as the proposal extract lays out rich text, in its fonts.
 * Laid out here, rendered by pdfmake in a PDF worker thread (files/pdf-worker.ts): about
 * 55 ms of CPU a letter, which on the server's thread would stall every request while a
 * release of thousands of letters goes out. This thread never loads pdfmake.
 */

const colors = { text: '#1f2328', muted: '#59636e', accent: '#1d4f91' };

export interface LetterPdfInput {
  committeeName: string;
  subject: string;
  /** The letter's HTML as renderLetter wrote it: every value in it escaped. */
  html: string;
  /** When it was written, under the committee's name. */
  date: Date;
}

/**
 * The letter's PDF, rendered in a worker of `pool`; without a pool, in a worker of its own
 * (as the proposal extract). Fails with the reason when the worker could not make it.
 */
export async function letterPdf(
  input: LetterPdfInput,
  options: { pool?: PdfWorkerPool } = {},
): Promise<Buffer> {
  const content: Content[] = [
    { text: breakable(input.committeeName), style: 'committee' },
    // A letter is dated by its day in UTC, in Merit's one date format (issue 30).
    { text: formatDate(input.date, { timeZone: 'UTC' }), style: 'date' },
    { text: breakable(input.subject), style: 'subject' },
    richText(input.html) ?? '',
  ];
  const definition: TDocumentDefinitions = {
    pageSize: 'A4',
    pageMargins: [56, 56, 56, 56],
    info: { title: input.subject, author: input.committeeName },
    styles: {
      committee: { fontSize: 18, bold: true, color: colors.accent, margin: [0, 0, 0, 2] },
      date: { fontSize: 9.5, color: colors.muted, margin: [0, 0, 0, 18] },
      subject: { fontSize: 12, bold: true, margin: [0, 0, 0, 12] },
    },
    defaultStyle: { font: 'Roboto', fontSize: 10.5, lineHeight: 1.25, color: colors.text },
    content,
  };
  const pool = options.pool ?? new PdfWorkerPool(1);
  try {
    return await pool.run(async (worker) => {
      const made = await worker.run({ kind: 'render', definition });
      if ('pdf' in made) return Buffer.from(made.pdf);
      const problem = 'failed' in made ? made.failed : 'problem' in made ? made.problem : '';
      throw new Error(`making the letter's PDF failed: ${problem}`);
    });
  } finally {
    if (!options.pool) await pool.close();
  }
}
